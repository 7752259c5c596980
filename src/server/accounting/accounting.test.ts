import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createInstitution,
  joinAndBuyFor,
  placeOnCredit,
  shipAndInvoiceOnCredit,
} from '../../../tests/server/support/credit.ts';
import {
  createTestOrder,
  createTestShopper,
  type TestShopper,
} from '../../../tests/server/support/invoice-orders.ts';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  createStaff,
  productWithStock,
  type Shopper,
} from '../../../tests/server/support/staff.ts';
import { unzip } from '../../../tests/server/support/unzip.ts';
import { mexicoCityDate, mexicoMonth, previousMexicoMonth } from '../../shared/mexico-time.ts';
import { xlsxToText } from '../cart/xlsx.ts';
import { creditPayments, globalInvoices, invoices } from '../db/schema.ts';
import { createInvoicingContext } from '../invoices/context.ts';
import { issueGlobalInvoice } from '../invoices/global.ts';
import { balancesOf } from '../orders/ledger.ts';

/**
 * The accountant's month (issue 36, decision 066): the ZIP of a period holds exactly the documents stamped in it —
 * one at 23:59 of its last day is in, one at 00:00 of the next day is out, in Mexico City — of each type, XML and PDF
 * each, and the report; the CSV says what the CFDI says; the XLSX opens with the same rows; the report's ingresos
 * minus egresos per order equal what the order's ledger says was invoiced and credited.
 */
let t: CheckoutTestApp;
let staff: Shopper;
let shopper: TestShopper;

/** Three months back: a month certainly closed, with no other test's documents in it. */
const period = (() => {
  let p = previousMexicoMonth(new Date());
  for (let i = 0; i < 2; i++) p = previousMexicoMonth(mexicoMonth(p.year, p.month).start);
  return p;
})();
const month = `${period.year}-${String(period.month).padStart(2, '0')}`;
const { start, end } = mexicoMonth(period.year, period.month);
const DAY = 86_400_000;
const lastDay = mexicoCityDate(new Date(end.getTime() - 1));

const form = {
  nombreFiscal: 'Laboratorios Químicos del Bajío',
  rfc: 'LQB150101AB3',
  regimenFiscal: '601',
  usoCfdi: 'G03',
  cp: '44100',
};

type Doc = { type: string; base: string; uuid: string; pdf: boolean };
const docs: Record<string, Doc> = {};
let order1 = 0;
let cancelledOrder = 0;

