import { eq } from 'drizzle-orm';
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
import { createInvoicingContext } from './context.ts';
import { issueInvoice } from './issue.ts';
import { readAttribute } from './pac/tfd.ts';
import { type Pac, PacError } from './pac/types.ts';

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

/** Serie + Folio as the accountant reads them on the stamped XML. */
const serieFolio = (xml: string) =>
  `${readAttribute(xml, 'cfdi:Comprobante', 'Serie')}${readAttribute(xml, 'cfdi:Comprobante', 'Folio')}`;

async function invoice(name: string) {
  const shopper = await createTestShopper(t.db, name);
  const number = await createTestOrder(t.db, shopper.id);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/orders/${number}/invoice`,
    cookies: shopper.cookie,
    payload: form,
  });
  expect(res.statusCode).toBe(201);
  const [row] = await t.db.select().from(invoices).where(eq(invoices.uuid, res.json().invoice.uuid));
  return { shopper, number, xml: row!.xml! };
}

async function creditNote(number: number) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/admin/invoices/${number}/credit-notes`,
    headers: { cookie: staff.cookie },
    payload: { amount: '10.00', description: 'Descuento por pronto pago' },
  });
  expect(res.statusCode).toBe(201);
  const [row] = await t.db.select().from(invoices).where(eq(invoices.uuid, res.json().uuid));
  return row!.xml!;
}

const folioOf = (xml: string) => Number(readAttribute(xml, 'cfdi:Comprobante', 'Folio'));

describe('folios: one gap-free series per document type (decision 047)', () => {
  it('the first credit note is NC1, and invoices stay F1, F2, F3 with credit notes in between', async () => {
    const first = await invoice('Fernanda');
    expect(serieFolio(first.xml)).toBe('F1');
    const note = await creditNote(first.number);
    expect(serieFolio(note)).toBe('NC1');
    expect(await validateCfdiXml(note)).toEqual({ valid: true, errors: [] });
    const second = await invoice('Gerardo');
    expect(serieFolio(second.xml)).toBe('F2');
    expect(serieFolio(await creditNote(second.number))).toBe('NC2');
    expect(serieFolio(await creditNote(first.number))).toBe('NC3');
    const third = await invoice('Hilda');
    expect(serieFolio(third.xml)).toBe('F3');
    expect(await validateCfdiXml(third.xml)).toEqual({ valid: true, errors: [] });

    // The credit notes' list and the invoice state name them by their own series.
    const list = await t.app.inject({
      url: `/api/admin/invoices/${first.number}/credit-notes`,
      headers: { cookie: staff.cookie },
    });
    expect(list.json().items.map((i: { serieFolio: string }) => i.serieFolio)).toEqual(['NC3', 'NC1']);
  });

  it('invoices and credit notes issued at the same time get distinct consecutive folios in each series', async () => {
    const invoicedBefore = await invoice('Ignacio');
    const before = folioOf(invoicedBefore.xml);
    // A credit note between two invoices takes nothing from the invoices' series.
    await creditNote(invoicedBefore.number);
    const shoppers = await Promise.all(
      ['Julia', 'Karla', 'Luis', 'Mario', 'Nora'].map((n) => createTestShopper(t.db, n)),
    );
    const orders = await Promise.all(shoppers.map((s) => createTestOrder(t.db, s.id)));
    const [results] = await Promise.all([
      Promise.all(
        orders.map((number, i) =>
          t.app.inject({
            method: 'POST',
            url: `/api/orders/${number}/invoice`,
            cookies: shoppers[i]!.cookie,
            payload: form,
          }),
        ),
      ),
      creditNote(invoicedBefore.number),
      creditNote(invoicedBefore.number),
    ]);
    const uuids = results.map((r) => {
      expect(r.statusCode).toBe(201);
      return r.json().invoice.uuid as string;
    });
    const rows = await t.db.select().from(invoices);
    const folios = rows.filter((r) => uuids.includes(r.uuid ?? '')).map((r) => folioOf(r.xml!));
    expect(folios.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5].map((n) => before + n));
  });

  it('a CFDI the PAC refuses gives its folio back: the next invoice takes it, no gap', async () => {
    const base = createInvoicingContext(t.app.config, t.db);
    let refuse = true;
    const pac: Pac = {
      ...base.pac,
      name: base.pac.name,
      cancel: (r) => base.pac.cancel(r),
      cancellationStatus: (r) => base.pac.cancellationStatus(r),
      stamp: async (xml) => {
        if (refuse) {
          refuse = false;
          throw new PacError('El código postal del receptor no corresponde (CFDI40147)', 'CFDI40147', false);
        }
        return base.pac.stamp(xml);
      },
    };
    const shopper = await createTestShopper(t.db, 'Olga');
    const user = {
      ...shopper,
      role: 'customer' as const,
      apellidoPat: 'López',
      apellidoMat: 'Ruiz',
      telefono: '3312345678',
    };
    const refused = await createTestOrder(t.db, shopper.id);
    const last = await invoice('Pablo');
    await expect(issueInvoice({ ...base, pac }, user, refused, form)).rejects.toMatchObject({
      statusCode: 502,
    });
    const next = await invoice('Quetzalli');
    expect(folioOf(next.xml)).toBe(folioOf(last.xml) + 1);
  });
});
