import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditRows,
  type CheckoutTestApp,
  createCheckoutApp,
  createStaff,
  outbox,
  paidOrderOfNew,
  type Shopper,
  stockOf,
} from '../../../tests/server/support/staff.ts';

let t: CheckoutTestApp;
let staff: Shopper;
beforeAll(async () => {
  t = await createCheckoutApp();
  staff = await createStaff(t);
});
afterAll(() => t.close());

const post = (url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url, headers: { cookie: staff.cookie }, ...(payload ? { payload } : {}) });
const SHIP = { trackingGuide: 'EST-7788123', deliveryProvider: 'Estafeta', deliveryDate: '2099-01-15' };

describe('order transitions', () => {
  it('paid → en preparación → enviado → entregado, each audited, the guide mailed and shown to the shopper', async () => {
    const { shopper, number } = await paidOrderOfNew(t, 0);

    const prepared = await post(`/api/admin/orders/${number}/prepare`);
    expect(prepared.statusCode).toBe(200);
    expect(prepared.json().order.statusLabel).toBe('En preparación');
    // The shopper can no longer cancel an order staff are preparing.
    const mine = (
      await t.app.inject({ url: `/api/orders/${number}`, headers: { cookie: shopper.cookie } })
    ).json();
    expect(mine.statusLabel).toBe('En preparación');
    expect(mine.canCancel).toBe(false);

    const shipped = await post(`/api/admin/orders/${number}/ship`, SHIP);
    expect(shipped.statusCode).toBe(200);
    expect(shipped.json().order).toMatchObject({
      status: 'shipped',
      trackingGuide: 'EST-7788123',
      deliveryProvider: 'Estafeta',
      deliveryDate: '2099-01-15',
    });

    const history = (await t.app.inject({ url: '/api/orders', headers: { cookie: shopper.cookie } })).json();
    const row = history.orders.find((o: { number: number }) => o.number === number);
    expect(row).toMatchObject({ statusLabel: 'Enviado', trackingGuide: 'EST-7788123', canCancel: false });
    const receipt = (
      await t.app.inject({ url: `/api/orders/${number}`, headers: { cookie: shopper.cookie } })
    ).json();
    expect(receipt).toMatchObject({
      trackingGuide: 'EST-7788123',
      deliveryProvider: 'Estafeta',
      deliveryDate: '2099-01-15',
    });
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${number}/cancel`,
      headers: { cookie: shopper.cookie },
    });
    expect(cancel.statusCode).toBe(409);

    const mails = (await outbox(t, 'order-shipped')).filter((m) => m.to === shopper.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Su pedido #${number} va en camino`);
    expect(mails[0]!.text).toContain('EST-7788123');
    expect(mails[0]!.text).toContain('Estafeta');

    const delivered = await post(`/api/admin/orders/${number}/deliver`);
    expect(delivered.statusCode).toBe(200);
    expect(delivered.json().order.statusLabel).toBe('Entregado');

    const audit = await auditRows(t, 'order', String(number));
    expect(audit.map((a) => a.action)).toEqual(['order.prepare', 'order.ship', 'order.deliver']);
    expect(audit.every((a) => a.actor_user_id === staff.id && a.actor_label === staff.email)).toBe(true);
    expect(audit[1]!.before).toMatchObject({ status: 'preparing', trackingGuide: 'Sin asignar' });
    expect(audit[1]!.after).toMatchObject({ status: 'shipped', trackingGuide: 'EST-7788123' });
    const detail = (
      await t.app.inject({ url: `/api/admin/orders/${number}`, headers: { cookie: staff.cookie } })
    ).json();
    expect(detail.history).toHaveLength(3);
    expect(detail.actions).toMatchObject({ prepare: false, ship: false, deliver: false, cancel: false });
  });

  it('refuses skipped and backward steps with 409 in Spanish, changing nothing', async () => {
    const { number } = await paidOrderOfNew(t, 1);
    const ship = await post(`/api/admin/orders/${number}/ship`, SHIP);
    expect(ship.statusCode).toBe(409);
    expect(ship.json().error.message).toBe(
      'No se puede marcar «Enviado» un pedido «Pagado»: solo un pedido «En preparación» puede pasar a «Enviado»',
    );
    expect((await post(`/api/admin/orders/${number}/deliver`)).statusCode).toBe(409);
    expect((await post(`/api/admin/orders/${number}/prepare`)).statusCode).toBe(200);
    expect((await post(`/api/admin/orders/${number}/prepare`)).statusCode).toBe(409);
    const [order] = (
      await t.db.execute<{ status: string; tracking_guide: string | null }>(
        sql`select status, tracking_guide from orders where number = ${number}`,
      )
    ).rows;
    expect(order).toEqual({ status: 'preparing', tracking_guide: null });
    expect((await auditRows(t, 'order', String(number))).map((a) => a.action)).toEqual(['order.prepare']);
    expect((await post('/api/admin/orders/999999/prepare')).statusCode).toBe(404);
  });

  it('needs guide, carrier and delivery date to ship (400 naming each field)', async () => {
    const { number } = await paidOrderOfNew(t, 2);
    await post(`/api/admin/orders/${number}/prepare`);
    const empty = await post(`/api/admin/orders/${number}/ship`, {
      trackingGuide: ' ',
      deliveryProvider: '',
      deliveryDate: '',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields).toMatchObject({
      trackingGuide: 'Escriba la guía de rastreo',
      deliveryProvider: 'Escriba la paquetería',
      deliveryDate: 'Escriba la fecha de entrega estimada',
    });
    const placeholder = await post(`/api/admin/orders/${number}/ship`, {
      ...SHIP,
      trackingGuide: 'Sin asignar',
    });
    expect(placeholder.statusCode).toBe(400);
    const badDate = await post(`/api/admin/orders/${number}/ship`, { ...SHIP, deliveryDate: '2025-02-30' });
    expect(badDate.statusCode).toBe(400);
    const past = await post(`/api/admin/orders/${number}/ship`, { ...SHIP, deliveryDate: '2001-01-01' });
    expect(past.statusCode).toBe(400);
    expect(past.json().error.fields.deliveryDate).toBe(
      'La fecha de entrega no puede ser anterior a la fecha del pedido',
    );
    const [order] = (
      await t.db.execute<{ status: string }>(sql`select status from orders where number = ${number}`)
    ).rows;
    expect(order!.status).toBe('preparing');
  });
});

