import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateCfdiXml } from '../../../tests/server/support/cfdi-xsd.ts';
import {
  createTestOrder,
  createTestShopper,
  setPaidAt,
  type TestShopper,
} from '../../../tests/server/support/invoice-orders.ts';
import { createTestApp, type TestApp } from '../../../tests/server/support/test-app.ts';
import { GENERIC_RFC_MESSAGE, type InvoiceState } from '../../shared/schemas/invoice.ts';
import { invoices, mailOutbox, payments, products } from '../db/schema.ts';
import { readAttribute } from './pac/tfd.ts';

let t: TestApp;
let ana: TestShopper;
let beto: TestShopper;

const form = {
  nombreFiscal: 'Laboratorios Químicos del Bajío',
  rfc: 'lqb150101ab3',
  regimenFiscal: '601',
  usoCfdi: 'G03',
  formaPago: '04',
  cp: '44100',
};

beforeAll(async () => {
  t = await createTestApp({ seedProducts: 3 });
  ana = await createTestShopper(t.database.db, 'Ana');
  beto = await createTestShopper(t.database.db, 'Beto');
});
afterAll(async () => {
  await t.close();
});

const request = (who: TestShopper | null, number: number, payload: object = form) =>
  t.app.inject({
    method: 'POST',
    url: `/api/orders/${number}/invoice`,
    payload,
    ...(who ? { cookies: who.cookie } : {}),
  });
const cancel = (who: TestShopper, number: number) =>
  t.app.inject({ method: 'POST', url: `/api/orders/${number}/invoice/cancel`, cookies: who.cookie });
const state = async (who: TestShopper, number: number) =>
  (await t.app.inject({ url: `/api/orders/${number}/invoice`, cookies: who.cookie })).json<InvoiceState>();
const rowsOf = (number: number) =>
  t.database.db.select().from(invoices).where(eq(invoices.orderNumber, number)).orderBy(invoices.id);

