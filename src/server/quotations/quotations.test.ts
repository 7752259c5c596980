import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
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
import { pdfText } from '../../../tests/server/support/pdf-text.ts';
import { createStaff } from '../../../tests/server/support/staff.ts';
import { formatMoney, saleIva } from '../../shared/money.ts';
import type { QuotationDetail } from '../../shared/schemas/quotations.ts';
import { mailOutbox, orders, priceBreaks, products, quotationRevisions, quotations } from '../db/schema.ts';
import { CONTROLLED_NOTE } from './pdf.ts';
import { amountInWords } from './words.ts';

// Runs on in-memory PGlite, and on PostgreSQL with TEST_DATABASE_URL (real concurrent transactions).
let t: CheckoutTestApp;
beforeAll(async () => {
  t = await createCheckoutApp();
});
afterAll(() => t.close());

const create = (who: Shopper, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/quotations', headers: { cookie: who.cookie }, payload });
const get = (who: Shopper, url: string) => t.app.inject({ url, headers: { cookie: who.cookie } });
const post = (who: Shopper, url: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: { cookie: who.cookie }, ...(payload ? { payload } : {}) });

async function quotationOf(who: Shopper, items: { code: string; quantity: number }[], extra: object = {}) {
  const res = await create(who, { items, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<QuotationDetail>();
}

/** Converts through the real checkout: 'Convertir en pedido', then POST /api/orders with the folio. */
async function convert(who: Shopper, folio: string, extra: object = {}) {
  const prepared = await post(who, `/api/quotations/${folio}/convert`);
  if (prepared.statusCode !== 200) return prepared;
  const { items } = prepared.json<{ items: { code: string; quantity: number }[] }>();
  return placeOrderRequest(t, who, {
    items,
    quotation: folio,
    cardToken: await sandboxToken(t, '4111111111111111'),
    deviceSessionId: 'quotation-tests',
    ...extra,
  });
}

const orderCount = async (userId: number) =>
  (await t.db.select({ n: sql<number>`count(*)::int` }).from(orders).where(eq(orders.userId, userId)))[0]!.n;

describe('cotizaciones', () => {
  it('issues a folio with 30 days of validity, the cart at today’s prices, mailed with its PDF', async () => {
    const buyer = await createShopper(t);
    const a = await productWithStock(t, 20, 0);
    const b = await productWithStock(t, 20, 1);
    const q = await quotationOf(
      buyer,
      [
        { code: a.code, quantity: 3 },
        { code: b.code, quantity: 1 },
      ],
      {
        institution: 'Universidad de Guadalajara, CUCEI',
        rfc: 'ugu250908ef9',
        purchaseOrder: 'REQ-2026-0412',
      },
    );
    expect(q.folio).toMatch(/^COT-\d{4}-\d{6}$/);
    expect(q).toMatchObject({
      state: 'vigente',
      stateLabel: 'Vigente',
      revision: 1,
      buyerName: 'María López Ruiz',
      institution: 'Universidad de Guadalajara, CUCEI',
      rfc: 'UGU250908EF9',
      purchaseOrder: 'REQ-2026-0412',
      canConvert: true,
      canRenew: false,
    });
    expect(q.lines.map((l) => [l.code, l.unitPriceCents, l.quantity, l.amountCents])).toEqual([
      [a.code, a.priceCents, 3, a.priceCents * 3],
      [b.code, b.priceCents, 1, b.priceCents],
    ]);
    expect(q.subtotalCents).toBe(a.priceCents * 3 + b.priceCents);
    expect(q.totalCents).toBe(q.subtotalCents + q.shippingCents);
    expect(q.ivaCents).toBe(saleIva([a.priceCents * 3, b.priceCents, q.shippingCents]));
    // Valid through the end of the 30th day after issue, Mexico City time.
    const days = (Date.parse(q.validUntil) - Date.parse(q.createdAt)) / 86_400_000;
    expect(days).toBeGreaterThan(30);
    expect(days).toBeLessThanOrEqual(31);
    expect(new Date(q.validUntil).toISOString()).toMatch(/T05:59:59\.999Z$/);

    const list = (await get(buyer, '/api/quotations')).json<{ quotations: { folio: string }[] }>();
    expect(list.quotations.map((x) => x.folio)).toEqual([q.folio]);

    const [mail] = await t.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.dedupeKey, `quotation:${q.folio}:1`));
    expect(mail).toMatchObject({ kind: 'quotation', to: buyer.email, subject: `Cotización ${q.folio}` });
    expect(mail!.attachments).toHaveLength(1);
    expect(mail!.attachments[0]).toMatchObject({
      filename: `Cotizacion-${q.folio}.pdf`,
      contentType: 'application/pdf',
    });
    const attached = pdfText(Buffer.from(mail!.attachments[0]!.contentBase64, 'base64'));
    const res = await get(buyer, `/api/quotations/${q.folio}/pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="Cotizacion-${q.folio}.pdf"`);
    const text = pdfText(res.rawPayload);
    expect(text).toBe(attached);
    for (const expected of [
      'COTIZACIÓN',
      q.folio,
      'Suministros Científicos de Occidente, S.A. de C.V.',
      'RFC SCO090415QX1',
      'Universidad de Guadalajara, CUCEI',
      'UGU250908EF9',
      'REQ-2026-0412',
      a.code,
      `(${amountInWords(q.totalCents)})`,
      'CONDICIONES COMERCIALES',
    ])
      expect(text).toContain(expected);
    expect(text).toMatch(/Precios firmes por 30 días naturales/);
  });

  it('holds its prices after the catalogue price rises: the order is sold at the quoted price', async () => {
    const buyer = await createShopper(t);
    const p = await productWithStock(t, 10, 2);
    const q = await quotationOf(buyer, [{ code: p.code, quantity: 2 }]);
    await t.db
      .update(products)
      .set({ priceCents: p.priceCents + 50_000 })
      .where(eq(products.code, p.code));
    const again = (await get(buyer, `/api/quotations/${q.folio}`)).json<QuotationDetail>();
    expect(again.lines[0]!.unitPriceCents).toBe(p.priceCents);
    expect(again.totalCents).toBe(q.totalCents);

    const res = await convert(buyer, q.folio, { purchaseOrder: 'OC-4500012345' });
    expect(res.statusCode, res.body).toBe(201);
    const number = res.json<{ number: number }>().number;
    const detail = (await get(buyer, `/api/orders/${number}`)).json();
    expect(detail).toMatchObject({
      status: 'paid',
      totalCents: q.totalCents,
      subtotalCents: p.priceCents * 2,
      purchaseOrder: 'OC-4500012345',
      quotationFolio: q.folio,
    });
    expect(detail.lines[0]).toMatchObject({ code: p.code, unitPriceCents: p.priceCents, quantity: 2 });
    const after = (await get(buyer, `/api/quotations/${q.folio}`)).json<QuotationDetail>();
    expect(after).toMatchObject({ state: 'convertida', orderNumber: number, canConvert: false });
    // Converted once: a second conversion is refused, nothing else is created.
    const second = await convert(buyer, q.folio);
    expect(second.statusCode).toBe(409);
    expect(second.json().error).toEqual({
      code: 'quotation_converted',
      message: `La cotización ${q.folio} ya se convirtió en el pedido #${number}`,
    });
    expect(await orderCount(buyer.id)).toBe(1);
    await t.db.update(products).set({ priceCents: p.priceCents }).where(eq(products.code, p.code));
  });

  it('20 simultaneous conversions of one quotation → exactly one order, one charge, stock taken once', async () => {
    const buyer = await createShopper(t);
    const p = await productWithStock(t, 50, 3);
    const q = await quotationOf(buyer, [{ code: p.code, quantity: 2 }]);
    const tokens = await Promise.all(Array.from({ length: 20 }, () => sandboxToken(t, '4111111111111111')));
    const answers = await Promise.all(
      tokens.map((cardToken, i) =>
        placeOrderRequest(t, buyer, {
          items: [{ code: p.code, quantity: 2 }],
          quotation: q.folio,
          cardToken,
          deviceSessionId: `parallel-${i}`,
        }),
      ),
    );
    const created = answers.filter((a) => a.statusCode === 201);
    expect(created).toHaveLength(1);
    const refused = answers.filter((a) => a.statusCode === 409);
    expect(refused).toHaveLength(19);
    for (const a of refused) expect(a.json().error.code).toBe('quotation_converted');
    expect(await orderCount(buyer.id)).toBe(1);
    expect(await stockOf(t, p.code)).toEqual({ stock: 48, ledger: 48 });
    const [row] = await t.db.select().from(quotations).where(eq(quotations.folio, q.folio));
    expect(row!.orderNumber).toBe(created[0]!.json().number);
  }, 60_000);

  it('expires after its validity: no conversion, then «Renovar» at today’s prices for another 30 days', async () => {
    const buyer = await createShopper(t);
    const p = await productWithStock(t, 10, 4);
    const q = await quotationOf(buyer, [{ code: p.code, quantity: 1 }]);
    await t.db
      .update(quotations)
      .set({ validUntil: new Date(Date.now() - 60_000) })
      .where(eq(quotations.folio, q.folio));
    const expired = (await get(buyer, `/api/quotations/${q.folio}`)).json<QuotationDetail>();
    expect(expired).toMatchObject({ state: 'vencida', canConvert: false, canRenew: true });
    const refused = await post(buyer, `/api/quotations/${q.folio}/convert`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toEqual({
      code: 'quotation_expired',
      message: `La cotización ${q.folio} venció; renuévela a los precios de hoy para comprar`,
    });
    // Straight to checkout with the folio: refused the same way, nothing changed.
    const direct = await placeOrderRequest(t, buyer, {
      items: [{ code: p.code, quantity: 1 }],
      quotation: q.folio,
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: 'expired',
    });
    expect(direct.statusCode).toBe(409);
    expect(direct.json().error.code).toBe('quotation_expired');
    expect(await orderCount(buyer.id)).toBe(0);
    expect(await stockOf(t, p.code)).toEqual({ stock: 10, ledger: 10 });

    await t.db
      .update(products)
      .set({ priceCents: p.priceCents + 1234 })
      .where(eq(products.code, p.code));
    const renewed = await post(buyer, `/api/quotations/${q.folio}/renew`);
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect(renewed.json<QuotationDetail>()).toMatchObject({
      folio: q.folio,
      revision: 2,
      state: 'vigente',
      lines: [expect.objectContaining({ unitPriceCents: p.priceCents + 1234 })],
    });
    const revisions = await t.db
      .select()
      .from(quotationRevisions)
      .innerJoin(quotations, eq(quotations.id, quotationRevisions.quotationId))
      .where(eq(quotations.folio, q.folio));
    expect(revisions.map((r) => [r.quotation_revisions.revision, r.quotation_revisions.reason])).toEqual([
      [1, 'created'],
      [2, 'renewed'],
    ]);
    // A vigente quotation needs no renewal.
    expect((await post(buyer, `/api/quotations/${q.folio}/renew`)).statusCode).toBe(409);
    await t.db.update(products).set({ priceCents: p.priceCents }).where(eq(products.code, p.code));
  });

  it('another user’s quotation is a 404 everywhere; bad input is a Spanish 4xx and changes nothing', async () => {
    const owner = await createShopper(t);
    const other = await createShopper(t);
    const p = await productWithStock(t, 10, 5);
    const q = await quotationOf(owner, [{ code: p.code, quantity: 1 }]);
    for (const url of [`/api/quotations/${q.folio}`, `/api/quotations/${q.folio}/pdf`]) {
      const res = await get(other, url);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe('Cotización no encontrada');
    }
    for (const action of ['convert', 'renew', 'cancel'])
      expect((await post(other, `/api/quotations/${q.folio}/${action}`)).statusCode).toBe(404);
    const stolen = await placeOrderRequest(t, other, {
      items: [{ code: p.code, quantity: 1 }],
      quotation: q.folio,
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: 'other',
    });
    expect(stolen.statusCode).toBe(409);
    expect(stolen.json().error).toEqual({ code: 'not_found', message: 'Cotización no encontrada' });
    expect(await orderCount(other.id)).toBe(0);

    const before = (await t.db.select({ n: sql<number>`count(*)::int` }).from(quotations))[0]!.n;
    const empty = await create(owner, { items: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields.items).toBe('El carrito está vacío');
    const badRfc = await create(owner, { items: [{ code: p.code, quantity: 1 }], rfc: 'ABC991332AB1' });
    expect(badRfc.statusCode).toBe(400);
    expect(badRfc.json().error.fields.rfc).toBe('La fecha contenida en el RFC no es válida');
    const longPo = await create(owner, {
      items: [{ code: p.code, quantity: 1 }],
      purchaseOrder: 'X'.repeat(200),
    });
    expect(longPo.statusCode).toBe(400);
    expect(longPo.json().error.fields.purchaseOrder).toBe(
      'El número de orden de compra admite hasta 40 caracteres',
    );
    expect((await t.db.select({ n: sql<number>`count(*)::int` }).from(quotations))[0]!.n).toBe(before);
    expect((await get(owner, '/api/quotations/COT-1-2')).statusCode).toBe(400);

    // Items that are not the quotation's lines: refused.
    const mismatch = await placeOrderRequest(t, owner, {
      items: [{ code: p.code, quantity: 5 }],
      quotation: q.folio,
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: 'mismatch',
    });
    expect(mismatch.statusCode).toBe(409);
    expect(mismatch.json().error.code).toBe('quotation_mismatch');

    const cancelled = await post(owner, `/api/quotations/${q.folio}/cancel`);
    expect(cancelled.json<QuotationDetail>()).toMatchObject({ state: 'cancelada', canConvert: false });
    expect((await post(owner, `/api/quotations/${q.folio}/convert`)).json().error.code).toBe(
      'quotation_cancelled',
    );
  });

  it('«Convertir en pedido» checks stock now', async () => {
    const buyer = await createShopper(t);
    const p = await productWithStock(t, 10, 6);
    const q = await quotationOf(buyer, [{ code: p.code, quantity: 4 }]);
    await t.db.update(products).set({ stock: 3 }).where(eq(products.code, p.code));
    const res = await post(buyer, `/api/quotations/${q.folio}/convert`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual({
      code: 'insufficient_stock',
      message: `${p.name} (${p.code}): solo hay 3 disponibles de 4 cotizadas`,
    });
  });

  it('staff adjust prices and discount (new revision, old kept, re-sent), extend validity, see the conversion rate', async () => {
    const staff = await createStaff(t);
    const buyer = await createShopper(t);
    const a = await productWithStock(t, 10, 7);
    const b = await productWithStock(t, 10, 8);
    const q = await quotationOf(buyer, [
      { code: a.code, quantity: 2 },
      { code: b.code, quantity: 1 },
    ]);
    const revised = await post(staff, `/api/admin/quotations/${q.folio}/revise`, {
      prices: [{ code: a.code, unitPriceCents: 10_000 }],
      discountPercent: 10,
      note: 'Precio especial para su institución.',
    });
    expect(revised.statusCode, revised.body).toBe(200);
    const r = revised.json();
    expect(r.revision).toBe(2);
    expect(r.lines.map((l: { unitPriceCents: number }) => l.unitPriceCents)).toEqual([
      9_000,
      Math.round((b.priceCents * 90) / 100),
    ]);
    expect(r.note).toBe('Precio especial para su institución.');
    expect(r.discountCents).toBe(a.priceCents * 2 + b.priceCents - r.subtotalCents);
    expect(r.revisions.map((x: { revision: number; reason: string }) => [x.revision, x.reason])).toEqual([
      [1, 'created'],
      [2, 'adjusted'],
    ]);
    const mails = await t.db
      .select({ subject: mailOutbox.subject })
      .from(mailOutbox)
      .where(sql`${mailOutbox.dedupeKey} like ${`quotation:${q.folio}:%`}`)
      .orderBy(mailOutbox.id);
    expect(mails.map((m) => m.subject)).toEqual([
      `Cotización ${q.folio}`,
      `Cotización ${q.folio} actualizada (revisión 2)`,
    ]);
    // The buyer now sees (and buys at) revision 2.
    const seen = (await get(buyer, `/api/quotations/${q.folio}`)).json<QuotationDetail>();
    expect(seen.totalCents).toBe(r.totalCents);

    const bad = await post(staff, `/api/admin/quotations/${q.folio}/revise`, { discountPercent: 95 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.discountPercent).toBe('El descuento no puede pasar de 90 %');
    const unknownCode = await post(staff, `/api/admin/quotations/${q.folio}/revise`, {
      prices: [{ code: 'NO-EXISTE', unitPriceCents: 100 }],
    });
    expect(unknownCode.statusCode).toBe(400);

    const extended = await post(staff, `/api/admin/quotations/${q.folio}/extend`, { days: 15 });
    expect(extended.statusCode, extended.body).toBe(200);
    expect(Date.parse(extended.json().validUntil) - Date.parse(r.validUntil)).toBe(15 * 86_400_000);
    expect(extended.json().revision).toBe(3);

    // Shoppers cannot reach the back office.
    expect((await post(buyer, `/api/admin/quotations/${q.folio}/extend`, { days: 15 })).statusCode).toBe(403);

    const converted = await convert(buyer, q.folio);
    expect(converted.statusCode, converted.body).toBe(201);
    const order = (await get(buyer, `/api/orders/${converted.json().number}`)).json();
    expect(order.totalCents).toBe(r.totalCents);
    const list = (await get(staff, '/api/admin/quotations')).json();
    const [issued] = await t.db.select({ n: sql<number>`count(*)::int` }).from(quotations);
    const [done] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(quotations)
      .innerJoin(orders, eq(orders.number, quotations.orderNumber))
      .where(eq(orders.status, 'paid'));
    expect(list.stats).toEqual({
      issued: issued!.n,
      converted: done!.n,
      ratePercent: Math.round((done!.n / issued!.n) * 1000) / 10,
    });
    expect(list.items.find((x: { folio: string }) => x.folio === q.folio)).toMatchObject({
      state: 'convertida',
      email: buyer.email,
    });
    const late = await post(staff, `/api/admin/quotations/${q.folio}/revise`, { note: 'tarde' });
    expect(late.statusCode).toBe(409);
  });
});

describe('revised quotations and renewals (issue 37, item 3)', () => {
  const mailsOf = async (folio: string) =>
    (
      await t.db
        .select({ subject: mailOutbox.subject })
        .from(mailOutbox)
        .where(sql`${mailOutbox.dedupeKey} like ${`quotation:${folio}:%`}`)
    ).map((m) => m.subject);

  it('the PDF shows list price, volume price, agreed price and the percentage as separate figures that add up', async () => {
    const staff = await createStaff(t);
    const buyer = await createShopper(t);
    const p = await productWithStock(t, 50, 0);
    const list = p.priceCents;
    const volume = Math.round(list * 0.9);
    await t.db.insert(priceBreaks).values({ productCode: p.code, minQuantity: 10, priceCents: volume });
    const q = await quotationOf(buyer, [{ code: p.code, quantity: 10 }]);
    expect(q.lines[0]).toMatchObject({
      listPriceCents: list,
      volumePriceCents: volume,
      unitPriceCents: volume,
    });
    const agreed = volume - 1_000;
    const res = await post(staff, `/api/admin/quotations/${q.folio}/revise`, {
      prices: [{ code: p.code, unitPriceCents: agreed }],
      discountPercent: 5,
    });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json<QuotationDetail>();
    const unit = Math.round(agreed * 0.95);
    expect(r).toMatchObject({
      listAmountCents: list * 10,
      volumeDiscountCents: (list - volume) * 10,
      agreedDiscountCents: 1_000 * 10,
      percentDiscountCents: (agreed - unit) * 10,
      subtotalCents: unit * 10,
    });
    expect(r.volumeDiscountCents + r.agreedDiscountCents + r.percentDiscountCents).toBe(r.discountCents);

    const text = pdfText((await get(buyer, `/api/quotations/${q.folio}/pdf`)).rawPayload);
    const row = (label: string, cents: number, sign = '') => `${label}\n${sign}${formatMoney(cents)}`;
    expect(text).toContain(row('Importe a precio de lista', list * 10));
    expect(text).toContain(row('Descuento por volumen', (list - volume) * 10, '-'));
    expect(text).toContain(row('Precios acordados', 10_000, '-'));
    // The 5 % is 5 % of the agreed amount — not the whole reduction.
    expect(text).toContain(row('Descuento (5 %)', (agreed - unit) * 10, '-'));
    expect(text).toContain(row('Importe de productos', unit * 10));
    // Under the line: the list, volume and agreed prices of one unit.
    expect(text).toContain(
      `Precio de lista ${formatMoney(list)}\nPrecio por volumen ${formatMoney(volume)}\nPrecio acordado ${formatMoney(agreed)}\nDescuento 5 %`,
    );
  });

  it('says what ships later and what a controlled chemical needs, and promises no credit (issue 37, item 8)', async () => {
    const buyer = await createShopper(t);
    const later = await productWithStock(t, 2, 3);
    const controlled = await productWithStock(t, 20, 4);
    await t.db
      .update(products)
      .set({ backorderable: true, leadMinDays: 10, leadMaxDays: 15 })
      .where(eq(products.code, later.code));
    await t.db.update(products).set({ controlled: true }).where(eq(products.code, controlled.code));
    const q = await quotationOf(buyer, [
      { code: later.code, quantity: 5 },
      { code: controlled.code, quantity: 1 },
    ]);
    expect(q.lines.find((l) => l.code === later.code)).toMatchObject({
      leadTime: { minDays: 10, maxDays: 15 },
      stock: 2,
    });
    // The notes wrap under the description: read as one text.
    const text = pdfText((await get(buyer, `/api/quotations/${q.folio}/pdf`)).rawPayload).replace(
      /\s+/g,
      ' ',
    );
    expect(text).toContain('Disponibles ahora: 2 · 3 sobre pedido (entrega en 10–15 días hábiles)');
    expect(text).toContain(CONTROLLED_NOTE);
    expect(text).not.toMatch(/cr[eé]dito/i);
  });

  it('a staff revision that changes nothing writes no revision and sends no mail', async () => {
    const staff = await createStaff(t);
    const buyer = await createShopper(t);
    const p = await productWithStock(t, 10, 0);
    const q = await quotationOf(buyer, [{ code: p.code, quantity: 2 }]);
    const first = await post(staff, `/api/admin/quotations/${q.folio}/revise`, {
      discountPercent: 5,
      note: 'Nota',
    });
    expect(first.json()).toMatchObject({ revision: 2, unchanged: false });
    const again = await post(staff, `/api/admin/quotations/${q.folio}/revise`, {
      prices: [{ code: p.code, unitPriceCents: p.priceCents }],
      discountPercent: 5,
      note: 'Nota',
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ revision: 2, unchanged: true });
    expect(await mailsOf(q.folio)).toEqual([
      `Cotización ${q.folio}`,
      `Cotización ${q.folio} actualizada (revisión 2)`,
    ]);
  });

  it('«Renovar» first shows what changes (agreed prices and percentage lost), then keeps staff’s note', async () => {
    const staff = await createStaff(t);
    const buyer = await createShopper(t);
    const p = await productWithStock(t, 10, 0);
    const q = await quotationOf(buyer, [{ code: p.code, quantity: 2 }]);
    await post(staff, `/api/admin/quotations/${q.folio}/revise`, {
      prices: [{ code: p.code, unitPriceCents: p.priceCents - 500 }],
      discountPercent: 10,
      note: 'Precio especial por volumen anual.',
    });
    const revised = (await get(buyer, `/api/quotations/${q.folio}`)).json<QuotationDetail>();
    await t.db
      .update(quotations)
      .set({ validUntil: new Date(Date.now() - 60_000) })
      .where(eq(quotations.folio, q.folio));

    const preview = await get(buyer, `/api/quotations/${q.folio}/renewal`);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({
      currentTotalCents: revised.totalCents,
      lines: [
        {
          code: p.code,
          quotedUnitPriceCents: Math.round(((p.priceCents - 500) * 90) / 100),
          todayUnitPriceCents: p.priceCents,
        },
      ],
      changes: [
        `Los precios acordados con nuestro equipo para ${p.code} ya no aplican: se cotiza al precio de hoy.`,
        'El descuento del 10 % de la revisión vencida ya no aplica.',
        'Cambia el precio de 1 producto.',
        'Se conservan las observaciones: «Precio especial por volumen anual.».',
      ],
    });
    // Seeing it changes nothing.
    expect((await get(buyer, `/api/quotations/${q.folio}`)).json<QuotationDetail>().revision).toBe(2);

    const renewed = await post(buyer, `/api/quotations/${q.folio}/renew`);
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect(renewed.json<QuotationDetail>()).toMatchObject({
      revision: 3,
      state: 'vigente',
      note: 'Precio especial por volumen anual.',
      totalCents: preview.json().renewedTotalCents,
    });
    // A vigente quotation has nothing to preview.
    expect((await get(buyer, `/api/quotations/${q.folio}/renewal`)).statusCode).toBe(409);
  });
});

describe('número de orden de compra', () => {
  it('is stored on the order and shown on the order, the confirmation mail and the staff screen', async () => {
    const buyer = await createShopper(t);
    const staff = await createStaff(t);
    const p = await productWithStock(t, 10, 9);
    const res = await placeOrderRequest(t, buyer, {
      items: [{ code: p.code, quantity: 1 }],
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: 'po',
      purchaseOrder: '  OC-UDG-CUCEI-2026-000123/A ',
    });
    expect(res.statusCode, res.body).toBe(201);
    const number = res.json().number;
    expect((await get(buyer, `/api/orders/${number}`)).json().purchaseOrder).toBe(
      'OC-UDG-CUCEI-2026-000123/A',
    );
    expect((await get(staff, `/api/admin/orders/${number}`)).json().purchaseOrder).toBe(
      'OC-UDG-CUCEI-2026-000123/A',
    );
    const [mail] = await t.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.dedupeKey, `order-paid:${number}`));
    expect(mail!.text).toContain('OC-UDG-CUCEI-2026-000123/A');
    expect(mail!.html).toContain('Orden de compra');
  });

  it('refuses 200 characters or control characters with a Spanish 400, and nothing is created', async () => {
    const buyer = await createShopper(t);
    const p = await productWithStock(t, 10, 10);
    for (const [purchaseOrder, message] of [
      ['A'.repeat(200), 'El número de orden de compra admite hasta 40 caracteres'],
      ['OC-1\u0007', 'El número de orden de compra contiene caracteres no válidos'],
      ['OC\n123', 'El número de orden de compra contiene caracteres no válidos'],
      ['OC\u202E321', 'El número de orden de compra contiene caracteres no válidos'],
    ]) {
      const res = await placeOrderRequest(t, buyer, {
        items: [{ code: p.code, quantity: 1 }],
        cardToken: 'tok_x',
        deviceSessionId: 'po-bad',
        purchaseOrder,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields.purchaseOrder).toBe(message);
    }
    // U+0000 is refused before any route (PostgreSQL text cannot hold it).
    const nul = await placeOrderRequest(t, buyer, {
      items: [{ code: p.code, quantity: 1 }],
      cardToken: 'tok_x',
      deviceSessionId: 'po-bad',
      purchaseOrder: 'OC-1\u0000',
    });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().error.message).toBe('La solicitud contiene caracteres no permitidos');
    expect(await orderCount(buyer.id)).toBe(0);
    expect(await stockOf(t, p.code)).toEqual({ stock: 10, ledger: 10 });
  });

  it('is required when staff set the account so; then the order goes through with one', async () => {
    const buyer = await createShopper(t);
    const staff = await createStaff(t);
    const p = await productWithStock(t, 10, 11);
    const flag = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/customers/${buyer.id}/purchase-order`,
      headers: { cookie: staff.cookie },
      payload: { required: true },
    });
    expect(flag.statusCode, flag.body).toBe(200);
    expect(flag.json().requiresPurchaseOrder).toBe(true);
    const without = await placeOrderRequest(t, buyer, {
      items: [{ code: p.code, quantity: 1 }],
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: 'po-required',
    });
    expect(without.statusCode).toBe(409);
    expect(without.json().error).toEqual({
      code: 'purchase_order_required',
      message: 'Su cuenta requiere el número de orden de compra en cada pedido. Escríbalo para continuar.',
    });
    expect(await orderCount(buyer.id)).toBe(0);
    expect(await stockOf(t, p.code)).toEqual({ stock: 10, ledger: 10 });
    const withPo = await placeOrderRequest(
      t,
      buyer,
      {
        items: [{ code: p.code, quantity: 1 }],
        cardToken: await sandboxToken(t, '4111111111111111'),
        deviceSessionId: 'po-required',
        purchaseOrder: '4500098765',
      },
      randomUUID(),
    );
    expect(withPo.statusCode, withPo.body).toBe(201);
  });

  it('is printed on the CFDI PDF', async () => {
    const buyer = await createShopper(t);
    const p = await productWithStock(t, 10, 0);
    const res = await placeOrderRequest(t, buyer, {
      items: [{ code: p.code, quantity: 1 }],
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: 'po-cfdi',
      purchaseOrder: 'OC-2026-7781',
    });
    const number = res.json().number;
    const invoice = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${number}/invoice`,
      headers: { cookie: buyer.cookie },
      payload: {
        nombreFiscal: 'Laboratorios Químicos del Bajío',
        rfc: 'LQB150101AB3',
        regimenFiscal: '601',
        usoCfdi: 'G03',
        formaPago: '04',
        cp: '44100',
      },
    });
    expect(invoice.statusCode, invoice.body).toBe(201);
    const pdf = await get(buyer, `/api/orders/${number}/invoice.pdf`);
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('ORDEN DE COMPRA DEL CLIENTE');
    expect(text).toContain('OC-2026-7781');
    const [mail] = await t.db
      .select()
      .from(mailOutbox)
      .where(sql`${mailOutbox.kind} = 'invoice-issued' and ${mailOutbox.to} = ${buyer.email}`);
    const attachedPdf = mail?.attachments.find((x) => x.contentType === 'application/pdf');
    expect(pdfText(Buffer.from(attachedPdf!.contentBase64, 'base64'))).toContain('OC-2026-7781');
  });
});

describe('importe con letra', () => {
  it('writes amounts as Mexican documents do', () => {
    expect(amountInWords(123_456)).toBe('UN MIL DOSCIENTOS TREINTA Y CUATRO PESOS 56/100 M.N.');
    expect(amountInWords(100)).toBe('UN PESO 00/100 M.N.');
    expect(amountInWords(10_000)).toBe('CIEN PESOS 00/100 M.N.');
    expect(amountInWords(2_115_000)).toBe('VEINTIÚN MIL CIENTO CINCUENTA PESOS 00/100 M.N.');
    expect(amountInWords(100_000_000)).toBe('UN MILLÓN DE PESOS 00/100 M.N.');
    expect(amountInWords(351_099_999)).toBe(
      'TRES MILLONES QUINIENTOS DIEZ MIL NOVECIENTOS NOVENTA Y NUEVE PESOS 99/100 M.N.',
    );
  });
});
