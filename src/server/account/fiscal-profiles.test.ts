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
import { mailOutbox, orders } from '../db/schema.ts';
import { JOBS } from '../jobs.ts';

// Runs on in-memory PGlite, and on PostgreSQL with TEST_DATABASE_URL.
let t: CheckoutTestApp;
beforeAll(async () => {
  t = await createCheckoutApp();
});
afterAll(() => t.close());

const CP_CANNOT_EXIST =
  'Ese código postal no existe en México: sus dos primeros dígitos no corresponden a ningún estado. Escriba el de su Constancia de Situación Fiscal';

const profile = {
  rfc: 'lqb150101ab3',
  nombreFiscal: 'Laboratorios Químicos del Bajío',
  regimenFiscal: '601',
  usoCfdi: 'G03',
  cp: '44100',
  email: 'facturas@lqb.example.mx',
};
const save = (who: Shopper, payload: object, id?: number) =>
  t.app.inject({
    method: id ? 'PUT' : 'POST',
    url: `/api/account/fiscal-profiles${id ? `/${id}` : ''}`,
    headers: { cookie: who.cookie },
    payload,
  });
const list = async (who: Shopper) =>
  (await t.app.inject({ url: '/api/account/fiscal-profiles', headers: { cookie: who.cookie } })).json<{
    profiles: { id: number; rfc: string; isDefault: boolean }[];
  }>().profiles;

