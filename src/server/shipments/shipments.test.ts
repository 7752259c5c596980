import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  createStaff,
  outbox,
  paidOrder,
  productWithStock,
  type Shopper,
  stockOf,
} from '../../../tests/server/support/staff.ts';
import { products } from '../db/schema.ts';
import { receiveGoods } from './receiving.ts';

/**
 * Issue 35 (decision 061): shipments as objects with the order's state derived from them, goods received filling
 * the oldest backorders first in one transaction, and a backorder past its window given up with a refund.
 * (The ways an order travels — hazardous goods, pickup — are in delivery-methods.test.ts.)
 */
let t: CheckoutTestApp;
let staff: Shopper;
beforeAll(async () => {
  t = await createCheckoutApp();
  staff = await createStaff(t);
});
afterAll(() => t.close());

const admin = (url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url, headers: { cookie: staff.cookie }, ...(payload ? { payload } : {}) });
const receipt = async (shopper: Shopper, number: number) =>
  (await t.app.inject({ url: `/api/orders/${number}`, headers: { cookie: shopper.cookie } })).json();
const STAFF = () => ({ kind: 'staff' as const, actor: { userId: staff.id, label: staff.email } });

/** A product the others do not use: `index` picks it; flagged 'sobre pedido' when `backorder`. */
async function product(index: number, stock: number, backorder = false) {
  const p = await productWithStock(t, stock, index);
  await t.db
    .update(products)
    .set({
      backorderable: backorder,
      leadMinDays: backorder ? 10 : null,
      leadMaxDays: backorder ? 15 : null,
      hazardStatements: [],
      familyCode: null,
    })
    .where(eq(products.code, p.code));
  return p;
}

async function lines(number: number) {
  return (
    await t.db.execute<{
      line_no: number;
      product_code: string;
      quantity: number;
      backordered_quantity: number;
      received_quantity: number;
      shipped_quantity: number;
      backorder_to: string | null;
    }>(sql`select line_no, product_code, quantity, backordered_quantity, received_quantity, shipped_quantity,
      backorder_to::text from order_lines where order_number = ${number} order by line_no`)
  ).rows;
}

