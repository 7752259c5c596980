import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  placeOrderRequest,
  productWithStock,
  type Shopper,
  sandboxToken,
  stockOf,
} from '../../../tests/server/support/checkout.ts';
import type { Db } from '../db/client.ts';
import type { OrderContext } from '../orders/context.ts';
import { type CreateChargeInput, GatewayUnavailableError } from '../payments/gateway.ts';
import { SandboxGateway } from '../payments/sandbox.ts';
import { sweepOnce } from './sweeper.ts';

/**
 * The chaos test found a card charged for an order that ended 'payment_failed', its payment not recording the
 * charge: money taken, no sale, no refund. The shopper's request died (kill -9) after the gateway completed the
 * charge and before the shop recorded it; the shopper's next order released the earlier one (issue 23) without
 * asking the gateway, and nothing ever looked at the released order's attempt again. An order is never released
 * while an attempt of it may have been charged unless the gateway is asked first; a completed charge then pays
 * the order or is refunded, and the sweeper settles any attempt of a released order whose outcome is unknown.
 */

/** The sandbox, with a process that can die right after the gateway took the money, a slow bank, a failing refund. */
class CrashingGateway extends SandboxGateway {
  private gate: Promise<void> | null = null;
  entered = false;
  dieAfterCharge = false;
  refundsDown = false;
  hold(): () => void {
    let open!: () => void;
    this.gate = new Promise<void>((r) => {
      open = r;
    });
    this.entered = false;
    return open;
  }
  override async createCharge(input: CreateChargeInput) {
    const gate = this.gate;
    this.gate = null;
    this.entered = true;
    if (gate) await gate;
    const charge = await super.createCharge(input);
    if (this.dieAfterCharge) {
      this.dieAfterCharge = false;
      // The process dies here: the charge exists at the gateway, the shop never hears of it.
      throw new Error('kill -9 después del cargo');
    }
    return charge;
  }
  /** Runs while the gateway is asked for a charge by reference (between a release's first look and its commit). */
  onFind: ((orderId: string) => Promise<void>) | null = null;
  override async findChargeByOrderId(orderId: string) {
    const hook = this.onFind;
    this.onFind = null;
    if (hook) await hook(orderId);
    return super.findChargeByOrderId(orderId);
  }
  override async refund(chargeId: string, options: { description: string; amountCents?: number }) {
    if (this.refundsDown) throw new GatewayUnavailableError('la pasarela no respondió');
    return super.refund(chargeId, options);
  }
}

let t: CheckoutTestApp;
let gateway: CrashingGateway;
let ctx: OrderContext;
beforeAll(async () => {
  t = await createCheckoutApp({
    gateway: (db: Db) => {
      gateway = new CrashingGateway(db);
      return gateway;
    },
  });
  ctx = { db: t.db, gateway, publicUrl: 'http://tienda.test', log: t.app.log };
});
afterAll(() => t.close());

const body = async (code: string, quantity = 1) => ({
  items: [{ code, quantity }],
  cardToken: await sandboxToken(t, '4111111111111111'),
  deviceSessionId: 'release-charged',
});

async function until(what: () => boolean | Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > end) throw new Error('timeout');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const ordersOf = async (shopper: Shopper) =>
  (
    await t.db.execute<{ number: number; status: string }>(
      sql`select number, status from orders where user_id = ${shopper.id} order by number`,
    )
  ).rows.map((r) => ({ number: Number(r.number), status: r.status }));

/** The chaos test's books for one shopper: no completed charge unless its order is paid and its payment says so. */
async function moneyKeptWithoutSale(shopper: Shopper) {
  return (
    await t.db.execute<{ id: string; order_id: string; status: string; recorded: boolean }>(
      sql`select c.id, c.order_id, o.status,
          exists (select 1 from payments p where p.charge_id = c.id and p.status = 'completed') as recorded
        from sandbox_charges c join orders o on o.number::text = split_part(c.order_id, '-', 1)
        where o.user_id = ${shopper.id} and c.status = 'completed'
          and (o.status <> 'paid' or not exists (
            select 1 from payments p where p.charge_id = c.id and p.status = 'completed'))`,
    )
  ).rows;
}

