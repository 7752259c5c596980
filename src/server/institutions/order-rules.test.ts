import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  productWithStock,
  type Shopper,
  sandboxToken,
} from '../../../tests/server/support/checkout.ts';
import { addMember, buyFor, createInstitution } from '../../../tests/server/support/institutions.ts';
import { institutionMembers, orders } from '../db/schema.ts';
import { checkInstitutionOrder } from './order-rules.ts';

// Runs on in-memory PGlite, and on PostgreSQL with TEST_DATABASE_URL.
let t: CheckoutTestApp;
beforeAll(async () => {
  t = await createCheckoutApp();
});
afterAll(() => t.close());

const order = async (who: Shopper, code: string, extra: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/orders',
    headers: { cookie: who.cookie, 'idempotency-key': randomUUID() },
    payload: {
      items: [{ code, quantity: 1 }],
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: 'limites',
      ...extra,
    },
  });

async function totalOf(code: string): Promise<number> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/cart/quote',
    payload: { items: [{ code, quantity: 1 }] },
  });
  return res.json<{ totalCents: number }>().totalCents;
}

const setLimits = (
  institutionId: number,
  userId: number,
  limits: Partial<typeof institutionMembers.$inferInsert>,
) =>
  t.db
    .update(institutionMembers)
    .set(limits)
    .where(and(eq(institutionMembers.institutionId, institutionId), eq(institutionMembers.userId, userId)));

