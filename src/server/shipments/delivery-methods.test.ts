import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeOrderRequest, sandboxToken } from '../../../tests/server/support/checkout.ts';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  createStaff,
  outbox,
  productWithStock,
  type Shopper,
  stockOf,
} from '../../../tests/server/support/staff.ts';
import { shop } from '../../shared/shop.ts';
import { products } from '../db/schema.ts';

/**
 * Issue 35 (decision 061), the ways an order travels: the hazardous-goods table refusing a forged method and adding
 * its surcharge, and pickup at a branch from checkout to 'Listo para recoger', its reminder and 'Recogido'.
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

describe('hazardous goods', () => {
  it('a flammable reagent is not offered by air, the server refuses a forged air order, ground carries the surcharge', async () => {
    const p = await product(8, 10);
    await t.db
      .update(products)
      .set({ hazardStatements: ['H225', 'H319'] })
      .where(eq(products.code, p.code));
    const shopper = await createShopper(t);
    const quote = (
      await t.app.inject({
        method: 'POST',
        url: '/api/cart/quote',
        payload: { items: [{ code: p.code, quantity: 1 }] },
      })
    ).json();
    const byMethod = Object.fromEntries(
      quote.delivery.options.map((o: { method: string }) => [o.method, o]),
    ) as Record<string, { refusal: string | null; shippingCents: number }>;
    expect(quote.delivery.hazardous).toBe(true);
    expect(byMethod.air!.refusal).toContain('líquido inflamable (clase ONU 3): no puede enviarse por avión');
    expect(byMethod.ground!.refusal).toBeNull();
    expect(byMethod.pickup!).toMatchObject({ refusal: null, shippingCents: 0 });
    expect(byMethod.ground!.shippingCents).toBe(
      shop.shipping.baseCents + shop.shipping.hazardousSurchargeCents,
    );
    expect(quote.shippingCents).toBe(byMethod.ground!.shippingCents);

    const forged = await placeOrderRequest(t, shopper, {
      items: [{ code: p.code, quantity: 1 }],
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: 'hazmat',
      deliveryMethod: 'air',
    });
    expect(forged.statusCode).toBe(409);
    expect(forged.json().error.message).toContain('no puede enviarse por avión');
    expect(await stockOf(t, p.code)).toEqual({ stock: 10, ledger: 10 });

    const ground = await placeOrderRequest(t, shopper, {
      items: [{ code: p.code, quantity: 1 }],
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: 'hazmat',
      deliveryMethod: 'ground',
    });
    expect(ground.statusCode).toBe(201);
    const [row] = (
      await t.db.execute<{ shipping_cents: string; delivery_method: string }>(
        sql`select shipping_cents, delivery_method from orders where number = ${ground.json().number}`,
      )
    ).rows;
    expect(Number(row!.shipping_cents)).toBe(shop.shipping.baseCents + shop.shipping.hazardousSurchargeCents);
    expect(row!.delivery_method).toBe('ground');
  });

  it('a pyrophoric one is pickup only; a presentation reads its family base', async () => {
    const base = await product(9, 10);
    const presentation = await product(10, 10);
    await t.db
      .update(products)
      .set({ hazardStatements: ['H250'] })
      .where(eq(products.code, base.code));
    await t.db.update(products).set({ familyCode: base.code }).where(eq(products.code, presentation.code));
    const shopper = await createShopper(t);
    const res = await placeOrderRequest(t, shopper, {
      items: [{ code: presentation.code, quantity: 1 }],
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: 'hazmat',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toContain('solo puede recogerse en sucursal');
    await t.db.update(products).set({ familyCode: null }).where(eq(products.code, presentation.code));
  });

  it('a pickup without a branch, or with one that does not exist, is a 400 naming the field', async () => {
    const p = await product(11, 10);
    const shopper = await createShopper(t);
    for (const pickupBranch of [undefined, 7]) {
      const res = await placeOrderRequest(t, shopper, {
        items: [{ code: p.code, quantity: 1 }],
        cardToken: await sandboxToken(t, '4111111111111111'),
        deviceSessionId: 'pickup',
        deliveryMethod: 'pickup',
        ...(pickupBranch === undefined ? {} : { pickupBranch }),
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.fields.pickupBranch).toBe('Elija la sucursal donde recogerá su pedido');
    }
  });
});

describe('pickup at a branch', () => {
  it('no shipping charged; ready with a code and a mail; collected with the code, name and ID; one reminder', async () => {
    const p = await product(0, 10);
    const shopper = await createShopper(t);
    const res = await placeOrderRequest(
      t,
      shopper,
      {
        items: [{ code: p.code, quantity: 2 }],
        cardToken: await sandboxToken(t, '4111111111111111'),
        deviceSessionId: 'pickup',
        deliveryMethod: 'pickup',
        pickupBranch: 1,
      },
      randomUUID(),
    );
    expect(res.statusCode).toBe(201);
    const number = res.json().number as number;
    let mine = await receipt(shopper, number);
    expect(mine.shippingCents).toBe(0);
    expect(mine.totalCents).toBe(mine.subtotalCents);
    expect(mine.delivery).toMatchObject({ method: 'pickup', methodLabel: 'Recoger en sucursal' });
    expect(mine.delivery.branch).toMatchObject({
      name: shop.branches[1]!.name,
      hours: shop.branches[1]!.hours,
    });

    // A carrier shipment is refused for a pickup order.
    const parcel = await admin(`/api/admin/orders/${number}/shipments`, {
      carrier: 'dhl',
      trackingNumber: '1234567890',
      lines: [{ lineNo: 1, quantity: 2 }],
    });
    expect(parcel.statusCode).toBe(409);

    const ready = await admin(`/api/admin/orders/${number}/pickup-ready`, {});
    expect(ready.statusCode).toBe(200);
    expect(ready.json().order.statusLabel).toBe('Listo para recoger');
    expect(ready.json().order.delivery.pickupCode).toBeNull();
    mine = await receipt(shopper, number);
    const code = mine.delivery.pickupCode as string;
    expect(code).toMatch(/^[0-9A-Z]{6}$/);
    const [mail] = (await outbox(t, 'pickup-ready')).filter((m) => m.to === shopper.email);
    expect(mail!.subject).toBe(`Su pedido #${number} está listo para recoger`);
    expect(mail!.text).toContain(code);
    expect(mail!.text).toContain(shop.branches[1]!.hours);

    // The reminder: nothing before N days; one after; never twice.
    expect(await t.app.jobs.runOnce('recordatorios-sucursal')).toBe('done');
    expect((await outbox(t, 'pickup-reminder')).filter((m) => m.to === shopper.email)).toHaveLength(0);
    await t.db.execute(
      sql`update shipments set shipped_at = now() - interval '6 days' where order_number = ${number}`,
    );
    await t.app.jobs.runOnce('recordatorios-sucursal');
    await t.app.jobs.runOnce('recordatorios-sucursal');
    const reminders = (await outbox(t, 'pickup-reminder')).filter((m) => m.to === shopper.email);
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.text).toContain(code);

    const wrong = await admin(`/api/admin/orders/${number}/pickup-collected`, {
      code: code === 'ZZZZZZ' ? 'YYYYYY' : 'ZZZZZZ',
      name: 'Ana Ruiz',
      idDocument: 'INE 1234567890',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields.code).toBe('El código no corresponde a este pedido');
    const collected = await admin(`/api/admin/orders/${number}/pickup-collected`, {
      code: code.toLowerCase(),
      name: 'Ana Ruiz',
      idDocument: 'INE 1234567890',
    });
    expect(collected.statusCode).toBe(200);
    expect(collected.json().order).toMatchObject({ status: 'delivered', statusLabel: 'Recogido' });
    expect(collected.json().order.delivery.collectedBy).toBe('Ana Ruiz (INE 1234567890)');
  });
});
