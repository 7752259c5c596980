import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  placeOrderRequest,
  productWithStock,
  type Shopper,
  stockOf,
} from '../../../tests/server/support/checkout.ts';
import { auditRows, createStaff, outbox, paidOrder } from '../../../tests/server/support/staff.ts';
import { clabeCheckDigit } from '../../shared/clabe.ts';
import { reconcileAwaiting } from '../checkout/settle.ts';
import { sweepOnce } from '../checkout/sweeper.ts';
import { GatewayError } from '../payments/gateway.ts';
import type { SandboxGateway } from '../payments/sandbox.ts';
import type { OrderContext } from './context.ts';
import { balancesOf } from './ledger.ts';
import { advanceRefunds } from './refunds-owed.ts';
import { SWEEPER } from './requester.ts';

/**
 * Issue 33: money goes back the way it came. A card is refunded by Openpay (in parts too); a SPEI transfer or a
 * cash payment cannot be (Openpay refunds only card charges), so cancelling such an order owes the money to the
 * buyer's CLABE until staff pay it by an Openpay payout or record a transfer. Every step is a ledger row, every
 * message names the real route.
 */
let t: CheckoutTestApp;
let staff: Shopper;
beforeAll(async () => {
  t = await createCheckoutApp({
    env: { CHECKOUT_MAX_PENDING_ORDERS: '200', CHECKOUT_MAX_RESERVED_UNITS: '5000' },
  });
  staff = await createStaff(t);
});
afterAll(() => t.close());

const gateway = () => t.app.paymentGateway as SandboxGateway;
const ctx = (): OrderContext => ({
  db: t.db,
  gateway: t.app.paymentGateway,
  publicUrl: 'http://tienda.test',
  log: t.app.log,
});
const post = (who: Shopper, url: string, payload: Record<string, unknown> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { cookie: who.cookie }, payload });
const get = (who: Shopper, url: string) => t.app.inject({ url, headers: { cookie: who.cookie } });

/** A valid CLABE of the given bank (first 3 digits) with `tail` before its check digit. */
function clabeOf(bank: string, tail: string): string {
  const first17 = `${bank}320${'0'.repeat(11 - tail.length)}${tail}`.slice(0, 17);
  return `${first17}${clabeCheckDigit(first17)}`;
}

/** A SPEI or cash order paid at the bank and confirmed (the reconciliation asks the gateway). */
async function paidDelayedOrder(shopper: Shopper, code: string, quantity: number, method: 'spei' | 'cash') {
  const res = await placeOrderRequest(t, shopper, { items: [{ code, quantity }], paymentMethod: method });
  expect(res.statusCode, res.body).toBe(202);
  const number = (res.json() as { number: number }).number;
  const [payment] = (
    await t.db.execute<{ charge_id: string }>(
      sql`select charge_id from payments where order_number = ${number}`,
    )
  ).rows;
  await gateway().simulatePayment(payment!.charge_id);
  await reconcileAwaiting(ctx(), { everyMs: 0, batch: 500 });
  const order = (await get(shopper, `/api/orders/${number}`)).json();
  expect(order.status).toBe('paid');
  return { number, chargeId: payment!.charge_id, totalCents: order.totalCents as number };
}