describe('cancellation by staff', () => {
  it('refunds in full, returns the stock, mails the shopper and records the reason', async () => {
    const { shopper, product, number } = await paidOrderOfNew(t, 3, 3);
    expect(await stockOf(t, product.code)).toEqual({ stock: 7, ledger: 7 });
    await post(`/api/admin/orders/${number}/prepare`);
    const res = await post(`/api/admin/orders/${number}/cancel`, {
      reason: 'El cliente pidió otro modelo por teléfono',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toMatch(new RegExp(`^Pedido #${number} cancelado\\. Se reembolsaron \\$`));
    expect(res.json().order).toMatchObject({
      status: 'cancelled',
      cancelReason: 'El cliente pidió otro modelo por teléfono',
    });
    expect(res.json().order.refundedCents).toBe(res.json().order.totalCents);
    expect(await stockOf(t, product.code)).toEqual({ stock: 10, ledger: 10 });
    expect((await outbox(t, 'order-cancelled')).some((m) => m.to === shopper.email)).toBe(true);
    const audit = await auditRows(t, 'order', String(number));
    expect(audit.at(-1)).toMatchObject({
      action: 'order.cancel',
      after: { status: 'cancelled', reason: 'El cliente pidió otro modelo por teléfono' },
    });
    // The same staff member again (double click, retry): the state reached, as a success; nothing twice.
    const again = await post(`/api/admin/orders/${number}/cancel`, { reason: 'Segundo intento' });
    expect(again.statusCode).toBe(200);
    expect(again.json().order).toMatchObject({
      status: 'cancelled',
      cancelReason: 'El cliente pidió otro modelo por teléfono',
    });
    expect(
      (await auditRows(t, 'order', String(number))).filter((a) => a.action === 'order.cancel'),
    ).toHaveLength(1);
    expect(await stockOf(t, product.code)).toEqual({ stock: 10, ledger: 10 });
  });

  it('refuses a shipped order and asks for a reason', async () => {
    const { number } = await paidOrderOfNew(t, 4);
    const noReason = await post(`/api/admin/orders/${number}/cancel`, { reason: '' });
    expect(noReason.statusCode).toBe(400);
    await post(`/api/admin/orders/${number}/prepare`);
    await post(`/api/admin/orders/${number}/ship`, SHIP);
    const res = await post(`/api/admin/orders/${number}/cancel`, { reason: 'Cliente ya no lo quiere' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('El pedido ya fue enviado; no se puede cancelar');
  });
});

describe('order list', () => {
  it('filters by status, by number and by e-mail', async () => {
    const { shopper, number } = await paidOrderOfNew(t, 5);
    const get = async (query: string) =>
      (await t.app.inject({ url: `/api/admin/orders?${query}`, headers: { cookie: staff.cookie } })).json();
    expect((await get(`q=${number}`)).items.map((o: { number: number }) => o.number)).toEqual([number]);
    expect(
      (await get(`q=${encodeURIComponent(shopper.email)}`)).items.map((o: { number: number }) => o.number),
    ).toEqual([number]);
    const delivered = await get('status=delivered');
    expect(delivered.items.length).toBeGreaterThan(0);
    expect(delivered.items.every((o: { status: string }) => o.status === 'delivered')).toBe(true);
    const today = new Date(Date.now() - 6 * 3600_000).toISOString().slice(0, 10);
    expect((await get(`from=${today}&to=${today}&q=${number}`)).total).toBe(1);
    expect((await get(`to=2000-01-01&q=${number}`)).total).toBe(0);
    const bad = await t.app.inject({
      url: '/api/admin/orders?status=enviado',
      headers: { cookie: staff.cookie },
    });
    expect(bad.statusCode).toBe(400);
  });
});
