import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateCfdiXml } from '../../../tests/server/support/cfdi-xsd.ts';
import { createTestOrder, createTestShopper } from '../../../tests/server/support/invoice-orders.ts';
import { pdfText } from '../../../tests/server/support/pdf-text.ts';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createStaff,
  type Shopper,
} from '../../../tests/server/support/staff.ts';
import { invoices, mailOutbox } from '../db/schema.ts';
import { createInvoicingContext } from './context.ts';
import { issueCreditNote } from './credit-notes.ts';
import { followUpCancellations } from './follow-up.ts';
import { readAttribute } from './pac/tfd.ts';
import type { Pac } from './pac/types.ts';

let t: CheckoutTestApp;
let staff: Shopper;
beforeAll(async () => {
  t = await createCheckoutApp();
  staff = await createStaff(t);
});
afterAll(() => t.close());

const form = {
  nombreFiscal: 'Laboratorios Químicos del Bajío',
  rfc: 'LQB150101AB3',
  regimenFiscal: '601',
  usoCfdi: 'G03',
  cp: '44100',
};
const creditNote = (number: number, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/invoices/${number}/credit-notes`,
    headers: { cookie: staff.cookie },
    payload,
  });

describe('credit notes (CFDI de egreso, TipoRelacion 01) for partial refunds and discounts', () => {
  it('staff issue one related to the invoice; the invoice stays valid; never more than its total', async () => {
    const shopper = await createTestShopper(t.db, 'Daniela');
    const number = await createTestOrder(t.db, shopper.id); // $888.49 with shipping
    const issued = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${number}/invoice`,
      cookies: shopper.cookie,
      payload: form,
    });
    expect(issued.statusCode).toBe(201);
    const invoiceUuid = issued.json().invoice.uuid as string;

    const res = await creditNote(number, {
      amount: '319.99',
      description: 'Devolución de 1 frasco de cloruro de sodio',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json<{ uuid: string; remainingCents: number }>();
    expect(body.remainingCents).toBe(88_849 - 31_999);
    const [note] = await t.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.orderNumber, number), eq(invoices.kind, 'E')));
    const xml = note!.xml!;
    expect(await validateCfdiXml(xml)).toEqual({ valid: true, errors: [] });
    expect(readAttribute(xml, 'cfdi:Comprobante', 'TipoDeComprobante')).toBe('E');
    expect(readAttribute(xml, 'cfdi:Comprobante', 'Total')).toBe('319.99');
    expect(readAttribute(xml, 'cfdi:Comprobante', 'Serie')).toBe('NC');
    expect(readAttribute(xml, 'cfdi:Receptor', 'UsoCFDI')).toBe('G02');
    expect(readAttribute(xml, 'cfdi:Receptor', 'Rfc')).toBe('LQB150101AB3');
    expect(xml).toContain(
      `<cfdi:CfdiRelacionados TipoRelacion="01"><cfdi:CfdiRelacionado UUID="${invoiceUuid}"/></cfdi:CfdiRelacionados>`,
    );
    expect(readAttribute(xml, 'tfd:TimbreFiscalDigital', 'UUID')).toBe(body.uuid);

    // The shopper's invoice is still the Comprobante de ingreso, valid.
    const state = await t.app.inject({ url: `/api/orders/${number}/invoice`, cookies: shopper.cookie });
    expect(state.json()).toMatchObject({ state: 'issued', uuid: invoiceUuid });

    const tooMuch = await creditNote(number, { amount: '568.51', description: 'Descuento por pronto pago' });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error.message).toMatch(
      /no exceder lo que queda por acreditar de la factura \(\$568\.50\)/,
    );
    expect(
      (await creditNote(number, { amount: '568.50', description: 'Descuento por pronto pago' })).statusCode,
    ).toBe(201);
    const bad = await creditNote(number, { amount: 'cero', description: 'x' });
    expect(bad.statusCode).toBe(400);
  });

  it('needs an invoice, and staff', async () => {
    const shopper = await createTestShopper(t.db, 'Elena');
    const number = await createTestOrder(t.db, shopper.id);
    const res = await creditNote(number, { amount: '10.00', description: 'Descuento posterior' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('Este pedido no tiene una factura vigente');
    const asShopper = await t.app.inject({
      method: 'POST',
      url: `/api/admin/invoices/${number}/credit-notes`,
      cookies: shopper.cookie,
      payload: { amount: '10.00', description: 'Descuento posterior' },
    });
    expect([401, 403]).toContain(asShopper.statusCode);
  });
});

const invoiced = async (name: string) => {
  const shopper = await createTestShopper(t.db, name);
  const number = await createTestOrder(t.db, shopper.id); // $888.49 with shipping
  const issued = await t.app.inject({
    method: 'POST',
    url: `/api/orders/${number}/invoice`,
    cookies: shopper.cookie,
    payload: form,
  });
  expect(issued.statusCode).toBe(201);
  return { shopper, number, invoiceUuid: issued.json().invoice.uuid as string };
};

