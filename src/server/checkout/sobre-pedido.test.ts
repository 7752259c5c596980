import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  placeOrderRequest,
  productWithStock,
  sandboxToken,
  stockOf,
} from '../../../tests/server/support/checkout.ts';
import { promisedDates } from '../../shared/backorder.ts';
import { products } from '../db/schema.ts';
import { createPendingOrder } from '../orders/create.ts';

/**
 * 'Sobre pedido' (decision 029): a flagged presentation is sold beyond its stock — the order takes min(q, stock)
 * from stock (a ledger row for exactly that) and records the rest as backordered with its promised window; a
 * cancellation or an expiry gives back only what stock gave. Products that are not flagged keep the exact rule.
 * Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL (real concurrent transactions).
 */
let t: CheckoutTestApp;
beforeAll(async () => {
  t = await createCheckoutApp();
});
afterAll(() => t.close());

async function sobrePedido(stock: number, index: number, lead = { min: 10, max: 15 }) {
  const p = await productWithStock(t, stock, index);
  await t.db
    .update(products)
    .set({ backorderable: true, leadMinDays: lead.min, leadMaxDays: lead.max })
    .where(eq(products.code, p.code));
  return p;
}

async function linesOf(number: number) {
  return (
    await t.db.execute<{
      product_code: string;
      quantity: number;
      backordered_quantity: number;
      backorder_from: string | null;
      backorder_to: string | null;
    }>(sql`select product_code, quantity, backordered_quantity, backorder_from::text, backorder_to::text
      from order_lines where order_number = ${number} order by line_no`)
  ).rows;
}

const pay = async (cardNumber = '4111111111111111') => ({
  cardToken: await sandboxToken(t, cardNumber),
  deviceSessionId: 'device-sobre-pedido',
});

