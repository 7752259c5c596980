import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
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
import { createStaff } from '../../../tests/server/support/staff.ts';
import { saleIva } from '../../shared/money.ts';

const APPROVED = '4111111111111111';
let t: CheckoutTestApp;
beforeAll(async () => {
  t = await createCheckoutApp();
});
afterAll(() => t.close());

const body = async (items: { code: string; quantity: number }[], card = APPROVED) => ({
  items,
  cardToken: await sandboxToken(t, card),
  deviceSessionId: 'dev-session-1',
});

const orderCount = async () =>
  Number((await t.db.execute<{ n: number }>(sql`select count(*)::int as n from orders`)).rows[0]!.n);

describe('POST /api/orders — paying', () => {
  it('charges the server total (prices in the body are ignored), marks the order paid and mails the shopper', async () => {
    const shopper = await createShopper(t);
    const a = await productWithStock(t, 10, 0);
    const b = await productWithStock(t, 10, 1);
    await t.db.execute(
      sql`insert into carts (user_id, items) values (${shopper.id}, ${JSON.stringify([
        { code: a.code, quantity: 2 },
        { code: 'OTRO-1', quantity: 1 },
      ])}::jsonb)`,
    );
    const payload = {
      ...(await body([
        { code: a.code, quantity: 2 },
        { code: b.code, quantity: 1 },
      ])),
      totalCents: 1,
      items: [
        { code: a.code, quantity: 2, priceCents: 1 },
        { code: b.code, quantity: 1, unitPriceCents: 1 },
      ],
    };
    const res = await placeOrderRequest(t, shopper, payload);
    expect(res.statusCode).toBe(201);
    const { number } = res.json() as { number: number };
    expect(number).toBeGreaterThanOrEqual(1001);

    const detail = (
      await t.app.inject({ url: `/api/orders/${number}`, headers: { cookie: shopper.cookie } })
    ).json();
    expect(detail.status).toBe('paid');
    expect(detail.statusLabel).toBe('Pagado');
    expect(detail.subtotalCents).toBe(a.priceCents * 2 + b.priceCents);
    expect(detail.totalCents).toBe(detail.subtotalCents + detail.shippingCents);
    expect(detail.shippingCents).toBeGreaterThanOrEqual(30000);
    // The IVA the CFDI will state: per line and shipping (decision 048).
    expect(detail.ivaCents).toBe(saleIva([a.priceCents * 2, b.priceCents, detail.shippingCents]));
    expect(detail.address.calleEnvio).toBe('Avenida Juárez Centro');
    expect(detail.trackingGuide).toBe('Sin asignar');
    expect(detail.lines.map((l: { code: string }) => l.code)).toEqual([a.code, b.code]);

    const [charge] = (
      await t.db.execute<{ amount_cents: number; order_id: string }>(
        sql`select amount_cents, order_id from sandbox_charges where order_id like ${`${number}-%`}`,
      )
    ).rows;
    expect(Number(charge!.amount_cents)).toBe(detail.totalCents);

    expect(await stockOf(t, a.code)).toEqual({ stock: 8, ledger: 8 });
    expect(await stockOf(t, b.code)).toEqual({ stock: 9, ledger: 9 });
    const mail = (
      await t.db.execute<{ subject: string; to: string }>(
        sql`select subject, "to" from mail_outbox where dedupe_key = ${`order-paid:${number}`}`,
      )
    ).rows;
    expect(mail).toEqual([{ subject: 'Compra realizada con éxito', to: shopper.email }]);
    const [cart] = (
      await t.db.execute<{ items: { code: string }[] }>(
        sql`select items from carts where user_id = ${shopper.id}`,
      )
    ).rows;
    expect(cart!.items.map((i) => i.code)).toEqual(['OTRO-1']);
  });

  it('replays the first answer for the same key and body, and refuses the key with another body', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 10, 2);
    const key = randomUUID();
    const payload = await body([{ code: p.code, quantity: 1 }]);
    const first = await placeOrderRequest(t, shopper, payload, key);
    const before = await orderCount();
    const again = await placeOrderRequest(t, shopper, payload, key);
    expect(again.statusCode).toBe(first.statusCode);
    expect(again.json()).toEqual(first.json());
    expect(await orderCount()).toBe(before);
    expect((await stockOf(t, p.code)).stock).toBe(9);

    const other = await placeOrderRequest(
      t,
      shopper,
      { ...payload, items: [{ code: p.code, quantity: 2 }] },
      key,
    );
    expect(other.statusCode).toBe(409);
    expect(other.json().error.code).toBe('idempotency_mismatch');
    expect((await stockOf(t, p.code)).stock).toBe(9);
  });

  it('answers 409 naming the product when a quantity is above stock, and changes nothing', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 3, 3);
    const q = await productWithStock(t, 5, 4);
    const before = await orderCount();
    const res = await placeOrderRequest(
      t,
      shopper,
      await body([
        { code: q.code, quantity: 1 },
        { code: p.code, quantity: 4 },
      ]),
    );
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toContain(p.name);
    expect(res.json().error.message).toContain('solo hay 3');
    expect(await orderCount()).toBe(before);
    expect(await stockOf(t, p.code)).toEqual({ stock: 3, ledger: 3 });
    expect(await stockOf(t, q.code)).toEqual({ stock: 5, ledger: 5 });
  });

  it('needs a shipping address: 409 "Ingrese su dirección para poder continuar"', async () => {
    const shopper = await createShopper(t, { address: false });
    const p = await productWithStock(t, 5, 5);
    const res = await placeOrderRequest(t, shopper, await body([{ code: p.code, quantity: 1 }]));
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('Ingrese su dirección para poder continuar');
    expect((await stockOf(t, p.code)).stock).toBe(5);
  });

  it('rejects bad requests with 4xx and Spanish messages', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 5, 6);
    const ok = await body([{ code: p.code, quantity: 1 }]);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: { 'idempotency-key': randomUUID() },
      payload: ok,
    });
    expect(anonymous.statusCode).toBe(401);
    const noKey = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: { cookie: shopper.cookie },
      payload: ok,
    });
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json().error.message).toMatch(/Idempotency-Key/);
    const empty = await placeOrderRequest(t, shopper, { ...ok, items: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toBe('El carrito está vacío');
    const zero = await placeOrderRequest(t, shopper, { ...ok, items: [{ code: p.code, quantity: 0 }] });
    expect(zero.statusCode).toBe(400);
    const unknownProduct = await placeOrderRequest(t, shopper, {
      ...ok,
      items: [{ code: 'NO-EXISTE', quantity: 1 }],
    });
    expect(unknownProduct.statusCode).toBe(409);
    expect(unknownProduct.json().error.message).toContain('NO-EXISTE');
    expect((await stockOf(t, p.code)).stock).toBe(5);
  });

  it('refuses an unknown or already used card token, and gives the stock back', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 5, 7);
    const res = await placeOrderRequest(t, shopper, {
      items: [{ code: p.code, quantity: 1 }],
      cardToken: 'kdesconocido000000000',
      deviceSessionId: 'x',
    });
    expect(res.statusCode).toBe(402);
    expect(res.json().error.message).toBe('Los datos de la tarjeta ya no son válidos; ingréselos de nuevo');
    expect(await stockOf(t, p.code)).toEqual({ stock: 5, ledger: 5 });
  });
});