describe('POST /api/orders/:number/invoice', () => {
  it('issues a stamped CFDI for the owner: XML, PDF, state and the mail with both attached', async () => {
    const db = t.database.db;
    const [product] = await db.select({ code: products.code }).from(products).limit(1);
    await db
      .update(products)
      .set({ satProductKey: '41121800', satUnitKey: 'XBX' })
      .where(eq(products.code, product!.code));
    const number = await createTestOrder(db, ana.id, {
      lines: [
        { code: product!.code, description: 'Matraz Erlenmeyer 500 mL', unitPriceCents: 24_990, quantity: 2 },
        {
          code: 'SIN-CATALOGO',
          description: 'Papel filtro Whatman n.º 1 (100 pzs)',
          unitPriceCents: 41_333,
          quantity: 1,
        },
      ],
      shippingCents: 33_000,
    });
    const before = await state(ana, number);
    expect(before).toMatchObject({ state: 'none', uuid: null, canRequest: true, blockedReason: null });

    const res = await request(ana, number);
    expect(res.statusCode).toBe(201);
    const body = res.json<{ message: string; invoice: InvoiceState }>();
    expect(body.message).toBe(
      `Factura generada correctamente. La enviamos a ${ana.email} con el XML y el PDF.`,
    );
    expect(body.invoice).toMatchObject({
      state: 'issued',
      test: true,
      rfc: 'LQB150101AB3',
      canRequest: false,
    });
    expect(body.invoice.uuid).toMatch(/^[0-9A-F-]{36}$/);
    expect(await state(ana, number)).toEqual(body.invoice);

    const xmlRes = await t.app.inject({ url: `/api/orders/${number}/invoice.xml`, cookies: ana.cookie });
    expect(xmlRes.statusCode).toBe(200);
    expect(xmlRes.headers['content-type']).toMatch(/^application\/xml/);
    expect(xmlRes.headers['content-disposition']).toMatch(
      /^attachment; filename="factura-F\d+-[0-9A-F-]{36}\.xml"$/,
    );
    const xml = xmlRes.body;
    expect(await validateCfdiXml(xml)).toEqual({ valid: true, errors: [] });
    // Total to the centavo: 2 × 249.90 + 413.33 + 330.00 = 1,243.13.
    expect(readAttribute(xml, 'cfdi:Comprobante', 'Total')).toBe('1243.13');
    expect(readAttribute(xml, 'cfdi:Comprobante', 'FormaPago')).toBe('04');
    expect(readAttribute(xml, 'cfdi:Emisor', 'Rfc')).toBe('EKU9003173C9');
    expect(readAttribute(xml, 'cfdi:Receptor', 'Rfc')).toBe('LQB150101AB3');
    expect(readAttribute(xml, 'cfdi:Receptor', 'Nombre')).toBe('LABORATORIOS QUÍMICOS DEL BAJÍO');
    expect(readAttribute(xml, 'cfdi:Receptor', 'DomicilioFiscalReceptor')).toBe('44100');
    expect(readAttribute(xml, 'tfd:TimbreFiscalDigital', 'UUID')).toBe(body.invoice.uuid);
    // Product keys from the product, the config defaults otherwise, shipping as a service.
    const keys = [...xml.matchAll(/ClaveProdServ="(\d+)"[^>]*ClaveUnidad="(\w+)"/g)].map(
      (m) => `${m[1]}/${m[2]}`,
    );
    expect(keys).toEqual(['41121800/XBX', '41116500/H87', '78102203/E48']);

    const pdfRes = await t.app.inject({ url: `/api/orders/${number}/invoice.pdf`, cookies: ana.cookie });
    expect(pdfRes.statusCode).toBe(200);
    expect(pdfRes.headers['content-type']).toBe('application/pdf');
    expect(pdfRes.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const mails = await db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'invoice-issued'));
    const mail = mails.find((m) => m.to === ana.email);
    expect(mail?.subject).toBe(`Su factura del pedido #${number}`);
    expect(mail?.attachments.map((a) => a.contentType)).toEqual(['application/xml', 'application/pdf']);
    expect(Buffer.from(mail!.attachments[0]!.contentBase64, 'base64').toString('utf8')).toBe(xml);
    expect(mail?.text).toContain(body.invoice.uuid!);

    // The receipt's 'Facturar a' is the CFDI's receptor, not the account holder (issue 37, item 4).
    const order = (await t.app.inject({ url: `/api/orders/${number}`, cookies: ana.cookie })).json();
    expect(order.invoiceState).toBe('issued');
    expect(`${order.billingName} · ${order.billingNumber}`).toBe(
      'LABORATORIOS QUÍMICOS DEL BAJÍO · RFC LQB150101AB3',
    );
  });

  it('answers 404 for another shopper’s order and for a missing one; nothing is issued', async () => {
    const number = await createTestOrder(t.database.db, ana.id);
    for (const res of [await request(beto, number), await request(beto, 999_999)]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe('Pedido no encontrado');
    }
    for (const path of ['invoice', 'invoice.xml', 'invoice.pdf']) {
      expect(
        (await t.app.inject({ url: `/api/orders/${number}/${path}`, cookies: beto.cookie })).statusCode,
      ).toBe(404);
    }
    expect((await cancel(beto, number)).statusCode).toBe(404);
    expect(await rowsOf(number)).toEqual([]);
  });

  it('requires a session', async () => {
    const number = await createTestOrder(t.database.db, ana.id);
    const res = await request(null, number);
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toBe('Inicie sesión para continuar');
  });

  it.each([
    ['pending_payment', 'El pedido aún no está pagado; podrá facturarlo cuando se confirme el pago'],
    ['payment_failed', 'El pedido aún no está pagado; podrá facturarlo cuando se confirme el pago'],
    ['cancelled', 'El pedido está cancelado; no se puede facturar'],
  ] as const)('refuses a %s order with 409 and its reason', async (status, message) => {
    const number = await createTestOrder(t.database.db, ana.id, {
      status,
      paidAt: status === 'cancelled' ? new Date() : null,
    });
    const res = await request(ana, number);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(message);
    expect(await state(ana, number)).toMatchObject({ canRequest: false, blockedReason: message });
    expect(await rowsOf(number)).toEqual([]);
  });

  it.each(['preparing', 'shipped', 'delivered'] as const)('invoices a %s order', async (status) => {
    const number = await createTestOrder(t.database.db, ana.id, { status });
    expect((await request(ana, number)).statusCode).toBe(201);
  });

  it('allows 30 days from payment and not a minute more', async () => {
    const db = t.database.db;
    const DAY = 24 * 60 * 60 * 1000;
    const inside = await createTestOrder(db, ana.id);
    await setPaidAt(db, inside, new Date(Date.now() - 30 * DAY + 60_000));
    expect((await request(ana, inside)).statusCode).toBe(201);

    const late = await createTestOrder(db, ana.id);
    await setPaidAt(db, late, new Date(Date.now() - 30 * DAY - 60_000));
    const res = await request(ana, late);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toMatch(
      /^El plazo para facturar este pedido \(30 días desde el pago\) terminó el \d+ de \w+ de \d{4}$/,
    );
    expect(await rowsOf(late)).toEqual([]);
  });

  it('keeps one active invoice per order, even for two requests at the same time', async () => {
    const number = await createTestOrder(t.database.db, ana.id);
    const [a, b] = await Promise.all([request(ana, number), request(ana, number)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const again = await request(ana, number);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(
      'Este pedido ya tiene una factura vigente; cancélela para solicitar otra',
    );
    expect((await rowsOf(number)).map((r) => r.status)).toEqual(['issued']);
  });

  it.each([
    [{ ...form, rfc: 'XAXX010101000' }, 'rfc', GENERIC_RFC_MESSAGE],
    [
      { ...form, rfc: 'GODE561231GR8' },
      'regimenFiscal',
      'El régimen 601 es para personas morales (RFC de 12 caracteres); revise el régimen o el RFC',
    ],
    [
      { ...form, usoCfdi: 'D01' },
      'usoCfdi',
      'El uso D01 (Honorarios médicos, dentales y gastos hospitalarios) no aplica a la compra de material de laboratorio',
    ],
    [
      { ...form, usoCfdi: 'CP01' },
      'usoCfdi',
      'El uso CP01 (Pagos) no aplica a la compra de material de laboratorio',
    ],
    [
      { ...form, usoCfdi: 'G02' },
      'usoCfdi',
      'El uso G02 (Devoluciones, descuentos o bonificaciones) solo se usa en notas de crédito',
    ],
    [
      { ...form, rfc: 'LQB150101AB1' },
      'rfc',
      'El dígito verificador del RFC no coincide (el último carácter debería ser 3); revíselo en su Constancia de Situación Fiscal. Si su RFC es correcto tal como está, marque «Confirmo que mi RFC es correcto».',
    ],
    [
      { ...form, nombreFiscal: 'Laboratorios Químicos del Bajío, S.A. de C.V.' },
      'nombreFiscal',
      'Escriba la razón social sin el régimen de capital «S.A. de C.V.», tal como aparece en su Constancia de Situación Fiscal: «Laboratorios Químicos del Bajío»',
    ],
    [{ ...form, nombreFiscal: 'Corto' }, 'nombreFiscal', 'Escriba su nombre completo'],
    [{ ...form, rfc: 'ABC' }, 'rfc', 'Escriba un rfc válido'],
    [{ ...form, cp: '441' }, 'cp', 'El código postal debe tener 5 dígitos'],
    [{ ...form, formaPago: '01' }, 'formaPago', 'Seleccione una forma de pago de la lista'],
    [{ ...form, regimenFiscal: undefined }, 'regimenFiscal', 'No deje vacío este campo'],
  ])('refuses bad input with 400 and the field’s Spanish message (%#)', async (payload, field, message) => {
    const number = await createTestOrder(t.database.db, ana.id);
    const res = await request(ana, number, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields[field]).toBe(message);
    expect(await rowsOf(number)).toEqual([]);
  });
});

describe('FormaPago comes from the payment, not from the form', () => {
  const paidBy = async (number: number, method: string | null, cardType: string | null) => {
    const db = t.database.db;
    await db.insert(payments).values({
      orderNumber: number,
      gateway: 'openpay',
      chargeId: `tr-${number}-${method}-${cardType}`,
      status: 'completed',
      amountCents: 1,
    });
    await db.execute(
      sql`update payments set method = ${method}, card_type = ${cardType} where order_number = ${number}`,
    );
  };
  const formaPagoOf = async (number: number, payload: object) => {
    const res = await request(ana, number, payload);
    expect(res.statusCode).toBe(201);
    const xml = (await t.app.inject({ url: `/api/orders/${number}/invoice.xml`, cookies: ana.cookie })).body;
    expect(await validateCfdiXml(xml)).toEqual({ valid: true, errors: [] });
    return readAttribute(xml, 'cfdi:Comprobante', 'FormaPago');
  };

  it.each([
    ['card', 'debit', '04', '28'],
    ['card', 'prepaid', '04', '28'],
    ['card', 'credit', '28', '04'],
    ['bank_account', null, '04', '03'],
    ['store', null, '28', '01'],
    // A card whose type the gateway did not tell: 04 (decision 015), never 99 on a PUE invoice.
    ['card', null, '28', '04'],
  ])('paid by %s/%s, the shopper says %s → FormaPago %s', async (method, cardType, says, expected) => {
    const number = await createTestOrder(t.database.db, ana.id);
    await paidBy(number, method, cardType);
    expect(await formaPagoOf(number, { ...form, formaPago: says })).toBe(expected);
    const [row] = await rowsOf(number);
    expect(row?.formaPago).toBe(expected);
  });

  it('the form may leave FormaPago out', async () => {
    const number = await createTestOrder(t.database.db, ana.id);
    await paidBy(number, 'card', 'debit');
    const { formaPago: _, ...withoutFormaPago } = form;
    expect(await formaPagoOf(number, withoutFormaPago)).toBe('28');
  });
});

describe('POST /api/orders/:number/invoice/cancel', () => {
  it('cancels with motivo 02, keeps the record, and the order can be invoiced again', async () => {
    const db = t.database.db;
    const number = await createTestOrder(db, ana.id);
    const first = (await request(ana, number)).json<{ invoice: InvoiceState }>().invoice;

    const res = await cancel(ana, number);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(
      'Factura cancelada correctamente. Puede solicitar una nueva factura para este pedido.',
    );
    expect(res.json().invoice).toMatchObject({ state: 'cancelled', uuid: first.uuid, canRequest: true });
    const pdf = await t.app.inject({ url: `/api/orders/${number}/invoice.pdf`, cookies: ana.cookie });
    expect(pdf.statusCode).toBe(200);

    // A second 'Sí, cancelar factura' (double click, retry) answers with the state reached, as a success,
    // without asking the PAC again nor mailing twice.
    const again = await cancel(ana, number);
    expect(again.statusCode).toBe(200);
    expect(again.json().message).toBe(res.json().message);
    expect(again.json().invoice).toEqual(res.json().invoice);

    const second = await request(ana, number, {
      ...form,
      rfc: 'GODE561231GR8',
      regimenFiscal: '612',
      usoCfdi: 'G01',
    });
    expect(second.statusCode).toBe(201);
    const next = second.json<{ invoice: InvoiceState }>().invoice;
    expect(next.uuid).not.toBe(first.uuid);
    expect(next).toMatchObject({ state: 'issued', rfc: 'GODE561231GR8' });

    const rows = await rowsOf(number);
    expect(rows.map((r) => [r.status, r.uuid])).toEqual([
      ['cancelled', first.uuid],
      ['issued', next.uuid],
    ]);
    expect(rows[0]).toMatchObject({ cancelMotivo: '02' });
    expect(rows[0]?.cancelAcknowledgement).toContain('<Motivo>02</Motivo>');
    const xml = (await t.app.inject({ url: `/api/orders/${number}/invoice.xml`, cookies: ana.cookie })).body;
    expect(readAttribute(xml, 'tfd:TimbreFiscalDigital', 'UUID')).toBe(next.uuid);
    const cancelledMail = await db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.dedupeKey, `invoice-cancelled:${first.uuid}`));
    expect(cancelledMail).toHaveLength(1);
  });

  it('answers 409 when there is nothing to cancel and 404 for downloads without an invoice', async () => {
    const number = await createTestOrder(t.database.db, ana.id);
    expect((await cancel(ana, number)).statusCode).toBe(409);
    const xml = await t.app.inject({ url: `/api/orders/${number}/invoice.xml`, cookies: ana.cookie });
    expect(xml.statusCode).toBe(404);
    expect(xml.json().error.message).toBe('Este pedido no tiene factura');
  });
});
