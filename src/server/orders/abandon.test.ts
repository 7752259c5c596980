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
import { auditRows, createStaff } from '../../../tests/server/support/staff.ts';

/**
 * Issue 37, item 10: a stranger's unpaid SPEI order held all 212 units for 48 h and nobody could undo it. An
 * unpaid SPEI/store order holds at most half a product's stock; the buyer can abandon it and staff can release
 * it; a payment arriving after that is the 'fuera de plazo' case; staff see who holds what.
 */
let t: CheckoutTestApp;
beforeAll(async () => {
  t = await createCheckoutApp({ env: { CHECKOUT_MAX_RESERVED_UNITS: '5000' } });
});
afterAll(() => t.close());

async function placeSpei(shopper: Shopper, code: string, quantity: number) {
  const res = await placeOrderRequest(t, shopper, { items: [{ code, quantity }], paymentMethod: 'spei' });
  expect(res.statusCode, res.body).toBe(202);
  return (res.json() as { number: number }).number;
}
const orderRow = async (number: number) =>
  (
    await t.db.execute<{ status: string; cancel_reason: string | null; late_payment_at: string | null }>(
      sql`select status, cancel_reason, late_payment_at from orders where number = ${number}`,
    )
  ).rows[0]!;
const chargeOf = async (number: number) =>
  (
    await t.db.execute<{ charge_id: string }>(
      sql`select charge_id from payments where order_number = ${number} order by id desc limit 1`,
    )
  ).rows[0]!.charge_id;
const abandon = (shopper: Shopper, number: number) =>
  t.app.inject({ method: 'POST', url: `/api/orders/${number}/abandon`, headers: { cookie: shopper.cookie } });

describe('an unpaid SPEI/store order cannot hold a product hostage', () => {
  it('a fresh account cannot hold all 212 units by SPEI; half is the most, and others still buy the rest', async () => {
    const stranger = await createShopper(t);
    const p = await productWithStock(t, 212, 0);
    const all = await placeOrderRequest(t, stranger, {
      items: [{ code: p.code, quantity: 212 }],
      paymentMethod: 'spei',
    });
    expect(all.statusCode).toBe(409);
    expect(all.json().error).toMatchObject({ code: 'above_unpaid_share' });
    expect(all.json().error.message).toContain(`hasta 106 piezas de ${p.name}`);
    expect(await stockOf(t, p.code)).toEqual({ stock: 212, ledger: 212 });
    await placeSpei(stranger, p.code, 106);
    const buyer = await createShopper(t);
    const bought = await placeOrderRequest(t, buyer, {
      items: [{ code: p.code, quantity: 100 }],
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: 'dispositivo-de-prueba',
    });
    expect(bought.statusCode, bought.body).toBe(201);
  });

  it('the buyer abandons their unpaid SPEI order: stock back at once, mailed; a payment after it is fuera de plazo', async () => {
    const buyer = await createShopper(t);
    const p = await productWithStock(t, 10, 1);
    const number = await placeSpei(buyer, p.code, 5);
    expect((await stockOf(t, p.code)).stock).toBe(5);
    // Someone else's order is not theirs to abandon.
    const stranger = await createShopper(t);
    expect((await abandon(stranger, number)).statusCode).toBe(404);
    const res = await abandon(buyer, number);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toMatch(/cancelado/);
    expect(res.json().order.status).toBe('cancelled');
    expect(await stockOf(t, p.code)).toEqual({ stock: 10, ledger: 10 });
    expect((await orderRow(number)).cancel_reason).toMatch(/abandonó/);
    const { rows: mails } = await t.db.execute<{ subject: string }>(
      sql`select subject from mail_outbox where kind = 'order-abandoned' and dedupe_key = ${`order-abandoned:${number}`}`,
    );
    expect(mails).toHaveLength(1);
    // Twice: nothing left to abandon, a Spanish 409.
    const again = await abandon(buyer, number);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toMatch(/^Solo se pueden liberar pedidos pendientes de pago/);
    // The buyer pays the dead reference anyway: recorded and queued for staff, stock untouched.
    const chargeId = await chargeOf(number);
    const late = await t.app.inject({
      method: 'POST',
      url: `/api/payments/sandbox/charges/${chargeId}/pay-late`,
      headers: { accept: 'application/json' },
    });
    expect(late.statusCode, late.body).toBe(200);
    const row = await orderRow(number);
    expect(row.status).toBe('cancelled');
    expect(row.late_payment_at).not.toBeNull();
    expect(await stockOf(t, p.code)).toEqual({ stock: 10, ledger: 10 });
  });

  it('a paid card order is not abandoned (it is cancelled with a refund instead)', async () => {
    const buyer = await createShopper(t);
    const p = await productWithStock(t, 4, 2);
    const paid = await placeOrderRequest(t, buyer, {
      items: [{ code: p.code, quantity: 1 }],
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: 'dispositivo-de-prueba',
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const res = await abandon(buyer, (paid.json() as { number: number }).number);
    expect(res.statusCode).toBe(409);
    expect(await stockOf(t, p.code)).toEqual({ stock: 3, ledger: 3 });
  });

  it('staff see the unpaid holds per product and release one with a reason, audited; shoppers get 403', async () => {
    const staff = await createStaff(t);
    const holder = await createShopper(t);
    const p = await productWithStock(t, 40, 3);
    const number = await placeSpei(holder, p.code, 20);
    const holds = await t.app.inject({ url: '/api/admin/unpaid-holds', headers: { cookie: staff.cookie } });
    expect(holds.statusCode).toBe(200);
    const entry = (
      holds.json() as { products: { code: string; heldUnits: number; stock: number; orders: unknown[] }[] }
    ).products.find((x) => x.code === p.code);
    expect(entry).toMatchObject({ heldUnits: 20, stock: 20 });
    expect(entry?.orders).toEqual([
      expect.objectContaining({ number, units: 20, paymentMethod: 'spei', email: holder.email }),
    ]);
    const forbidden = await t.app.inject({
      url: '/api/admin/unpaid-holds',
      headers: { cookie: holder.cookie },
    });
    expect(forbidden.statusCode).toBe(403);

    const noReason = await t.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${number}/release`,
      headers: { cookie: staff.cookie },
      payload: { reason: '' },
    });
    expect(noReason.statusCode).toBe(400);
    expect((await orderRow(number)).status).toBe('pending_payment');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${number}/release`,
      headers: { cookie: staff.cookie },
      payload: { reason: 'Cuenta nueva sin contacto; apartado de medio inventario' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await stockOf(t, p.code)).toEqual({ stock: 40, ledger: 40 });
    expect((await orderRow(number)).cancel_reason).toMatch(/^Liberado por la tienda: Cuenta nueva/);
    const audit = await auditRows(t, 'order', String(number));
    expect(audit.map((a: { action: string }) => a.action)).toContain('order.release');
    const after = await t.app.inject({ url: '/api/admin/unpaid-holds', headers: { cookie: staff.cookie } });
    expect((after.json() as { products: { code: string }[] }).products.some((x) => x.code === p.code)).toBe(
      false,
    );
  });
});