describe('sobre pedido: placing the order', () => {
  it('partly in stock: 3 ship now, 7 backordered with the promised window; stock 0 and the ledger exact', async () => {
    const p = await sobrePedido(3, 0);
    const shopper = await createShopper(t);
    const quote = await t.app.inject({
      method: 'POST',
      url: '/api/cart/quote',
      payload: { items: [{ code: p.code, quantity: 10 }] },
    });
    expect(quote.json()).toMatchObject({
      ok: true,
      lines: [
        {
          code: p.code,
          available: true,
          error: null,
          backordered: 7,
          leadTime: { minDays: 10, maxDays: 15 },
        },
      ],
    });
    const res = await placeOrderRequest(t, shopper, {
      items: [{ code: p.code, quantity: 10 }],
      ...(await pay()),
    });
    expect(res.statusCode).toBe(201);
    const { number } = res.json();
    const expected = promisedDates(new Date());
    const window = expected.window({ minDays: 10, maxDays: 15 });
    expect(await linesOf(number)).toEqual([
      {
        product_code: p.code,
        quantity: 10,
        backordered_quantity: 7,
        backorder_from: window.from,
        backorder_to: window.to,
      },
    ]);
    expect(await stockOf(t, p.code)).toEqual({ stock: 0, ledger: 0 });
    const reserve = (
      await t.db.execute<{ delta: number }>(
        sql`select delta from stock_movements where order_number = ${number} and reason = 'order_reserve'`,
      )
    ).rows;
    expect(reserve.map((r) => Number(r.delta))).toEqual([-3]);

    // The order page says it per line, and the order keeps the ship-now date; the sale is the whole quantity.
    const detail = (
      await t.app.inject({ url: `/api/orders/${number}`, headers: { cookie: shopper.cookie } })
    ).json();
    expect(detail.shipNowBy).toBe(expected.shipNowBy);
    expect(detail.lines[0]).toMatchObject({
      quantity: 10,
      lineTotalCents: p.priceCents * 10,
      backorderedQuantity: 7,
      backorderFrom: window.from,
      backorderTo: window.to,
    });
    // The confirmation mail says what ships now and what later.
    const mail = (
      await t.db.execute<{ text: string }>(
        sql`select text from mail_outbox where kind = 'order-paid' and dedupe_key = ${`order-paid:${number}`}`,
      )
    ).rows[0];
    expect(mail?.text).toContain('Se envían ahora: 3 · 7 sobre pedido, entrega entre el');
  });

  it('zero stock: the whole quantity is backordered, nothing taken from stock, no ledger row', async () => {
    const p = await sobrePedido(0, 1, { min: 5, max: 5 });
    const shopper = await createShopper(t);
    const res = await placeOrderRequest(t, shopper, {
      items: [{ code: p.code, quantity: 4 }],
      ...(await pay()),
    });
    expect(res.statusCode).toBe(201);
    const { number } = res.json();
    const [line] = await linesOf(number);
    expect(line).toMatchObject({ quantity: 4, backordered_quantity: 4 });
    expect(line?.backorder_from).toBe(line?.backorder_to);
    expect(await stockOf(t, p.code)).toEqual({ stock: 0, ledger: 0 });
    const moves = await t.db.execute(sql`select 1 from stock_movements where order_number = ${number}`);
    expect(moves.rows).toEqual([]);
  });

  it('a product that is not sobre pedido is still refused above stock, with the same message, nothing written', async () => {
    const p = await productWithStock(t, 2, 2);
    const shopper = await createShopper(t);
    const quote = await t.app.inject({
      method: 'POST',
      url: '/api/cart/quote',
      payload: { items: [{ code: p.code, quantity: 3 }] },
    });
    expect(quote.json()).toMatchObject({
      ok: false,
      lines: [{ available: false, error: 'Solo hay 2 disponibles', backordered: 0, leadTime: null }],
    });
    const res = await placeOrderRequest(t, shopper, {
      items: [{ code: p.code, quantity: 3 }],
      ...(await pay()),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual({
      code: 'out_of_stock',
      message: `Sin existencia suficiente de ${p.name}: solo hay 2 disponibles`,
    });
    expect(await stockOf(t, p.code)).toEqual({ stock: 2, ledger: 2 });
  });

  it('cancelling gives back only what was taken from stock (3 of 10), the ledger exact', async () => {
    const p = await sobrePedido(3, 3);
    const shopper = await createShopper(t);
    const res = await placeOrderRequest(t, shopper, {
      items: [{ code: p.code, quantity: 10 }],
      ...(await pay()),
    });
    expect(res.statusCode).toBe(201);
    const { number } = res.json();
    expect(await stockOf(t, p.code)).toEqual({ stock: 0, ledger: 0 });
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${number}/cancel`,
      headers: { cookie: shopper.cookie },
    });
    expect(cancel.statusCode).toBe(200);
    expect(await stockOf(t, p.code)).toEqual({ stock: 3, ledger: 3 });
  });

  it('a declined payment releases only what was taken from stock', async () => {
    const p = await sobrePedido(2, 4);
    const shopper = await createShopper(t);
    const res = await placeOrderRequest(t, shopper, {
      items: [{ code: p.code, quantity: 6 }],
      ...(await pay('4222222222222220')),
    });
    expect(res.statusCode).toBe(402);
    expect(await stockOf(t, p.code)).toEqual({ stock: 2, ledger: 2 });
  });

  it('the units held while unpaid count only what stock gave: a backordered quantity above the cap is accepted', async () => {
    const p = await sobrePedido(0, 5);
    const shopper = await createShopper(t);
    const res = await placeOrderRequest(t, shopper, {
      items: [{ code: p.code, quantity: 600 }],
      ...(await pay()),
    });
    expect(res.statusCode).toBe(201);
    expect((await linesOf(res.json().number))[0]).toMatchObject({ quantity: 600, backordered_quantity: 600 });
  });

  it('the promised dates count business days in Mexico City and skip a holiday (third Monday of November)', async () => {
    const p = await sobrePedido(1, 6);
    const shopper = await createShopper(t);
    // Friday 13 November 2026, 21:30 in Mexico City (03:30 UTC on the 14th): the next business day is Tuesday 17.
    const placedAt = new Date('2026-11-14T03:30:00Z');
    const number = await t.db.transaction((tx) =>
      createPendingOrder(tx, {
        userId: shopper.id,
        address: {} as never,
        idempotencyKey: `dates-${p.code}`,
        requestHash: 'x',
        reservationMinutes: 30,
        placedAt,
        amounts: { subtotalCents: 0, shippingCents: 0, ivaCents: 0, totalCents: 0 },
        lines: [{ code: p.code, name: p.name, unitPriceCents: p.priceCents, quantity: 5, weightKg: 0 }],
      }),
    );
    expect(await linesOf(number)).toEqual([
      {
        product_code: p.code,
        quantity: 5,
        backordered_quantity: 4,
        backorder_from: '2026-11-30',
        backorder_to: '2026-12-07',
      },
    ]);
    const [order] = (
      await t.db.execute<{ d: string }>(
        sql`select ship_now_by::text as d from orders where number = ${number}`,
      )
    ).rows;
    expect(order?.d).toBe('2026-11-17');
  });
});

describe('sobre pedido under concurrency', () => {
  it('30 concurrent buyers of 2 units each, stock 5: all placed, stock never below 0, 5 from stock and 55 backordered', async () => {
    const p = await sobrePedido(5, 7);
    const buyers = await Promise.all(Array.from({ length: 30 }, () => createShopper(t)));
    const tokens = await Promise.all(buyers.map(() => sandboxToken(t, '4111111111111111')));
    const answers = await Promise.all(
      buyers.map((b, i) =>
        placeOrderRequest(t, b, {
          items: [{ code: p.code, quantity: 2 }],
          cardToken: tokens[i],
          deviceSessionId: `device-${i}`,
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 201));
    expect(await stockOf(t, p.code)).toEqual({ stock: 0, ledger: 0 });
    const [sums] = (
      await t.db.execute<{ taken: number; backordered: number; lines: number }>(
        sql`select sum(quantity - backordered_quantity)::int as taken, sum(backordered_quantity)::int as backordered,
          count(*)::int as lines from order_lines where product_code = ${p.code}`,
      )
    ).rows;
    expect({
      taken: Number(sums!.taken),
      backordered: Number(sums!.backordered),
      lines: Number(sums!.lines),
    }).toEqual({
      taken: 5,
      backordered: 55,
      lines: 30,
    });
    // What each order took from stock is exactly its ledger row.
    const [mismatch] = (
      await t.db.execute<{ n: number }>(
        sql`select count(*)::int as n from order_lines l
          where l.product_code = ${p.code} and (l.quantity - l.backordered_quantity) <> -coalesce(
            (select sum(delta) from stock_movements m where m.order_number = l.order_number and m.product_code = l.product_code), 0)`,
      )
    ).rows;
    expect(Number(mismatch!.n)).toBe(0);
  }, 60_000);
});