describe("a shopper's next order and an earlier order whose charge may have gone through", () => {
  it('a charge completed just before the process died pays its order; the next order does not release it', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 10, 0);
    gateway.dieAfterCharge = true;
    const first = await placeOrderRequest(t, shopper, await body(p.code));
    expect(first.statusCode).toBe(500);
    const [a] = await ordersOf(shopper);
    expect(a!.status).toBe('pending_payment');

    const second = await placeOrderRequest(t, shopper, await body(p.code));
    expect(second.statusCode).toBe(201);

    expect(await moneyKeptWithoutSale(shopper)).toEqual([]);
    const [earlier, next] = await ordersOf(shopper);
    expect(earlier).toEqual({ number: a!.number, status: 'paid' });
    expect(next!.status).toBe('paid');
    expect(await stockOf(t, p.code)).toEqual({ stock: 8, ledger: 8 });
  });

  it('an order whose charge is in flight is kept; when its process dies after the charge, the sweeper records it', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 10, 1);
    const open = gateway.hold();
    const first = placeOrderRequest(t, shopper, await body(p.code));
    await until(() => gateway.entered);
    const [a] = await ordersOf(shopper);

    const second = await placeOrderRequest(t, shopper, await body(p.code));
    expect(second.statusCode).toBe(201);
    // Its charge is being made right now: the new order does not take its stock back.
    expect((await ordersOf(shopper))[0]).toEqual({ number: a!.number, status: 'pending_payment' });

    gateway.dieAfterCharge = true;
    open();
    expect((await first).statusCode).toBe(500);
    await t.db.execute(
      sql`update orders set reserved_until = now() - interval '1 second' where number = ${a!.number}`,
    );
    expect(await sweepOnce(ctx)).toEqual({ released: 0, paid: 1 });

    expect(await moneyKeptWithoutSale(shopper)).toEqual([]);
    expect((await ordersOf(shopper)).map((o) => o.status)).toEqual(['paid', 'paid']);
    expect(await stockOf(t, p.code)).toEqual({ stock: 8, ledger: 8 });
  });

  it('a charge completing after its order was released is refunded — and if the refund fails, the sweeper refunds it', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 10, 2);
    const open = gateway.hold();
    const first = placeOrderRequest(t, shopper, await body(p.code));
    await until(() => gateway.entered);
    const [a] = await ordersOf(shopper);
    // Its holder stalled past its lease (it will not renew a lease that ran out): as good as dead to others.
    await t.db.execute(
      sql`update idempotency_keys set locked_until = now() - interval '1 second' where order_number = ${a!.number}`,
    );
    const second = await placeOrderRequest(t, shopper, await body(p.code));
    expect(second.statusCode).toBe(201);
    expect((await ordersOf(shopper))[0]).toEqual({ number: a!.number, status: 'payment_failed' });

    // The stalled request wakes up; the bank takes the money; giving it back fails this time.
    gateway.refundsDown = true;
    open();
    const late = await first;
    expect(late.statusCode).toBe(402);
    const [attempt] = (
      await t.db.execute<{ status: string; charge_id: string | null }>(
        sql`select status, charge_id from payments where order_number = ${a!.number} order by id desc limit 1`,
      )
    ).rows;
    // The charge is on the books, its outcome for the shopper still open.
    expect(attempt!.charge_id).not.toBeNull();
    expect(attempt!.status).toBe('unknown');

    gateway.refundsDown = false;
    await sweepOnce(ctx);
    expect(await moneyKeptWithoutSale(shopper)).toEqual([]);
    const [charge] = (
      await t.db.execute<{ status: string }>(
        sql`select status from sandbox_charges where id = ${attempt!.charge_id}`,
      )
    ).rows;
    expect(charge!.status).toBe('refunded');
    const [settled] = (
      await t.db.execute<{ status: string; refunded_cents: number; amount_cents: number }>(
        sql`select status, refunded_cents, amount_cents from payments where order_number = ${a!.number} order by id desc limit 1`,
      )
    ).rows;
    expect(settled!.status).toBe('failed');
    expect(Number(settled!.refunded_cents)).toBe(Number(settled!.amount_cents));
    expect((await ordersOf(shopper)).map((o) => o.status)).toEqual(['payment_failed', 'paid']);
    expect(await stockOf(t, p.code)).toEqual({ stock: 9, ledger: 9 });
  });

  it('a request that takes the key back while the next order asks the gateway keeps its order', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 10, 3);
    const open = gateway.hold();
    const first = placeOrderRequest(t, shopper, await body(p.code));
    await until(() => gateway.entered);
    const [a] = await ordersOf(shopper);
    // Its lease ran out (a stalled holder, or a dead one) …
    await t.db.execute(
      sql`update idempotency_keys set locked_until = now() - interval '1 second' where order_number = ${a!.number}`,
    );
    // … and while the next order asks the gateway about it, a retry takes the key over (and is about to charge).
    gateway.onFind = async () => {
      await t.db.execute(
        sql`update idempotency_keys set locked_until = now() + interval '10 seconds' where order_number = ${a!.number}`,
      );
    };
    const second = await placeOrderRequest(t, shopper, await body(p.code));
    expect(second.statusCode).toBe(201);
    expect((await ordersOf(shopper))[0]).toEqual({ number: a!.number, status: 'pending_payment' });
    open();
    expect((await first).statusCode).toBe(201);
    expect(await moneyKeptWithoutSale(shopper)).toEqual([]);
    expect((await ordersOf(shopper)).map((o) => o.status)).toEqual(['paid', 'paid']);
  });
});