describe('POST /api/orders — declined cards', () => {
  const cases: [string, string][] = [
    ['4000000000000002', 'Tarjeta declinada'],
    ['4000000000000069', 'La tarjeta ha expirado'],
    ['4444444444444448', 'La tarjeta no tiene fondos suficientes'],
    ['4000000000000119', 'La tarjeta fue reportada como robada'],
    // 4000000000000044 (anti-fraud, 3005) is retried with 3-D Secure: see '3-D Secure' below.
  ];
  it.each(cases)('card %s → 402 "%s", order payment_failed, stock returned', async (card, message) => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 4, 8);
    const res = await placeOrderRequest(t, shopper, await body([{ code: p.code, quantity: 2 }], card));
    expect(res.statusCode).toBe(402);
    expect(res.json().error.message).toBe(message);
    expect(await stockOf(t, p.code)).toEqual({ stock: 4, ledger: 4 });
    const number = (
      await t.db.execute<{ number: number }>(sql`select number from orders where user_id = ${shopper.id}`)
    ).rows[0]!.number;
    // The failed attempt is no purchase: not in the history; its receipt still tells what happened.
    const list = (await t.app.inject({ url: '/api/orders', headers: { cookie: shopper.cookie } })).json();
    expect(list).toEqual({ orders: [], message: 'No tiene pedidos registrados' });
    const receipt = (
      await t.app.inject({ url: `/api/orders/${number}`, headers: { cookie: shopper.cookie } })
    ).json();
    expect(receipt).toMatchObject({ status: 'payment_failed', statusLabel: 'Pago rechazado', paidAt: null });
    const reasons = (
      await t.db.execute<{ reason: string; delta: number }>(
        sql`select reason, delta from stock_movements where order_number = ${number} order by id`,
      )
    ).rows;
    expect(reasons).toEqual([
      { reason: 'order_reserve', delta: -2 },
      { reason: 'order_release', delta: 2 },
    ]);
  });
});