describe('a SPEI or cash order cancelled: the money is owed to the buyer’s CLABE, never “refunded to the card”', () => {
  it('Openpay (the sandbox) refuses to refund a SPEI charge, so the shop does not ask it to', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 5, 0);
    const { chargeId } = await paidDelayedOrder(shopper, p.code, 1, 'spei');
    const refused = await gateway()
      .refund(chargeId, { description: 'prueba' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GatewayError);
  });

  it('SPEI: cancelled at once, stock back, “Reembolso pendiente” with the CLABE to give; paid by an Openpay payout', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 10, 1);
    const { number, totalCents } = await paidDelayedOrder(shopper, p.code, 3, 'spei');

    const cancel = await post(shopper, `/api/orders/${number}/cancel`);
    expect(cancel.statusCode, cancel.body).toBe(200);
    const body = cancel.json();
    expect(body.message).not.toMatch(/tarjeta/);
    expect(body.message).toContain('transferencia SPEI');
    expect(body.order.status).toBe('cancelled');
    expect(body.order.refunds).toEqual([
      expect.objectContaining({ route: 'payout', state: 'owed', amountCents: totalCents, clabeLast4: null }),
    ]);
    expect(await stockOf(t, p.code)).toEqual({ stock: 10, ledger: 10 });
    const [mail] = (await outbox(t, 'order-cancelled')).filter((m) => m.subject.includes(String(number)));
    expect(mail!.text).toContain('CLABE');
    expect(mail!.text).not.toMatch(/tarjeta/);
    expect(await balancesOf(t.db, number)).toMatchObject({
      paidCents: totalCents,
      refundedCents: 0,
      refundDueCents: totalCents,
      keptCents: 0,
    });

    // Staff see it in the queue with its age; paying it needs the CLABE first.
    const queue = (await get(staff, '/api/admin/refunds')).json();
    const queued = queue.refunds.find((r: { orderNumber: number }) => r.orderNumber === number);
    expect(queued).toMatchObject({ state: 'owed', amountCents: totalCents, ageHours: 0 });
    const early = await post(staff, `/api/admin/refunds/${queued.id}/payout`);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toContain('CLABE');

    // The buyer gives a CLABE: a wrong check digit is refused with the reason and changes nothing.
    const good = clabeOf('012', '1234');
    const wrong = `${good.slice(0, 17)}${(Number(good[17]) + 1) % 10}`;
    const bad = await post(shopper, `/api/orders/${number}/refund-account`, {
      clabe: wrong,
      holderName: 'Ana López',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('dígito verificador');
    const other = await createShopper(t);
    expect(
      (await post(other, `/api/orders/${number}/refund-account`, { clabe: good, holderName: 'Intruso' }))
        .statusCode,
    ).toBe(404);
    const given = await post(shopper, `/api/orders/${number}/refund-account`, {
      clabe: good,
      holderName: 'Ana López',
    });
    expect(given.statusCode, given.body).toBe(200);
    expect(given.json().message).toContain(`cuenta CLABE terminada en ${good.slice(-4)}`);

    // Staff pay it by an Openpay payout: Openpay takes it in progress and executes it later.
    const paid = await post(staff, `/api/admin/refunds/${queued.id}/payout`);
    expect(paid.statusCode, paid.body).toBe(200);
    expect((await balancesOf(t.db, number)).refundedCents).toBe(0);
    expect(await advanceRefunds(ctx(), SWEEPER)).toBeGreaterThanOrEqual(1);
    const after = (await get(shopper, `/api/orders/${number}`)).json();
    expect(after.refunds[0]).toMatchObject({ state: 'done', route: 'payout' });
    expect(after.refunds[0].sentence).toBe(
      `Le transferimos ${after.refunds[0].sentence.match(/\$[\d,.]+/)![0]} a su cuenta CLABE terminada en ${good.slice(-4)}.`,
    );
    expect(await balancesOf(t.db, number)).toMatchObject({
      paidCents: totalCents,
      refundedCents: totalCents,
      refundDueCents: 0,
      keptCents: 0,
    });
    expect(
      (await outbox(t, 'order-refund')).some(
        (m) => m.subject.includes(String(number)) && m.text.includes('Le transferimos'),
      ),
    ).toBe(true);
    expect((await auditRows(t, 'order', String(number))).map((r) => r.action)).toContain('refund.payout');
    // Paid once: asking again is refused.
    expect((await post(staff, `/api/admin/refunds/${queued.id}/payout`)).statusCode).toBe(409);
  });

  it('cash: staff record the CLABE and a transfer made from the bank with its reference', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 10, 2);
    const { number, totalCents } = await paidDelayedOrder(shopper, p.code, 2, 'cash');
    const cancel = await post(staff, `/api/admin/orders/${number}/cancel`, {
      reason: 'El cliente ya no lo necesita',
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().message).toContain('CLABE');
    const refund = cancel.json().order.refunds[0];
    expect(refund).toMatchObject({ route: 'payout', state: 'owed' });
    const account = await post(staff, `/api/admin/orders/${number}/refund-account`, {
      clabe: clabeOf('072', '9876'),
      holderName: 'Laboratorio Norte SA',
    });
    expect(account.statusCode, account.body).toBe(200);
    const short = await post(staff, `/api/admin/refunds/${refund.id}/transfer`, { reference: '' });
    expect(short.statusCode).toBe(400);
    const done = await post(staff, `/api/admin/refunds/${refund.id}/transfer`, {
      reference: 'BNTE123456789',
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().order.refunds[0]).toMatchObject({
      state: 'done',
      route: 'transfer',
      reference: 'BNTE123456789',
    });
    const b = await balancesOf(t.db, number);
    expect(b).toMatchObject({ paidCents: totalCents, refundedCents: totalCents, refundDueCents: 0 });
    expect(b.refundedByRoute.transfer).toBe(totalCents);
    expect(
      (await post(staff, `/api/admin/refunds/${refund.id}/transfer`, { reference: 'OTRA-1234' })).statusCode,
    ).toBe(409);
  });
});