describe('perfiles fiscales', () => {
  it('saves profiles checked with the invoice form’s SAT rules; the first is the default', async () => {
    const buyer = await createShopper(t);
    const first = await save(buyer, profile);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({
      rfc: 'LQB150101AB3',
      isDefault: true,
      email: 'facturas@lqb.example.mx',
    });
    const second = await save(buyer, {
      ...profile,
      rfc: 'GODE561231GR8',
      nombreFiscal: 'Eduardo Gómez Díaz',
      regimenFiscal: '612',
      email: '',
    });
    expect(second.json()).toMatchObject({ isDefault: false });
    expect((await save(buyer, { ...profile, isDefault: true }, second.json().id)).json().isDefault).toBe(
      true,
    );
    expect((await list(buyer)).map((p) => [p.rfc, p.isDefault])).toEqual([
      ['LQB150101AB3', true],
      ['LQB150101AB3', false],
    ]);

    const before = (await list(buyer)).length;
    for (const [payload, field, message] of [
      [{ ...profile, rfc: 'XAXX010101000' }, 'rfc', 'No es posible facturar a un RFC genérico'],
      [
        { ...profile, regimenFiscal: '612' },
        'regimenFiscal',
        'El régimen 612 es para personas físicas (RFC de 13 caracteres); revise el régimen o el RFC',
      ],
      [{ ...profile, usoCfdi: 'D01' }, 'usoCfdi', undefined],
      [
        { ...profile, nombreFiscal: 'Laboratorios Químicos del Bajío, S.A. de C.V.' },
        'nombreFiscal',
        undefined,
      ],
      [{ ...profile, cp: '4410' }, 'cp', 'El código postal debe tener 5 dígitos'],
      [{ ...profile, cp: '00000' }, 'cp', CP_CANNOT_EXIST],
      [{ ...profile, cp: '17050' }, 'cp', CP_CANNOT_EXIST],
      [{ ...profile, email: 'no-es-correo' }, 'email', 'Escriba un correo electrónico válido'],
    ] as const) {
      const res = await save(buyer, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      const fields = res.json().error.fields as Record<string, string>;
      expect(Object.keys(fields)).toContain(field);
      if (message) expect(fields[field]).toBe(message);
    }
    // The same answers as the invoice form itself.
    const invoiceForm = await t.app.inject({
      method: 'POST',
      url: '/api/orders/999999/invoice',
      headers: { cookie: buyer.cookie },
      payload: { ...profile, rfc: 'XAXX010101000' },
    });
    expect(invoiceForm.json().error.fields.rfc).toBe('No es posible facturar a un RFC genérico');
    const noSuchCp = await t.app.inject({
      method: 'POST',
      url: '/api/orders/999999/invoice',
      headers: { cookie: buyer.cookie },
      payload: { ...profile, cp: '00000' },
    });
    expect(noSuchCp.statusCode).toBe(400);
    expect(noSuchCp.json().error.fields.cp).toBe(CP_CANNOT_EXIST);
    expect((await list(buyer)).length).toBe(before);

    // Another buyer's profile: 404, untouched.
    const other = await createShopper(t);
    expect((await save(other, profile, first.json().id)).statusCode).toBe(404);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/account/fiscal-profiles/${first.json().id}`,
      headers: { cookie: other.cookie },
    });
    expect(del.statusCode).toBe(404);
    expect((await list(buyer)).length).toBe(before);
  });

  it('«Facturar esta compra»: the CFDI is issued right after payment and mailed with XML and PDF', async () => {
    const buyer = await createShopper(t);
    const saved = (await save(buyer, profile)).json<{ id: number }>();
    const p = await productWithStock(t, 10, 2);
    const res = await placeOrderRequest(t, buyer, {
      items: [{ code: p.code, quantity: 2 }],
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: 'at-purchase',
      invoiceProfileId: saved.id,
      purchaseOrder: 'OC-99812',
    });
    expect(res.statusCode, res.body).toBe(201);
    const number = res.json<{ number: number }>().number;
    // The 'Compra realizada' mail says the invoice is on its way, to whom — not 'puede solicitar su factura'.
    const [paid] = await t.db
      .select({ text: mailOutbox.text })
      .from(mailOutbox)
      .where(sql`${mailOutbox.kind} = 'order-paid' and ${mailOutbox.dedupeKey} = ${`order-paid:${number}`}`);
    expect(paid!.text).toContain(
      'Solicitó su factura CFDI al comprar: la emitimos a nombre de Laboratorios Químicos del Bajío (RFC LQB150101AB3) y se la enviamos a facturas@lqb.example.mx con el XML y el PDF.',
    );
    expect(paid!.text).not.toContain('Puede solicitar su factura');
    // The at-purchase job's round (every 3 s in a running shop) issues it.
    expect(await t.app.jobs.runOnce(JOBS.invoiceAtPurchase)).toBe('done');
    const state = (
      await t.app.inject({ url: `/api/orders/${number}/invoice`, headers: { cookie: buyer.cookie } })
    ).json();
    expect(state).toMatchObject({ state: 'issued', rfc: 'LQB150101AB3' });
    const [mail] = await t.db
      .select()
      .from(mailOutbox)
      .where(sql`${mailOutbox.kind} = 'invoice-issued' and ${mailOutbox.to} = 'facturas@lqb.example.mx'`);
    expect(mail!.attachments.map((a) => a.contentType).sort()).toEqual([
      'application/pdf',
      'application/xml',
    ]);
    const pdf = mail!.attachments.find((a) => a.contentType === 'application/pdf')!;
    expect(pdfText(Buffer.from(pdf.contentBase64, 'base64'))).toContain('OC-99812');
  }, 30_000);

  it('another buyer’s profile at checkout is refused and nothing is reserved', async () => {
    const owner = await createShopper(t);
    const saved = (await save(owner, profile)).json<{ id: number }>();
    const thief = await createShopper(t);
    const p = await productWithStock(t, 10, 3);
    const res = await placeOrderRequest(t, thief, {
      items: [{ code: p.code, quantity: 1 }],
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: 'other-profile',
      invoiceProfileId: saved.id,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual({ code: 'not_found', message: 'Datos fiscales no encontrados' });
    const [n] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(orders)
      .where(eq(orders.userId, thief.id));
    expect(n!.n).toBe(0);
    expect(await stockOf(t, p.code)).toEqual({ stock: 10, ledger: 10 });
  });
});
