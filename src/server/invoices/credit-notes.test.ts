import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateCfdiXml } from '../../../tests/server/support/cfdi-xsd.ts';
import { createTestOrder, createTestShopper } from '../../../tests/server/support/invoice-orders.ts';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createStaff,
  type Shopper,
} from '../../../tests/server/support/staff.ts';
import { invoices } from '../db/schema.ts';
import { readAttribute } from './pac/tfd.ts';

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