describe('reglas de compra de la institución en el checkout', () => {
  it('refuses an order one centavo over the per-order limit, saying by how much; at the limit it goes through', async () => {
    const product = await productWithStock(t, 50, 1);
    const total = await totalOf(product.code);
    const inst = await createInstitution(t, { razonSocial: 'Hospital Civil de Prueba' });
    const buyer = await createShopper(t);
    await addMember(t, inst.id, buyer, 'comprador', { orderLimitCents: total - 1 });
    expect((await buyFor(t, buyer, inst.id)).statusCode).toBe(200);

    const over = await order(buyer, product.code);
    expect(over.statusCode).toBe(409);
    expect(over.json().error).toMatchObject({ code: 'order_limit' });
    expect(over.json().error.message).toMatch(
      /^El pedido \(\$[\d,.]+\) excede por \$0\.01 su límite por pedido en Hospital Civil de Prueba/,
    );
    expect(await t.db.select().from(orders).where(eq(orders.institutionId, inst.id))).toEqual([]);

    await setLimits(inst.id, buyer.id, { orderLimitCents: total });
    const ok = await order(buyer, product.code);
    expect(ok.statusCode, ok.body).toBe(201);
    const [placed] = await t.db.select().from(orders).where(eq(orders.number, ok.json().number));
    expect(placed?.institutionId).toBe(inst.id);
  });

  it('counts the member’s month (not cancelled orders, not other institutions’ or personal ones) and refuses by one centavo', async () => {
    const product = await productWithStock(t, 50, 2);
    const total = await totalOf(product.code);
    const inst = await createInstitution(t);
    const buyer = await createShopper(t);
    await addMember(t, inst.id, buyer, 'comprador', { monthlyLimitCents: 2 * total - 1 });
    // A personal order of the same person spends nothing of the institution's limit.
    expect((await order(buyer, product.code)).statusCode).toBe(201);
    await buyFor(t, buyer, inst.id);
    const first = await order(buyer, product.code);
    expect(first.statusCode, first.body).toBe(201);
    const second = await order(buyer, product.code);
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe('monthly_limit');
    expect(second.json().error.message).toContain(': $0.01 más que su límite mensual de');

    await t.db.update(orders).set({ status: 'cancelled' }).where(eq(orders.number, first.json().number));
    expect((await order(buyer, product.code)).statusCode).toBe(201);

    const members = await t.app.inject({
      url: `/api/institutions/${inst.id}/members`,
      headers: { cookie: buyer.cookie },
    });
    expect(members.statusCode).toBe(403);
  });

  it('two orders at once that only one fits under the monthly limit: exactly one goes through', async () => {
    const product = await productWithStock(t, 50, 6);
    const total = await totalOf(product.code);
    const inst = await createInstitution(t);
    const buyer = await createShopper(t);
    await addMember(t, inst.id, buyer, 'comprador', { monthlyLimitCents: total + Math.floor(total / 2) });
    await buyFor(t, buyer, inst.id);
    const answers = await Promise.all([order(buyer, product.code), order(buyer, product.code)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    expect(answers.find((a) => a.statusCode === 409)?.json().error.code).toBe('monthly_limit');
    expect(await t.db.select().from(orders).where(eq(orders.institutionId, inst.id))).toHaveLength(1);
  });

  it('the month is Mexico City’s: an order at 23:30 of the 30th counts in November, not in December', async () => {
    const product = await productWithStock(t, 50, 3);
    const total = await totalOf(product.code);
    const inst = await createInstitution(t);
    const buyer = await createShopper(t);
    await addMember(t, inst.id, buyer, 'comprador', { monthlyLimitCents: total });
    await buyFor(t, buyer, inst.id);
    const res = await order(buyer, product.code);
    expect(res.statusCode).toBe(201);
    // 2026-11-30 23:30 in Mexico City (UTC−6) is already December 1st in UTC.
    await t.db
      .update(orders)
      .set({ createdAt: new Date('2026-12-01T05:30:00Z') })
      .where(eq(orders.number, res.json().number));
    const check = (now: string) =>
      t.db.transaction((tx) =>
        checkInstitutionOrder(
          tx,
          { userId: buyer.id, institutionId: inst.id },
          { totalCents: 1, purchaseOrder: null },
          'order.place',
          new Date(now),
        ),
      );
    await expect(check('2026-11-15T18:00:00Z')).rejects.toMatchObject({ code: 'monthly_limit' });
    await expect(check('2026-12-01T05:59:00Z')).rejects.toMatchObject({ code: 'monthly_limit' });
    await expect(check('2026-12-01T06:00:00Z')).resolves.toEqual({ institutionId: inst.id });
  });

  it('an institution that requires a purchase order refuses an order without one, naming itself', async () => {
    const product = await productWithStock(t, 50, 4);
    const inst = await createInstitution(t, {
      razonSocial: 'Centro de Investigación OC',
      requiresPurchaseOrder: true,
    });
    const buyer = await createShopper(t);
    await addMember(t, inst.id, buyer, 'administrador');
    await buyFor(t, buyer, inst.id);
    const without = await order(buyer, product.code);
    expect(without.statusCode).toBe(409);
    expect(without.json().error).toEqual({
      code: 'purchase_order_required',
      message:
        'Centro de Investigación OC requiere el número de orden de compra en cada pedido. Escríbalo para continuar.',
    });
    const withPo = await order(buyer, product.code, { purchaseOrder: 'OC-2026-0042' });
    expect(withPo.statusCode, withPo.body).toBe(201);
    // Its invoice form starts from the institution's fiscal data (the CFDI's receptor).
    const invoice = await t.app.inject({
      url: `/api/orders/${withPo.json().number}/invoice`,
      headers: { cookie: buyer.cookie },
    });
    expect(invoice.json().institutionReceptor).toEqual({
      nombreFiscal: 'Centro de Investigación OC',
      rfc: 'LQB150101AB3',
      regimenFiscal: '601',
      usoCfdi: 'G03',
      cp: '44100',
    });
    // The same person buying for themself is not bound by the institution's rule.
    await buyFor(t, buyer, null);
    const personal = await order(buyer, product.code);
    expect(personal.statusCode).toBe(201);
    const personalInvoice = await t.app.inject({
      url: `/api/orders/${personal.json().number}/invoice`,
      headers: { cookie: buyer.cookie },
    });
    expect(personalInvoice.json().institutionReceptor).toBeUndefined();
  });

  it('ships to one of the institution’s shared addresses, never to another institution’s', async () => {
    const product = await productWithStock(t, 50, 5);
    const inst = await createInstitution(t);
    const elsewhere = await createInstitution(t);
    const buyer = await createShopper(t);
    const stranger = await createShopper(t);
    await addMember(t, inst.id, buyer, 'comprador');
    await addMember(t, elsewhere.id, stranger, 'administrador');
    const address = {
      nombreEnvio: 'Laboratorio de Bioquímica',
      telefonoEnvio: '3312345678',
      cpEnvio: '45100',
      calleEnvio: 'Avenida Universidad',
      numExtEnvio: '1500',
      coloniaEnvio: 'Ciudad Universitaria',
      municipioEnvio: 'Zapopan',
      ciudadEnvio: 'Zapopan',
      estadoEnvio: 'Jalisco',
    };
    const mine = await t.app.inject({
      method: 'POST',
      url: `/api/institutions/${inst.id}/addresses`,
      headers: { cookie: buyer.cookie },
      payload: { ...address, alias: 'Campus Sur' },
    });
    const theirs = await t.app.inject({
      method: 'POST',
      url: `/api/institutions/${elsewhere.id}/addresses`,
      headers: { cookie: stranger.cookie },
      payload: { ...address, alias: 'Sede ajena', nombreEnvio: 'Almacén de otra institución' },
    });
    expect(theirs.statusCode).toBe(201);
    expect((await order(buyer, product.code, { institutionAddressId: mine.json().id })).statusCode).toBe(409);
    await buyFor(t, buyer, inst.id);
    const foreign = await order(buyer, product.code, { institutionAddressId: theirs.json().id });
    expect(foreign.statusCode).toBe(409);
    expect(foreign.json().error.message).toBe('Dirección no encontrada');
    const ok = await order(buyer, product.code, { institutionAddressId: mine.json().id });
    expect(ok.statusCode, ok.body).toBe(201);
    const [placed] = await t.db.select().from(orders).where(eq(orders.number, ok.json().number));
    expect(placed?.address).toMatchObject({ nombreEnvio: 'Laboratorio de Bioquímica', cpEnvio: '45100' });
  });
});