async function invoiceOrder(number: number): Promise<typeof invoices.$inferSelect> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/orders/${number}/invoice`,
    cookies: shopper.cookie,
    payload: form,
  });
  expect(res.statusCode, res.body).toBe(201);
  const [row] = await t.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderNumber, number), eq(invoices.kind, 'I')));
  return row!;
}
const stampedAt = (id: number, at: Date) =>
  t.db.update(invoices).set({ issuedAt: at }).where(eq(invoices.id, id));
const nameOf = (type: string, row: { serie: string | null; folio: number | null; uuid: string | null }) =>
  `${type}/${row.serie}${row.folio}-${row.uuid}`;

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: staff.cookie } });

beforeAll(async () => {
  t = await createCheckoutApp();
  staff = await createStaff(t);
  shopper = await createTestShopper(t.db, 'Rebeca');
  const ctx = createInvoicingContext(t.app.config, t.db);

  // Ingreso stamped at 23:59 of the period's last day (in) and its egreso at 00:00 of its first day (in).
  order1 = await createTestOrder(t.db, shopper.id);
  const i1 = await invoiceOrder(order1);
  await stampedAt(i1.id, new Date(end.getTime() - 60_000));
  docs.i1 = { type: 'ingreso', base: nameOf('ingreso', i1), uuid: i1.uuid!, pdf: true };
  const note = await t.app.inject({
    method: 'POST',
    url: `/api/admin/invoices/${order1}/credit-notes`,
    headers: { cookie: staff.cookie },
    payload: { amount: '100.00', description: 'Descuento por pronto pago' },
  });
  expect(note.statusCode, note.body).toBe(201);
  const [e1] = await t.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderNumber, order1), eq(invoices.kind, 'E')));
  await stampedAt(e1!.id, start);
  docs.e1 = { type: 'egreso', base: nameOf('egreso', e1!), uuid: e1!.uuid!, pdf: true };

  // Ingresos at 00:00 of the next month and at 23:59:59 of the month before: out.
  const i2 = await invoiceOrder(await createTestOrder(t.db, shopper.id));
  await stampedAt(i2.id, end);
  docs.i2 = { type: 'ingreso', base: nameOf('ingreso', i2), uuid: i2.uuid!, pdf: true };
  const i3 = await invoiceOrder(await createTestOrder(t.db, shopper.id));
  await stampedAt(i3.id, new Date(start.getTime() - 1000));
  docs.i3 = { type: 'ingreso', base: nameOf('ingreso', i3), uuid: i3.uuid!, pdf: true };

  // An ingreso of the period cancelled since (motivo 02): in the ZIP and the report, «Cancelado».
  cancelledOrder = await createTestOrder(t.db, shopper.id);
  const ix = await invoiceOrder(cancelledOrder);
  await stampedAt(ix.id, new Date(start.getTime() + 2 * DAY));
  const cancelled = await t.app.inject({
    method: 'POST',
    url: `/api/admin/invoices/${cancelledOrder}/cancel`,
    headers: { cookie: staff.cookie },
    payload: { motivo: '02' },
  });
  expect(cancelled.statusCode, cancelled.body).toBe(200);
  const [after] = await t.db.select().from(invoices).where(eq(invoices.id, ix.id));
  expect(after?.status).toBe('cancelled');
  docs.x = { type: 'ingreso', base: nameOf('ingreso', ix), uuid: ix.uuid!, pdf: true };

  // The factura global of the period's uninvoiced sale, stamped the day after the month closed: the period's all
  // the same (it covers that month).
  await createTestOrder(t.db, shopper.id, { paidAt: new Date(start.getTime() + 9 * DAY) });
  const global = await issueGlobalInvoice(ctx, period, 'staff', { confirmLate: true });
  await t.db
    .update(globalInvoices)
    .set({ issuedAt: new Date(end.getTime() + DAY) })
    .where(eq(globalInvoices.id, global.id));
  docs.g = { type: 'global', base: `global/GLOBAL-${month}-${global.uuid}`, uuid: global.uuid!, pdf: false };

  // A sale on credit: its invoice PPD and the CFDI de pago of the transfer that paid it, both in the period.
  const institution = await createInstitution(t);
  const buyer = await createShopper(t);
  await joinAndBuyFor(t, buyer, institution.id);
  const product = await productWithStock(t, 20, 4);
  const placed = await placeOnCredit(t, buyer, [{ code: product.code, quantity: 2 }]);
  expect(placed.statusCode, placed.body).toBe(201);
  const creditOrder = (placed.json() as { number: number }).number;
  const ppd = await shipAndInvoiceOnCredit(t, staff, creditOrder);
  await stampedAt(ppd.id, new Date(start.getTime() + 3 * DAY));
  docs.ppd = { type: 'ingreso', base: nameOf('ingreso', ppd), uuid: ppd.uuid!, pdf: true };
  const paid = await t.app.inject({
    method: 'POST',
    url: '/api/admin/credit/payments',
    headers: { cookie: staff.cookie },
    payload: {
      institutionId: institution.id,
      receivedOn: mexicoCityDate(new Date()),
      amountCents: ppd.totalCents,
      bankReference: `SPEI-CONTA-${creditOrder}`,
      allocations: [{ invoiceId: ppd.id, amountCents: ppd.totalCents }],
    },
  });
  expect(paid.statusCode, paid.body).toBe(201);
  const [payment] = await t.db
    .select()
    .from(creditPayments)
    .where(eq(creditPayments.id, (paid.json() as { paymentId: number }).paymentId));
  expect(payment?.cfdiStatus).toBe('issued');
  await t.db
    .update(creditPayments)
    .set({ issuedAt: new Date(start.getTime() + 4 * DAY) })
    .where(eq(creditPayments.id, payment!.id));
  docs.p = { type: 'pago', base: nameOf('pago', payment!), uuid: payment!.uuid!, pdf: true };
}, 120_000);
afterAll(() => t.close());

const filesOf = (...keys: string[]) =>
  keys.flatMap((k) => {
    const d = docs[k]!;
    return d.pdf ? [`${d.base}.xml`, `${d.base}.pdf`] : [`${d.base}.xml`];
  });
const reportFiles = [`reporte-cfdi_${month}.csv`, `reporte-cfdi_${month}.xlsx`];

describe('the ZIP of a period', () => {
  it('holds exactly the documents stamped in the period, in Mexico City time, of every type, XML and PDF each', async () => {
    const res = await get(`/api/admin/accounting/cfdi.zip?month=${month}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="cfdi_${month}.zip"`);
    const files = unzip(res.rawPayload);
    expect([...files.keys()].sort()).toEqual(
      [...reportFiles, ...filesOf('i1', 'e1', 'x', 'g', 'ppd', 'p')].sort(),
    );
    // The XML as the PAC returned it; a real PDF beside it.
    const [i1] = await t.db.select().from(invoices).where(eq(invoices.uuid, docs.i1!.uuid));
    expect(files.get(`${docs.i1!.base}.xml`)!.toString('utf8')).toBe(i1!.xml);
    expect(files.get(`${docs.p!.base}.pdf`)!.subarray(0, 5).toString()).toBe('%PDF-');
    // The report inside is the period's.
    const csv = files.get(reportFiles[0]!)!.toString('utf8');
    expect(csv).toContain(docs.i1!.uuid);
    expect(csv).not.toContain(docs.i2!.uuid);
  });

  it('filters by type; the neighbouring months hold the documents left out', async () => {
    const egresos = unzip(
      (await get(`/api/admin/accounting/cfdi.zip?month=${month}&types=egreso`)).rawPayload,
    );
    expect([...egresos.keys()].sort()).toEqual([...reportFiles, ...filesOf('e1')].sort());
    const pagosYGlobal = unzip(
      (await get(`/api/admin/accounting/cfdi.zip?month=${month}&types=pago,global`)).rawPayload,
    );
    expect([...pagosYGlobal.keys()].sort()).toEqual([...reportFiles, ...filesOf('g', 'p')].sort());
    const next = previousMexicoMonth(new Date(end.getTime() + 40 * DAY));
    const nextMonth = `${next.year}-${String(next.month).padStart(2, '0')}`;
    const after = unzip((await get(`/api/admin/accounting/cfdi.zip?month=${nextMonth}`)).rawPayload);
    expect([...after.keys()].filter((n) => n.includes('/'))).toEqual(filesOf('i2'));
    // A range of days: the last day of the month before through the first of the period — and the global of the
    // month the range touches.
    const before = mexicoCityDate(new Date(start.getTime() - 1000));
    const range = unzip(
      (await get(`/api/admin/accounting/cfdi.zip?from=${before}&to=${mexicoCityDate(start)}`)).rawPayload,
    );
    expect([...range.keys()].filter((n) => n.includes('/')).sort()).toEqual(filesOf('i3', 'e1', 'g').sort());
  });

  it('refuses a bad period with a Spanish message', async () => {
    for (const [query, message] of [
      ['', /mes .*o las fechas/],
      ['month=2026-13', /AAAA-MM/],
      [`month=${month}&from=2026-01-01&to=2026-01-02`, /no ambos/],
      ['from=2026-02-10&to=2026-02-01', /anterior a la inicial/],
      ['from=2025-01-01&to=2026-06-01', /hasta 366 días/],
      [`month=${month}&types=ingreso,nomina`, /desconocido: nomina/],
    ] as const) {
      const res = await get(`/api/admin/accounting/cfdi.zip?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.message, query).toMatch(message);
    }
  });
});