describe('shipments: a 5-line order with one line sobre pedido', () => {
  it('ships in part, receives the backorder, ships the rest: state derived, one mail per shipment, /historial shows both', async () => {
    const shopper = await createShopper(t);
    const stocked = await Promise.all([0, 1, 2, 3].map((i) => product(i, 20)));
    const later = await product(4, 1, true);
    const number = await paidOrder(t, shopper, [
      ...stocked.map((p) => ({ code: p.code, quantity: 2 })),
      { code: later.code, quantity: 4 },
    ]);
    const before = await lines(number);
    const backLine = before.find((l) => l.product_code === later.code)!;
    expect(backLine).toMatchObject({ quantity: 4, backordered_quantity: 3 });

    // The single-guide step of before (the whole order at once) cannot ship what has not arrived.
    expect((await admin(`/api/admin/orders/${number}/prepare`)).statusCode).toBe(200);
    const whole = await admin(`/api/admin/orders/${number}/ship`, {
      trackingGuide: 'EST-1',
      deliveryProvider: 'Estafeta',
      deliveryDate: '2099-01-15',
    });
    expect(whole.statusCode).toBe(409);
    expect(whole.json().error.code).toBe('backorder_awaited');

    // A tracking number that is not DHL's format: 400 naming the field, nothing written.
    const bad = await admin(`/api/admin/orders/${number}/shipments`, {
      carrier: 'dhl',
      trackingNumber: '12345',
      lines: [{ lineNo: 1, quantity: 2 }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.trackingNumber).toBe('La guía de DHL Express tiene 10 dígitos');
    // More than is ready of the sobre pedido line (1 from stock): 409, nothing written.
    const tooMany = await admin(`/api/admin/orders/${number}/shipments`, {
      carrier: 'dhl',
      trackingNumber: '1234567890',
      lines: [{ lineNo: backLine.line_no, quantity: 2 }],
    });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().error.message).toContain('solo hay 1 unidad lista para enviar');

    // Shipment 1: everything in stock (4 lines × 2 and the 1 unit of the fifth).
    const first = await admin(`/api/admin/orders/${number}/shipments`, {
      carrier: 'estafeta',
      trackingNumber: '8055 2411 03',
      lines: before.map((l) => ({ lineNo: l.line_no, quantity: l.quantity - l.backordered_quantity })),
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().order).toMatchObject({
      status: 'partially_shipped',
      statusLabel: 'Enviado parcialmente',
    });
    expect(first.json().order.actions.cancel).toBe(false);

    let mine = await receipt(shopper, number);
    expect(mine.statusLabel).toBe('Enviado parcialmente');
    expect(mine.delivery.shipments).toHaveLength(1);
    expect(mine.delivery.shipments[0]).toMatchObject({
      seq: 1,
      carrierName: 'Estafeta',
      trackingNumber: '8055241103',
      trackingUrl: 'https://www.estafeta.com/Herramientas/Rastreo?wayBill=8055241103',
    });
    expect(mine.delivery.lines.find((l: { code: string }) => l.code === later.code)).toMatchObject({
      shipped: 1,
      ready: 0,
      awaited: 3,
    });

    // Nothing more is ready: a second shipment is refused until goods arrive.
    const early = await admin(`/api/admin/orders/${number}/shipments`, {
      carrier: 'fedex',
      trackingNumber: '123456789012',
      lines: [{ lineNo: backLine.line_no, quantity: 3 }],
    });
    expect(early.statusCode).toBe(409);

    // Goods received: the 3 awaited units fill the line, 2 more go to stock; the promised date moves up.
    const got = await admin('/api/admin/stock/receipts', {
      code: later.code,
      quantity: 5,
      lot: 'L-2611-07',
      expiresOn: '2028-06-30',
    });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toMatchObject({ allocations: [{ orderNumber: number, quantity: 3 }], toStock: 2 });
    expect(got.json().message).toBe(
      `Recibidas 5 unidades: surtimos el pedido #${number}, listo para su siguiente envío; 2 pasan a existencias`,
    );
    expect(await stockOf(t, later.code)).toEqual({ stock: 2, ledger: 2 });
    mine = await receipt(shopper, number);
    const progress = mine.delivery.lines.find((l: { code: string }) => l.code === later.code);
    expect(progress).toMatchObject({ shipped: 1, ready: 3, awaited: 0 });

    const second = await admin(`/api/admin/orders/${number}/shipments`, {
      carrier: 'fedex',
      trackingNumber: '123456789012',
      lines: [{ lineNo: backLine.line_no, quantity: 3 }],
    });
    expect(second.statusCode).toBe(200);
    expect(second.json().order.status).toBe('shipped');
    mine = await receipt(shopper, number);
    expect(
      mine.delivery.shipments.map((s: { seq: number; carrierName: string }) => [s.seq, s.carrierName]),
    ).toEqual([
      [1, 'Estafeta'],
      [2, 'FedEx'],
    ]);
    expect(mine.delivery.shipments[1].trackingUrl).toBe(
      'https://www.fedex.com/fedextrack/?trknbr=123456789012',
    );
    const listed = (await t.app.inject({ url: '/api/orders', headers: { cookie: shopper.cookie } }))
      .json()
      .orders.find((o: { number: number }) => o.number === number);
    expect(listed.shipments.map((s: { trackingNumber: string }) => s.trackingNumber)).toEqual([
      '8055241103',
      '123456789012',
    ]);

    const mails = (await outbox(t, 'order-shipment')).filter((m) => m.to === shopper.email);
    expect(mails.map((m) => m.subject)).toEqual([
      `Envío 1 de su pedido #${number} va en camino`,
      `Envío 2 de su pedido #${number} va en camino`,
    ]);
    expect(mails[0]!.text).toContain('el resto se lo enviaremos');
    expect(mails[1]!.text).toContain('123456789012');

    // Delivered one by one: the order is 'Entregado' only with the last.
    expect((await admin(`/api/admin/orders/${number}/shipments/1/delivered`)).json().order.status).toBe(
      'shipped',
    );
    expect((await admin(`/api/admin/orders/${number}/shipments/1/delivered`)).statusCode).toBe(409);
    expect((await admin(`/api/admin/orders/${number}/shipments/2/delivered`)).json().order.status).toBe(
      'delivered',
    );
  });
});

describe('goods received', () => {
  it('fill the backorders of 3 orders oldest first, and only then go to stock', async () => {
    const p = await product(5, 0, true);
    const buyers = await Promise.all([0, 1, 2].map(() => createShopper(t)));
    const numbers: number[] = [];
    for (const b of buyers) numbers.push(await paidOrder(t, b, [{ code: p.code, quantity: 3 }]));
    const result = await receiveGoods(t.db, STAFF(), {
      code: p.code,
      quantity: 5,
      lot: 'A1',
      expiresOn: '2029-01-31',
    });
    expect(result.allocations).toEqual([
      { orderNumber: numbers[0], lineNo: 1, quantity: 3 },
      { orderNumber: numbers[1], lineNo: 1, quantity: 2 },
    ]);
    expect(result.toStock).toBe(0);
    const more = await receiveGoods(t.db, STAFF(), {
      code: p.code,
      quantity: 6,
      lot: 'A2',
      expiresOn: '2029-03-31',
    });
    expect(more.allocations).toEqual([
      { orderNumber: numbers[1], lineNo: 1, quantity: 1 },
      { orderNumber: numbers[2], lineNo: 1, quantity: 3 },
    ]);
    expect(more.toStock).toBe(2);
    expect(await stockOf(t, p.code)).toEqual({ stock: 2, ledger: 2 });
    // The first order's line is complete: its promised date is now the next business day, not the old window.
    const [first] = await lines(numbers[0]!);
    expect(first!.received_quantity).toBe(3);
    const [third] = await lines(numbers[2]!);
    expect(third!.received_quantity).toBe(3);
    expect(first!.backorder_to! < third!.backorder_to! || first!.backorder_to === third!.backorder_to).toBe(
      true,
    );
  });

  it('a reagent is received with its lot and expiry (400 naming the field), an unknown code is 404', async () => {
    const p = await product(6, 0, true);
    await t.db.update(products).set({ grade: 'ACS' }).where(eq(products.code, p.code));
    const noExpiry = await admin('/api/admin/stock/receipts', { code: p.code, quantity: 2, lot: 'X' });
    expect(noExpiry.statusCode).toBe(400);
    expect(noExpiry.json().error.fields.expiresOn).toBe('Un reactivo se recibe con su fecha de caducidad');
    const unknown = await admin('/api/admin/stock/receipts', { code: 'NO-EXISTE-1', quantity: 2 });
    expect(unknown.statusCode).toBe(404);
  });

  it('is one transaction: a failure between the receipt and the allocation leaves nothing behind', async () => {
    const p = await product(7, 0, true);
    const shopper = await createShopper(t);
    const number = await paidOrder(t, shopper, [{ code: p.code, quantity: 2 }]);
    // The allocation step fails (as a crash there would): the database refuses its first row.
    await t.db.execute(sql`create or replace function fail_allocation() returns trigger language plpgsql as $$
      begin raise exception 'simulated crash between receiving and allocating'; end $$`);
    await t.db.execute(sql`create trigger fail_allocation before insert on backorder_allocations
      for each row execute function fail_allocation()`);
    try {
      await expect(
        receiveGoods(t.db, STAFF(), { code: p.code, quantity: 4, lot: 'C1', expiresOn: '2029-01-01' }),
      ).rejects.toThrow();
    } finally {
      await t.db.execute(sql`drop trigger fail_allocation on backorder_allocations`);
    }
    const receipts = await t.db.execute(sql`select 1 from goods_receipts where product_code = ${p.code}`);
    expect(receipts.rows).toHaveLength(0);
    expect(await stockOf(t, p.code)).toEqual({ stock: 0, ledger: 0 });
    expect((await lines(number))[0]!.received_quantity).toBe(0);
    // Done again once the fault is gone: the same goods land exactly once.
    const again = await receiveGoods(t.db, STAFF(), {
      code: p.code,
      quantity: 4,
      lot: 'C1',
      expiresOn: '2029-01-01',
    });
    expect(again.allocations).toEqual([{ orderNumber: number, lineNo: 1, quantity: 2 }]);
    expect(await stockOf(t, p.code)).toEqual({ stock: 2, ledger: 2 });
  });
});

describe('a backorder past its promised window', () => {
  it('moves to a new date with a staff alert and a mail; the buyer gives it up and is refunded through the ledger', async () => {
    const stocked = await product(2, 10);
    const later = await product(3, 0, true);
    const shopper = await createShopper(t);
    const number = await paidOrder(t, shopper, [
      { code: stocked.code, quantity: 1 },
      { code: later.code, quantity: 2 },
    ]);
    const [first, second] = await lines(number);
    const backLine = first!.product_code === later.code ? first! : second!;
    const stockLine = backLine === first ? second! : first!;
    const sent = await admin(`/api/admin/orders/${number}/shipments`, {
      carrier: 'paquetexpress',
      trackingNumber: 'GDL123456789',
      lines: [{ lineNo: stockLine.line_no, quantity: 1 }],
    });
    expect(sent.json().order.status).toBe('partially_shipped');
    const giveUp = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/orders/${number}/lines/${backLine.line_no}/cancel-backorder`,
        headers: { cookie: shopper.cookie },
      });
    // Within its window: not yet.
    const early = await giveUp();
    expect(early.statusCode).toBe(409);
    expect(early.json().error.code).toBe('not_late');

    await t.db.execute(
      sql`update order_lines set backorder_from = current_date - 10, backorder_to = current_date - 1
        where order_number = ${number} and line_no = ${backLine.line_no}`,
    );
    expect(await t.app.jobs.runOnce('sobre-pedido-retrasado')).toBe('done');
    await t.app.jobs.runOnce('sobre-pedido-retrasado');
    const [moved] = (await lines(number)).filter((l) => l.line_no === backLine.line_no);
    expect(moved!.backorder_to! > new Date().toISOString().slice(0, 10)).toBe(true);
    const mails = (await outbox(t, 'backorder-late')).filter((m) => m.to === shopper.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('puede cancelar esa parte');
    const staffView = (
      await t.app.inject({ url: `/api/admin/orders/${number}`, headers: { cookie: staff.cookie } })
    ).json();
    expect(staffView.paymentAlerts.map((a: { kind: string }) => a.kind)).toContain('backorder_late');

    // Someone else's order answers like a missing one.
    const stranger = await createShopper(t);
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${number}/lines/${backLine.line_no}/cancel-backorder`,
      headers: { cookie: stranger.cookie },
    });
    expect(foreign.statusCode).toBe(404);

    const done = await giveUp();
    expect(done.statusCode).toBe(200);
    const [price] = (
      await t.db.execute<{ unit_price_cents: string }>(
        sql`select unit_price_cents from order_lines where order_number = ${number} and line_no = ${backLine.line_no}`,
      )
    ).rows;
    const refunded = 2 * Number(price!.unit_price_cents);
    expect(done.json().order).toMatchObject({ status: 'shipped', refundedCents: refunded });
    expect(
      done.json().order.delivery.lines.find((l: { lineNo: number }) => l.lineNo === backLine.line_no),
    ).toMatchObject({
      cancelled: 2,
      awaited: 0,
    });
    const ledger = (
      await t.db.execute<{ kind: string; amount_cents: string }>(
        sql`select kind, amount_cents from order_ledger where order_number = ${number} and kind in ('refund_due', 'refund') order by id`,
      )
    ).rows.map((r) => [r.kind, Number(r.amount_cents)]);
    expect(ledger).toEqual([
      ['refund_due', refunded],
      ['refund', refunded],
    ]);
    expect((await giveUp()).statusCode).toBe(409);
  });
});
