import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { expect } from 'vitest';
import { reconcileAwaiting } from '../../../src/server/checkout/settle.ts';
import type { SandboxGateway } from '../../../src/server/payments/sandbox.ts';
import {
  type CheckoutTestApp,
  createShopper,
  placeOrderRequest,
  productWithStock,
  type Shopper,
} from './checkout.ts';
import { paidOrder } from './staff.ts';

/** A small real PNG, base64, for a return's photo. */
export const returnPhoto = async () =>
  (
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c33' } })
      .png()
      .toBuffer()
  ).toString('base64');

/** What the returns tests do to an app (issue 35, decision 062): delivered orders, requests, staff steps. */
export function returnsKit(t: CheckoutTestApp, staff: Shopper, png: string) {
  const post = (who: Shopper, url: string, payload: Record<string, unknown> = {}) =>
    t.app.inject({ method: 'POST', url, headers: { cookie: who.cookie }, payload });
  const get = (who: Shopper, url: string) => t.app.inject({ url, headers: { cookie: who.cookie } });
  const SHIP = { trackingGuide: 'EST-7788123', deliveryProvider: 'Estafeta', deliveryDate: '2099-01-15' };
  const invoiceForm = {
    nombreFiscal: 'Laboratorios Químicos del Bajío',
    rfc: 'LQB150101AB3',
    regimenFiscal: '601',
    usoCfdi: 'G03',
    cp: '44100',
  };

  /** A SPEI order paid at the bank and confirmed by the reconciliation (as refunds.test.ts does). */
  async function paidSpeiOrder(shopper: Shopper, code: string, quantity: number) {
    const res = await placeOrderRequest(t, shopper, { items: [{ code, quantity }], paymentMethod: 'spei' });
    expect(res.statusCode, res.body).toBe(202);
    const number = (res.json() as { number: number }).number;
    const [payment] = (
      await t.db.execute<{ charge_id: string }>(
        sql`select charge_id from payments where order_number = ${number}`,
      )
    ).rows;
    await (t.app.paymentGateway as SandboxGateway).simulatePayment(payment!.charge_id);
    await reconcileAwaiting(
      { db: t.db, gateway: t.app.paymentGateway, publicUrl: 'http://tienda.test', log: t.app.log },
      { everyMs: 0, batch: 500 },
    );
    return number;
  }

  /** An order of `quantity` units (card unless SPEI), paid, optionally invoiced, then prepared, shipped and delivered. */
  async function deliveredOrder(
    index: number,
    quantity = 3,
    opts: { invoice?: boolean; spei?: boolean } = {},
  ) {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 10, index);
    await t.db.execute(
      sql`update products set cas_number = null, controlled = false, backorderable = false where code = ${p.code}`,
    );
    const number = opts.spei
      ? await paidSpeiOrder(shopper, p.code, quantity)
      : await paidOrder(t, shopper, [{ code: p.code, quantity }]);
    if (opts.invoice) {
      const res = await post(shopper, `/api/orders/${number}/invoice`, invoiceForm);
      expect(res.statusCode, res.body).toBe(201);
    }
    for (const [step, body] of [
      ['prepare', {}],
      ['ship', SHIP],
      ['deliver', {}],
    ] as const) {
      const res = await post(staff, `/api/admin/orders/${number}/${step}`, body);
      expect(res.statusCode, res.body).toBe(200);
    }
    return { shopper, product: p, number };
  }

  const ask = (shopper: Shopper, number: number, body: Record<string, unknown>) =>
    post(shopper, `/api/orders/${number}/returns`, {
      reason: 'defective',
      description: 'El frasco llegó con la tapa rota y derramado.',
      lines: [{ lineNo: 1, quantity: 2 }],
      photos: [{ contentBase64: png }],
      ...body,
    });

  return { png, post, get, SHIP, paidSpeiOrder, deliveredOrder, ask };
}