describe('3-D Secure', () => {
  it('answers redirectUrl; authorizing on the bank page lands on /resumen/{number} paid', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 5, 9);
    const res = await placeOrderRequest(
      t,
      shopper,
      await body([{ code: p.code, quantity: 1 }], '4000000000000044'),
    );
    expect(res.statusCode).toBe(200);
    const { number, redirectUrl } = res.json() as { number: number; redirectUrl: string };
    expect(redirectUrl).toMatch(/^\/api\/payments\/sandbox\/3ds\/tr[a-z0-9]+$/);
    const page = await t.app.inject(redirectUrl);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Autorizar');
    expect(page.body).toContain('Rechazar');
    expect((await stockOf(t, p.code)).stock).toBe(4);

    const authorize = await t.app.inject({
      method: 'POST',
      url: `${redirectUrl}/authorize`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(authorize.statusCode).toBe(303);
    const back = authorize.headers.location as string;
    expect(back).toMatch(/^http:\/\/tienda\.test\/api\/payments\/return\?id=tr/);
    const ret = await t.app.inject(back.replace('http://tienda.test', ''));
    expect(ret.statusCode).toBe(303);
    expect(ret.headers.location).toBe(`/resumen/${number}`);
    const detail = (
      await t.app.inject({ url: `/api/orders/${number}`, headers: { cookie: shopper.cookie } })
    ).json();
    expect(detail.status).toBe('paid');
    // The return URL again (back button) changes nothing.
    const again = await t.app.inject(back.replace('http://tienda.test', ''));
    expect(again.headers.location).toBe(`/resumen/${number}`);
    expect((await stockOf(t, p.code)).stock).toBe(4);
  });

  it('rejecting on the bank page lands on /?payment_failed=1 with the stock back', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 5, 10);
    const res = await placeOrderRequest(
      t,
      shopper,
      await body([{ code: p.code, quantity: 2 }], '4000000000000044'),
    );
    const { redirectUrl } = res.json() as { redirectUrl: string };
    const reject = await t.app.inject({
      method: 'POST',
      url: `${redirectUrl}/reject`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    const ret = await t.app.inject((reject.headers.location as string).replace('http://tienda.test', ''));
    expect(ret.headers.location).toBe('/?payment_failed=1');
    expect(await stockOf(t, p.code)).toEqual({ stock: 5, ledger: 5 });
  });

  it('a return without a known charge goes to /?payment_failed=1', async () => {
    expect((await t.app.inject('/api/payments/return')).headers.location).toBe('/?payment_failed=1');
    expect((await t.app.inject('/api/payments/return?id=trnoexiste')).headers.location).toBe(
      '/?payment_failed=1',
    );
  });
});

