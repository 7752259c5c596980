import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenpayReplica } from '../../../tests/server/replicas/openpay.ts';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  placeOrderRequest,
  productWithStock,
  sandboxToken,
  stockOf,
} from '../../../tests/server/support/checkout.ts';
import { OpenpayGateway } from '../payments/openpay.ts';
import { sweepOnce } from './sweeper.ts';

// Runs on in-memory PGlite, and on PostgreSQL with TEST_DATABASE_URL (real concurrent transactions).
describe('concurrency (sandbox gateway)', () => {
  let t: CheckoutTestApp;
  beforeAll(async () => {
    t = await createCheckoutApp();
  });
  afterAll(() => t.close());

  it('100 concurrent buyers of a product with stock 5 → exactly 5 paid orders, stock 0, the ledger balances', async () => {
    const p = await productWithStock(t, 5, 0);
    const buyers = await Promise.all(Array.from({ length: 100 }, () => createShopper(t)));
    const tokens = await Promise.all(buyers.map(() => sandboxToken(t, '4111111111111111')));
    const answers = await Promise.all(
      buyers.map((b, i) =>
        placeOrderRequest(t, b, {
          items: [{ code: p.code, quantity: 1 }],
          cardToken: tokens[i],
          deviceSessionId: `device-${i}`,
        }),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    // Each of the other 95 is refused: out of stock (409), or — with the API tests beside the journeys on two
    // cores — turned away while every database connection is busy (503 'unavailable'), which writes nothing.
    const refused = answers.filter((a) => a.statusCode === 409);
    const busy = answers.filter((a) => a.statusCode === 503);
    console.log(`100 compradores: 201×5, 409×${refused.length}, 503×${busy.length}`);
    expect(codes.filter((c) => c === 201)).toHaveLength(5);
    expect(refused.length + busy.length).toBe(95);
    expect(refused.length).toBeGreaterThan(0);
    for (const a of refused) expect(a.json().error.message).toContain(p.name);
    for (const a of busy) expect(a.json().error.code).toBe('unavailable');
    expect(await stockOf(t, p.code)).toEqual({ stock: 0, ledger: 0 });
    const [paid] = (
      await t.db.execute<{
        n: number;
      }>(sql`select count(*)::int as n from orders o join order_lines l on l.order_number = o.number
        where l.product_code = ${p.code} and o.status = 'paid'`)
    ).rows;
    expect(Number(paid!.n)).toBe(5);
    const [charges] = (
      await t.db.execute<{
        n: number;
      }>(sql`select count(*)::int as n from sandbox_charges c join order_lines l on l.order_number = split_part(c.order_id, '-', 1)::int
        where l.product_code = ${p.code}`)
    ).rows;
    expect(Number(charges!.n)).toBe(5);
  }, 60_000);

  it('50 concurrent duplicates of one Idempotency-Key → one order, one charge, one answer', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 10, 1);
    const key = randomUUID();
    const payload = {
      items: [{ code: p.code, quantity: 2 }],
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: 'device-dup',
    };
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => placeOrderRequest(t, shopper, payload, key)),
    );
    const created = answers.filter((a) => a.statusCode === 201);
    const busy = answers.filter((a) => a.statusCode === 409);
    expect(created.length + busy.length).toBe(50);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((a) => a.json().number)).size).toBe(1);
    for (const b of busy) expect(b.json().error.code).toBe('idempotency_in_progress');

    const orders = (
      await t.db.execute<{ number: number; status: string }>(
        sql`select number, status from orders where user_id = ${shopper.id}`,
      )
    ).rows;
    expect(orders).toHaveLength(1);
    expect(orders[0]!.status).toBe('paid');
    const charges = (
      await t.db.execute<{ id: string }>(
        sql`select id from sandbox_charges where order_id like ${`${orders[0]!.number}-%`}`,
      )
    ).rows;
    expect(charges).toHaveLength(1);
    expect(await stockOf(t, p.code)).toEqual({ stock: 8, ledger: 8 });
    const replay = await placeOrderRequest(t, shopper, payload, key);
    expect(replay.statusCode).toBe(201);
    expect(replay.json().number).toBe(orders[0]!.number);
  }, 60_000);

  it('the sweeper releases a reservation left unpaid for 30 minutes (stock back, ledger order_release)', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 4, 2);
    const [seq] = (await t.db.execute<{ n: number }>(sql`select nextval('order_number_seq')::int as n`)).rows;
    const number = Number(seq!.n);
    await t.db.execute(sql`insert into orders (number, user_id, status, subtotal_cents, shipping_cents, iva_cents,
        total_cents, address, idempotency_key, request_hash, reserved_until)
      values (${number}, ${shopper.id}, 'pending_payment', 100, 30000, 0, 30100, '{}'::jsonb, 'k-sweep', 'h',
        now() - interval '1 minute')`);
    await t.db.execute(sql`insert into order_lines (order_number, line_no, product_code, description, unit_price_cents, quantity)
      values (${number}, 1, ${p.code}, ${p.name}, 100, 3)`);
    await t.db.execute(sql`update products set stock = stock - 3 where code = ${p.code}`);
    await t.db.execute(sql`insert into stock_movements (product_code, delta, reason, order_number)
      values (${p.code}, -3, 'order_reserve', ${number})`);
    await t.db.execute(sql`insert into payments (order_number, gateway, status, amount_cents)
      values (${number}, 'sandbox', 'unknown', 30100)`);
    expect((await stockOf(t, p.code)).stock).toBe(1);

    const ctx = { db: t.db, gateway: t.app.paymentGateway, publicUrl: 'http://tienda.test', log: t.app.log };
    const [a, b] = await Promise.all([sweepOnce(ctx), sweepOnce(ctx)]);
    expect(a.released + b.released).toBe(1);
    expect(await stockOf(t, p.code)).toEqual({ stock: 4, ledger: 4 });
    const [order] = (
      await t.db.execute<{ status: string }>(sql`select status from orders where number = ${number}`)
    ).rows;
    expect(order!.status).toBe('payment_failed');
    expect((await sweepOnce(ctx)).released).toBe(0);
  });
});