describe('staff give back part of a card order', () => {
  it('two partial refunds and a later cancellation add up to what was paid, never more', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 10, 3);
    const number = await paidOrder(t, shopper, [{ code: p.code, quantity: 4 }]);
    const { totalCents } = (await get(shopper, `/api/orders/${number}`)).json();

    const first = await post(staff, `/api/admin/orders/${number}/refunds`, {
      amountCents: 10_000,
      reason: 'Una pieza llegó rota',
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().message).toContain('tarjeta');
    const second = await post(staff, `/api/admin/orders/${number}/refunds`, {
      amountCents: 5_000,
      reason: 'Descuento acordado',
    });
    expect(second.statusCode, second.body).toBe(200);
    const tooMuch = await post(staff, `/api/admin/orders/${number}/refunds`, {
      amountCents: totalCents,
      reason: 'Error de captura',
    });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().error.code).toBe('refund_too_large');
    const charge = await gateway().getCharge(
      (
        await t.db.execute<{ charge_id: string }>(
          sql`select charge_id from payments where order_number = ${number} and status = 'completed'`,
        )
      ).rows[0]!.charge_id,
    );
    expect(charge.refundedCents).toBe(15_000);
    expect(charge.status).toBe('completed');

    const cancel = await post(shopper, `/api/orders/${number}/cancel`);
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().message).toContain(`a la tarjeta con la que pagó`);
    const after = await gateway().getCharge(charge.id);
    expect(after.refundedCents).toBe(totalCents);
    expect(await balancesOf(t.db, number)).toMatchObject({
      paidCents: totalCents,
      refundedCents: totalCents,
      refundDueCents: 0,
      keptCents: 0,
    });
    const refunds = cancel.json().order.refunds as { amountCents: number; state: string }[];
    expect(refunds.map((r) => r.amountCents)).toEqual([10_000, 5_000, totalCents - 15_000]);
    expect(refunds.every((r) => r.state === 'done')).toBe(true);
  });

  it('bad input is a 400 in Spanish and changes nothing; an unpaid order has nothing to refund', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 10, 4);
    const number = await paidOrder(t, shopper, [{ code: p.code, quantity: 1 }]);
    for (const payload of [
      { amountCents: -5, reason: 'Motivo válido' },
      { amountCents: 100, reason: 'x' },
      { amountCents: 1.5, reason: 'Motivo válido' },
    ]) {
      const res = await post(staff, `/api/admin/orders/${number}/refunds`, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(/[áéíóúñ]|importe|motivo/i);
    }
    expect((await balancesOf(t.db, number)).refundDueCents).toBe(0);
    expect(
      (await post(staff, '/api/admin/orders/999999/refunds', { amountCents: 100, reason: 'Motivo válido' }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await post(shopper, `/api/admin/orders/${number}/refunds`, {
          amountCents: 100,
          reason: 'Motivo válido',
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe('a payout interrupted between the request and its record', () => {
  it('the sweeper finds it by its order_id and records it once; Openpay holds one payout', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 10, 5);
    const { number, totalCents } = await paidDelayedOrder(shopper, p.code, 1, 'spei');
    expect((await post(shopper, `/api/orders/${number}/cancel`)).statusCode).toBe(200);
    await post(shopper, `/api/orders/${number}/refund-account`, {
      clabe: clabeOf('014', '5555'),
      holderName: 'Ana López',
    });
    const [refund] = (
      await t.db.execute<{ id: number }>(sql`select id from order_refunds where order_number = ${number}`)
    ).rows;

    // What a process killed right after Openpay took the payout leaves: the claim (in_progress, our order_id,
    // a lease that is no longer renewed) and a payout at Openpay that we never recorded.
    const ref = `${number}-d${refund!.id}-crash`;
    await t.db.execute(
      sql`update order_refunds set state = 'in_progress', provider_ref = ${ref}, lease_until = now() - interval '1 second' where id = ${refund!.id}`,
    );
    const [row] = (
      await t.db.execute<{ clabe: string; holder_name: string }>(
        sql`select clabe, holder_name from order_refunds where id = ${refund!.id}`,
      )
    ).rows;
    await gateway().createPayout({
      amountCents: totalCents,
      clabe: row!.clabe,
      holderName: row!.holder_name,
      description: 'x',
      orderId: ref,
    });

    await sweepOnce(ctx());
    const payouts = (
      await t.db.execute<{ n: number }>(
        sql`select count(*)::int as n from sandbox_payouts where order_id = ${ref}`,
      )
    ).rows[0]!.n;
    expect(payouts).toBe(1);
    expect(await balancesOf(t.db, number)).toMatchObject({ refundedCents: totalCents, refundDueCents: 0 });
    await sweepOnce(ctx());
    const ledger = (
      await t.db.execute<{ n: number }>(
        sql`select count(*)::int as n from order_ledger where order_number = ${number} and kind = 'refund'`,
      )
    ).rows[0]!.n;
    expect(ledger).toBe(1);
  });
});