describe('history, detail and cancellation', () => {
  it('lists only the shopper’s orders; an empty history has the server’s message; others’ orders are 404', async () => {
    const newcomer = await createShopper(t);
    const empty = (await t.app.inject({ url: '/api/orders', headers: { cookie: newcomer.cookie } })).json();
    expect(empty).toEqual({ orders: [], message: 'No tiene pedidos registrados' });

    const owner = await createShopper(t);
    const p = await productWithStock(t, 5, 11);
    const { number } = (
      await placeOrderRequest(t, owner, await body([{ code: p.code, quantity: 1 }]))
    ).json();
    const list = (await t.app.inject({ url: '/api/orders', headers: { cookie: owner.cookie } })).json();
    expect(list.message).toBeNull();
    expect(list.orders).toHaveLength(1);
    expect(list.orders[0]).toMatchObject({
      number,
      status: 'paid',
      trackingGuide: 'Sin asignar',
      canCancel: true,
      canInvoice: true,
    });

    const stranger = await t.app.inject({
      url: `/api/orders/${number}`,
      headers: { cookie: newcomer.cookie },
    });
    expect(stranger.statusCode).toBe(404);
    const cancelByStranger = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${number}/cancel`,
      headers: { cookie: newcomer.cookie },
      payload: {},
    });
    expect(cancelByStranger.statusCode).toBe(404);
    expect((await t.app.inject(`/api/orders/${number}`)).statusCode).toBe(401);
    expect(
      (await t.app.inject({ url: '/api/orders/abc', headers: { cookie: owner.cookie } })).statusCode,
    ).toBe(400);
  });

  it('cancels a paid order at once: full refund, stock back (order_cancel), a mail; a second click answers the state reached', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 6, 0);
    const { number } = (
      await placeOrderRequest(t, shopper, await body([{ code: p.code, quantity: 3 }]))
    ).json();
    expect((await stockOf(t, p.code)).stock).toBe(3);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${number}/cancel`,
      headers: { cookie: shopper.cookie },
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    const { message, order } = res.json();
    expect(message).toContain(`Pedido #${number} cancelado`);
    expect(order.status).toBe('cancelled');
    expect(order.statusLabel).toBe('Cancelado');
    expect(order.refundedCents).toBe(order.totalCents);
    expect(order.canCancel).toBe(false);
    expect(await stockOf(t, p.code)).toEqual({ stock: 6, ledger: 6 });
    const [charge] = (
      await t.db.execute<{ status: string }>(
        sql`select status from sandbox_charges where order_id like ${`${number}-%`}`,
      )
    ).rows;
    expect(charge!.status).toBe('refunded');
    const mail = (
      await t.db.execute<{ subject: string }>(
        sql`select subject from mail_outbox where dedupe_key = ${`order-cancelled:${number}`}`,
      )
    ).rows;
    expect(mail).toHaveLength(1);

    // A second click (or a retry after a lost answer) answers with the state reached, as a success; nothing
    // is refunded, mailed or put back twice.
    const twice = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${number}/cancel`,
      headers: { cookie: shopper.cookie },
      payload: {},
    });
    expect(twice.statusCode).toBe(200);
    expect(twice.json().message).toBe(message);
    expect(twice.json().order).toMatchObject({ status: 'cancelled', refundedCents: order.totalCents });
    expect(await stockOf(t, p.code)).toEqual({ stock: 6, ledger: 6 });
    const mails = await t.db.execute(
      sql`select 1 from mail_outbox where dedupe_key = ${`order-cancelled:${number}`}`,
    );
    expect(mails.rows).toHaveLength(1);
    const refunds = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from payments where order_number = ${number} and status = 'refunded'`,
    );
    expect(refunds.rows[0]!.n).toBe(1);
  });

  it('the history lists purchases only: attempts never paid (declined, abandoned, waiting) are left out; staff see them', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 9, 3);
    const place = async () =>
      (await placeOrderRequest(t, shopper, await body([{ code: p.code, quantity: 1 }]))).json()
        .number as number;
    const paid = await place();
    const failed = await place();
    const waiting = await place();
    await t.db.execute(
      sql`update orders set status = 'payment_failed', paid_at = null where number = ${failed}`,
    );
    await t.db.execute(
      sql`update orders set status = 'pending_payment', paid_at = null where number = ${waiting}`,
    );
    const list = (await t.app.inject({ url: '/api/orders', headers: { cookie: shopper.cookie } })).json();
    expect(list.orders.map((o: { number: number }) => o.number)).toEqual([paid]);
    const staff = await createStaff(t);
    const admin = (
      await t.app.inject({ url: `/api/admin/orders?q=${shopper.email}`, headers: { cookie: staff.cookie } })
    ).json();
    expect(JSON.stringify(admin)).toContain(`"number":${failed}`);
    expect(JSON.stringify(admin)).toContain(`"number":${waiting}`);
  });

  it('a cancellation by staff is not the shopper’s: their own request still hears "El pedido ya está cancelado"', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 6, 4);
    const { number } = (
      await placeOrderRequest(t, shopper, await body([{ code: p.code, quantity: 1 }]))
    ).json();
    const staff = await createStaff(t);
    const byStaff = await t.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${number}/cancel`,
      headers: { cookie: staff.cookie },
      payload: { reason: 'Sin existencias con el proveedor' },
    });
    expect(byStaff.statusCode).toBe(200);
    const byShopper = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${number}/cancel`,
      headers: { cookie: shopper.cookie },
      payload: {},
    });
    expect(byShopper.statusCode).toBe(409);
    expect(byShopper.json().error.message).toBe('El pedido ya está cancelado');
  });

  it('does not cancel an order that has a tracking guide', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 6, 1);
    const { number } = (
      await placeOrderRequest(t, shopper, await body([{ code: p.code, quantity: 1 }]))
    ).json();
    await t.db.execute(sql`update orders set tracking_guide = 'GUIA-123' where number = ${number}`);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${number}/cancel`,
      headers: { cookie: shopper.cookie },
      payload: {},
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('El pedido ya fue enviado y no se puede cancelar');
    expect((await stockOf(t, p.code)).stock).toBe(5);
  });

  it('an invoiced order can still be cancelled by its buyer (the CFDI follows the refund, issue 33)', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 6, 2);
    const { number } = (
      await placeOrderRequest(t, shopper, await body([{ code: p.code, quantity: 1 }]))
    ).json();
    await t.db.execute(sql`insert into invoices (order_number, user_id, status, pac, rfc, nombre_fiscal, regimen_fiscal,
        uso_cfdi, forma_pago, cp, subtotal_cents, iva_cents, total_cents)
      values (${number}, ${shopper.id}, 'issued', 'sandbox', 'XAXX010101000', 'PUBLICO EN GENERAL', '616', 'S01',
        '04', '44100', 100, 16, 116)`);
    const list = (await t.app.inject({ url: '/api/orders', headers: { cookie: shopper.cookie } })).json();
    expect(list.orders[0]).toMatchObject({
      number,
      invoiceState: 'issued',
      canCancel: true,
      canCancelInvoice: true,
      canInvoice: false,
    });
    expect((await stockOf(t, p.code)).stock).toBe(5);
  });
});