describe('a gateway timeout after the charge went through (Openpay adapter, local replica)', () => {
  const replica = new OpenpayReplica();
  let t: CheckoutTestApp;
  beforeAll(async () => {
    await replica.start();
    t = await createCheckoutApp({
      gateway: new OpenpayGateway({
        apiUrl: replica.url,
        merchantId: replica.merchantId,
        privateKey: replica.privateKey,
        timeoutMs: 300,
      }),
    });
  });
  afterAll(async () => {
    await t.close();
    await replica.stop();
  });

  const chargesFor = (number: number) =>
    [...replica.charges.values()].filter((c) => c.order_id?.startsWith(`${number}-`));
  const posts = () =>
    replica.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/charges')).length;

  it('asks by order_id instead of charging again: one charge, the order paid', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 5, 3);
    replica.delayNextChargeAnswer(1000);
    const before = posts();
    const res = await placeOrderRequest(t, shopper, {
      items: [{ code: p.code, quantity: 1 }],
      cardToken: replica.addToken('4111111111111111'),
      deviceSessionId: 'dev',
    });
    expect(res.statusCode).toBe(201);
    const { number } = res.json() as { number: number };
    expect(chargesFor(number)).toHaveLength(1);
    expect(posts() - before).toBe(1);
    const detail = (
      await t.app.inject({ url: `/api/orders/${number}`, headers: { cookie: shopper.cookie } })
    ).json();
    expect(detail.status).toBe('paid');
    expect(await stockOf(t, p.code)).toEqual({ stock: 4, ledger: 4 });
  });

  it('when the gateway cannot even be asked, the order stays pending; the retry with the same key settles it without a second charge', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 5, 4);
    const key = randomUUID();
    const payload = {
      items: [{ code: p.code, quantity: 2 }],
      cardToken: replica.addToken('4111111111111111'),
      deviceSessionId: 'dev',
    };
    // The charge goes through but its answer is lost (timeout), and every lookup after it fails.
    replica.delayNextChargeAnswer(1000, 10);
    const first = await placeOrderRequest(t, shopper, payload, key);
    expect(first.statusCode).toBe(503);
    expect(first.json().error.code).toBe('payment_unknown');
    const [pending] = (
      await t.db.execute<{ number: number; status: string }>(
        sql`select number, status from orders where user_id = ${shopper.id}`,
      )
    ).rows;
    expect(pending!.status).toBe('pending_payment');
    expect(chargesFor(pending!.number)).toHaveLength(1);
    expect((await stockOf(t, p.code)).stock).toBe(3);

    replica.clearFailures();
    const retry = await placeOrderRequest(t, shopper, payload, key);
    expect(retry.statusCode).toBe(201);
    expect(retry.json().number).toBe(pending!.number);
    expect(chargesFor(pending!.number)).toHaveLength(1);
    const [order] = (
      await t.db.execute<{ status: string }>(sql`select status from orders where number = ${pending!.number}`)
    ).rows;
    expect(order!.status).toBe('paid');
    expect(await stockOf(t, p.code)).toEqual({ stock: 3, ledger: 3 });
  });

  it('an order left pending after a lost answer is made paid by the sweeper, not released', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 5, 5);
    replica.delayNextChargeAnswer(1000, 10);
    const pendingAnswer = placeOrderRequest(t, shopper, {
      items: [{ code: p.code, quantity: 1 }],
      cardToken: replica.addToken('4111111111111111'),
      deviceSessionId: 'dev',
    });
    expect((await pendingAnswer).statusCode).toBe(503);
    replica.clearFailures();
    await t.db.execute(
      sql`update orders set reserved_until = now() - interval '1 minute' where user_id = ${shopper.id}`,
    );
    const result = await sweepOnce({
      db: t.db,
      gateway: t.app.paymentGateway,
      publicUrl: 'http://x',
      log: t.app.log,
    });
    expect(result).toEqual({ released: 0, paid: 1 });
    const [order] = (
      await t.db.execute<{ status: string }>(sql`select status from orders where user_id = ${shopper.id}`)
    ).rows;
    expect(order!.status).toBe('paid');
    expect(await stockOf(t, p.code)).toEqual({ stock: 4, ledger: 4 });
  });
});