const csvRows = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean)
    .map((line) => line.split(','));

describe('the report', () => {
  it('CSV: one row per document with the CFDI’s values', async () => {
    const res = await get(`/api/admin/accounting/report.csv?month=${month}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = csvRows(res.body);
    expect(rows[0]).toEqual([
      'Tipo',
      'Serie y folio',
      'UUID',
      'Fecha (Ciudad de México)',
      'RFC receptor',
      'Receptor',
      'Subtotal',
      'IVA',
      'Total',
      'Forma de pago',
      'Método de pago',
      'Estado SAT',
      'Tipo de relación',
      'CFDI relacionados',
      'Pedidos',
    ]);
    expect(rows.slice(1).map((r) => r[2])).toEqual(
      [docs.e1, docs.x, docs.ppd, docs.p, docs.i1, docs.g].map((d) => d!.uuid),
    );
    const [i1] = await t.db.select().from(invoices).where(eq(invoices.uuid, docs.i1!.uuid));
    const decimal = (c: number) => (c / 100).toFixed(2);
    expect(rows.find((r) => r[2] === docs.i1!.uuid)).toEqual([
      'Ingreso (facturas)',
      `${i1!.serie}${i1!.folio}`,
      docs.i1!.uuid,
      `${lastDay} 23:59:00`,
      'LQB150101AB3',
      'Laboratorios Químicos del Bajío',
      decimal(i1!.subtotalCents),
      decimal(i1!.ivaCents),
      '888.49',
      i1!.formaPago,
      'PUE',
      'Vigente',
      '',
      '',
      String(order1),
    ]);
    const e1 = rows.find((r) => r[2] === docs.e1!.uuid)!;
    expect(e1.slice(8)).toEqual([
      '100.00',
      i1!.formaPago,
      'PUE',
      'Vigente',
      '01',
      docs.i1!.uuid,
      String(order1),
    ]);
    expect(e1[3]).toBe(`${month}-01 00:00:00`);
    expect(rows.find((r) => r[2] === docs.x!.uuid)![11]).toBe('Cancelado');
    const global = rows.find((r) => r[2] === docs.g!.uuid)!;
    expect(global.slice(4, 6)).toEqual(['XAXX010101000', 'PUBLICO EN GENERAL']);
    const pago = rows.find((r) => r[2] === docs.p!.uuid)!;
    expect(pago.slice(12, 14)).toEqual(['pago', docs.ppd!.uuid]);
  });

  it('XLSX: opens as a workbook with the same rows as the CSV', async () => {
    const csv = csvRows((await get(`/api/admin/accounting/report.csv?month=${month}`)).body);
    const res = await get(`/api/admin/accounting/report.xlsx?month=${month}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const sheet = xlsxToText(res.rawPayload)
      .text.split('\n')
      .filter(Boolean)
      .map((line) => line.split('\t'));
    // The sheet's amounts are numbers ('100' is 100.00, shown #,##0.00); the CSV writes them with two decimals.
    const same = (rows: string[][]) =>
      rows.map((r) =>
        r
          .map((cell) => (/^\d+\.\d+$/.test(cell) ? String(Number(cell)) : cell))
          .join('|')
          .replace(/\|+$/, ''),
      );
    expect(same(sheet)).toEqual(same(csv));
    expect(sheet).toHaveLength(7);
  });

  it('reconciles to the ledger: per order, live ingresos − egresos = invoiced − credited', async () => {
    const res = await get(`/api/admin/accounting/summary?month=${month}`);
    expect(res.statusCode, res.body).toBe(200);
    const summary = res.json();
    const row = summary.reconciliation.rows.find((r: { orderNumber: number }) => r.orderNumber === order1);
    const ledger = await balancesOf(t.db, order1);
    expect(row).toMatchObject({
      cfdiNetCents: 88_849 - 10_000,
      ledgerNetCents: ledger.invoicedCents - ledger.creditedCents,
      matches: true,
    });
    expect(ledger.invoicedCents - ledger.creditedCents).toBe(88_849 - 10_000);
    expect(summary.reconciliation.mismatches).toBe(0);
    // The cancelled invoice: nothing live on either side.
    expect(
      summary.reconciliation.rows.find((r: { orderNumber: number }) => r.orderNumber === cancelledOrder),
    ).toMatchObject({ cfdiNetCents: 0, ledgerNetCents: 0, matches: true });
    // Its type's totals leave it out and count it apart.
    const ingresos = summary.byType.find((b: { type: string }) => b.type === 'ingreso');
    expect(ingresos).toMatchObject({ count: 3, cancelled: 1 });
    expect(summary.byType.find((b: { type: string }) => b.type === 'egreso')).toMatchObject({
      count: 1,
      totalCents: 10_000,
    });
    expect(summary.globals).toEqual([
      expect.objectContaining({ uuid: docs.g!.uuid, status: 'issued', statusLabel: 'Vigente', orders: 1 }),
    ]);
    // A paper the ledger does not know of is a mismatch.
    await t.db.execute(sql`update invoices set status = 'cancelled' where uuid = ${docs.e1!.uuid}`);
    const after = (await get(`/api/admin/accounting/summary?month=${month}`)).json();
    expect(after.reconciliation.mismatches).toBe(1);
    await t.db.execute(sql`update invoices set status = 'issued' where uuid = ${docs.e1!.uuid}`);
  });
});