const admin = (url: string) => t.app.inject({ url, headers: { cookie: staff.cookie } });

describe('credit notes: listed for staff with their files, mailed to the shopper', () => {
  it('lists them with UUID and remaining amount, serves XML and PDF, and mails both to the shopper', async () => {
    const { shopper, number, invoiceUuid } = await invoiced('Fernanda');
    const res = await creditNote(number, { amount: '100.00', description: 'Descuento por empaque dañado' });
    expect(res.statusCode).toBe(201);
    const { uuid } = res.json<{ uuid: string }>();

    const list = await admin(`/api/admin/invoices/${number}/credit-notes`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({
      invoiceUuid,
      invoiceTotalCents: 88_849,
      remainingCents: 78_849,
      items: [{ uuid, status: 'issued', totalCents: 10_000, description: 'Descuento por empaque dañado' }],
    });

    const xml = await admin(`/api/admin/invoices/${number}/credit-notes/${uuid}.xml`);
    expect(xml.statusCode).toBe(200);
    expect(xml.headers['content-disposition']).toMatch(/nota-credito-NC\d+-/);
    expect(await validateCfdiXml(xml.body)).toEqual({ valid: true, errors: [] });
    expect(readAttribute(xml.body, 'tfd:TimbreFiscalDigital', 'UUID')).toBe(uuid);
    const pdf = await admin(`/api/admin/invoices/${number}/credit-notes/${uuid}.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // The invoice renderer, as a credit note: its title, its type and the invoice it credits (relation 01).
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('NOTA DE CRÉDITO · CFDI 4.0');
    expect(text).toContain('Comprobante de egreso (E)');
    expect(text).toContain('Tipo de relación 01 - Nota de crédito de los documentos relacionados');
    expect(text).toContain(`Folio fiscal (UUID): ${invoiceUuid}`);
    expect(text).toContain('Descuento por empaque dañado');
    const missing = await admin(
      `/api/admin/invoices/${number}/credit-notes/00000000-0000-4000-8000-000000000000.pdf`,
    );
    expect(missing.statusCode).toBe(404);

    const [mail] = await t.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.dedupeKey, `credit-note-issued:${uuid}`));
    expect(mail).toMatchObject({ kind: 'credit-note-issued', to: shopper.email });
    expect(mail!.subject).toBe(`Nota de crédito del pedido #${number}`);
    expect(mail!.text).toContain(invoiceUuid);
    expect(mail!.attachments.map((a) => a.filename)).toEqual([
      expect.stringMatching(new RegExp(`^nota-credito-NC\\d+-${uuid}\\.xml$`)),
      expect.stringMatching(/\.pdf$/),
    ]);
    const attached = Buffer.from(mail!.attachments[0]!.contentBase64, 'base64').toString('utf8');
    expect(attached).toBe(xml.body);
  });
});

/** A PAC that stamps, then loses its answer once (the process died, the connection dropped). */
function losingAnswerOnce(inner: Pac): Pac & { stamped: string[] } {
  let lose = true;
  const stamped: string[] = [];
  return {
    name: inner.name,
    stamped,
    cancel: (r) => inner.cancel(r),
    cancellationStatus: (r) => inner.cancellationStatus(r),
    stamp: async (xml) => {
      const stamp = await inner.stamp(xml);
      stamped.push(stamp.uuid);
      if (lose) {
        lose = false;
        throw new Error('el proceso terminó tras el timbrado');
      }
      return stamp;
    },
  };
}

describe('credit notes survive a crash between the stamp and the save (same recovery as invoices)', () => {
  it('the follow-up recovers the sealed credit note the PAC stamped: one UUID, one stamp, one mail', async () => {
    const { number } = await invoiced('Gabriela');
    const base = createInvoicingContext(t.app.config, t.db);
    const pac = losingAnswerOnce(base.pac);
    const ctx = { ...base, pac };
    await expect(
      issueCreditNote(ctx, number, { amountCents: 20_000, description: 'Devolución parcial' }),
    ).rejects.toThrow(/terminó tras el timbrado/);
    const kindE = () =>
      t.db
        .select()
        .from(invoices)
        .where(and(eq(invoices.orderNumber, number), eq(invoices.kind, 'E')));
    const [left] = await kindE();
    expect(left).toMatchObject({ status: 'pending', uuid: null });
    expect(left?.sealed?.xml).toContain('TipoDeComprobante="E"');
    // The amount stays reserved meanwhile: nothing more than the invoice total can be credited.
    expect((await admin(`/api/admin/invoices/${number}/credit-notes`)).json()).toMatchObject({
      remainingCents: 88_849 - 20_000,
      items: [{ uuid: null, status: 'pending', totalCents: 20_000 }],
    });

    expect(await followUpCancellations(ctx)).toMatchObject({ recovered: 1 });
    const rows = await kindE();
    expect(rows.map((r) => [r.status, r.uuid])).toEqual([['issued', pac.stamped[0]]]);
    expect(new Set(pac.stamped)).toEqual(new Set([pac.stamped[0]]));
    expect(await validateCfdiXml(rows[0]!.xml!)).toEqual({ valid: true, errors: [] });
    const mails = await t.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.dedupeKey, `credit-note-issued:${pac.stamped[0]}`));
    expect(mails).toHaveLength(1);
  });

  it('the next credit-note request recovers it instead of stamping another', async () => {
    const { number } = await invoiced('Helena');
    const base = createInvoicingContext(t.app.config, t.db);
    const pac = losingAnswerOnce(base.pac);
    await expect(
      issueCreditNote({ ...base, pac }, number, { amountCents: 5_000, description: 'Descuento posterior' }),
    ).rejects.toThrow(/terminó tras el timbrado/);
    const again = await issueCreditNote({ ...base, pac }, number, {
      amountCents: 5_000,
      description: 'Descuento posterior',
    });
    expect(again).toMatchObject({ recovered: true, uuid: pac.stamped[0], remainingCents: 88_849 - 5_000 });
    // The PAC was asked again for the same sealed document and answered the same stamp: one credit note.
    expect(new Set(pac.stamped)).toEqual(new Set([pac.stamped[0]]));
    const notes = await t.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.orderNumber, number), eq(invoices.kind, 'E')));
    expect(notes.map((r) => [r.status, r.uuid])).toEqual([['issued', pac.stamped[0]]]);
  });
});

describe('the shopper downloads credit notes beside the invoice', () => {
  it('lists them in the invoice state; XML and PDF for the owner, 404 for another shopper', async () => {
    const shopper = await createTestShopper(t.db, 'Fernanda');
    const number = await createTestOrder(t.db, shopper.id);
    const issued = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${number}/invoice`,
      cookies: shopper.cookie,
      payload: form,
    });
    expect(issued.statusCode).toBe(201);
    const invoiceUuid = issued.json().invoice.uuid as string;
    expect(issued.json().invoice.creditNotes).toEqual([]);
    const note = await creditNote(number, { amount: '100.00', description: 'Descuento por empaque dañado' });
    expect(note.statusCode).toBe(201);
    const noteUuid = note.json().uuid as string;

    const state = await t.app.inject({ url: `/api/orders/${number}/invoice`, cookies: shopper.cookie });
    expect(state.json().creditNotes).toEqual([
      {
        uuid: noteUuid,
        serieFolio: expect.stringMatching(/^NC\d+$/),
        invoiceUuid,
        totalCents: 10_000,
        issuedAt: expect.any(String),
        status: 'issued',
      },
    ]);

    const xml = await t.app.inject({
      url: `/api/orders/${number}/credit-notes/${noteUuid}.xml`,
      cookies: shopper.cookie,
    });
    expect(xml.statusCode).toBe(200);
    expect(xml.headers['content-disposition']).toMatch(/attachment; filename="nota-credito-NC\d+-/);
    expect(readAttribute(xml.body, 'cfdi:Comprobante', 'TipoDeComprobante')).toBe('E');
    expect(readAttribute(xml.body, 'tfd:TimbreFiscalDigital', 'UUID')).toBe(noteUuid);
    const pdf = await t.app.inject({
      url: `/api/orders/${number}/credit-notes/${noteUuid}.pdf`,
      cookies: shopper.cookie,
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdfText(pdf.rawPayload)).toContain('NOTA DE CRÉDITO');

    // Another shopper, the invoice's UUID (not a credit note), a signed-out visitor: nothing is served.
    const other = await createTestShopper(t.db, 'Gabriela');
    for (const kind of ['xml', 'pdf']) {
      const res = await t.app.inject({
        url: `/api/orders/${number}/credit-notes/${noteUuid}.${kind}`,
        cookies: other.cookie,
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe('Pedido no encontrado');
    }
    const invoiceAsNote = await t.app.inject({
      url: `/api/orders/${number}/credit-notes/${invoiceUuid}.xml`,
      cookies: shopper.cookie,
    });
    expect(invoiceAsNote.statusCode).toBe(404);
    expect(
      (await t.app.inject({ url: `/api/orders/${number}/credit-notes/${noteUuid}.xml` })).statusCode,
    ).toBe(401);
    const bad = await t.app.inject({
      url: `/api/orders/${number}/credit-notes/no-es-un-uuid.xml`,
      cookies: shopper.cookie,
    });
    expect(bad.statusCode).toBe(400);
  });
});
