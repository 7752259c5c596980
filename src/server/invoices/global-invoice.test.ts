import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateCfdiXml } from '../../../tests/server/support/cfdi-xsd.ts';
import { type CheckoutTestApp, createCheckoutApp } from '../../../tests/server/support/checkout.ts';
import {
  createTestOrder,
  createTestShopper,
  insertInvoiceRow,
  type TestShopper,
} from '../../../tests/server/support/invoice-orders.ts';
import { createStaff } from '../../../tests/server/support/staff.ts';
import { mexicoMonth, previousMexicoMonth } from '../../shared/mexico-time.ts';
import { createInvoicingContext } from './context.ts';
import { globalInvoiceJob, issueGlobalInvoice } from './global.ts';
import { readAttribute } from './pac/tfd.ts';
import { type Pac, PacError } from './pac/types.ts';

/**
 * The monthly CFDI global to the público en general (issue 21, decision 023): a closed month with a mix of orders —
 * invoiced individually, cancelled, refunded, unpaid, paid in another month, and uninvoiced — gives one CFDI with
 * exactly the uninvoiced paid ones, valid against SAT's CFDI 4.0 XSD; one per period, never an order twice (an order
 * in it invoiced individually later: global-release.test.ts).
 */
let t: CheckoutTestApp;
let staffCookie: string;
let shopper: TestShopper;
beforeAll(async () => {
  t = await createCheckoutApp();
  staffCookie = (await createStaff(t)).cookie;
  shopper = await createTestShopper(t.db, 'Gloria');
});
afterAll(() => t.close());

/** Three months back: a month certainly closed, and no other test's orders in it. */
const period = (() => {
  let p = previousMexicoMonth(new Date());
  for (let i = 0; i < 2; i++) p = previousMexicoMonth(mexicoMonth(p.year, p.month).start);
  return p;
})();
const inMonth = (day: number) =>
  new Date(mexicoMonth(period.year, period.month).start.getTime() + (day - 1) * 86_400_000 + 3_600_000);

/** The tests' months are past the SAT's 72 hours: staff confirm the late issue, as the back office asks them to. */
const issue = (body: unknown, cookie = staffCookie) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/invoices/global',
    headers: { cookie },
    payload: { confirmLate: true, ...(body as Record<string, unknown>) },
  });

describe('the factura global of a month', () => {
  it('covers only the paid, uninvoiced sales of the month; XSD-valid; InformacionGlobal 04/MM/AAAA', async () => {
    const db = t.db;
    const a = await createTestOrder(db, shopper.id, { paidAt: inMonth(3) });
    const b = await createTestOrder(db, shopper.id, { paidAt: inMonth(20), status: 'shipped' });
    const invoiced = await createTestOrder(db, shopper.id, { paidAt: inMonth(5) });
    await insertInvoiceRow(db, { orderNumber: invoiced, userId: shopper.id, status: 'issued' });
    const cancelled = await createTestOrder(db, shopper.id, { paidAt: inMonth(6), status: 'cancelled' });
    const refunded = await createTestOrder(db, shopper.id, { paidAt: inMonth(7) });
    await db.execute(sql`update orders set payment_state = 'refunded' where number = ${refunded}`);
    const unpaid = await createTestOrder(db, shopper.id, { status: 'pending_payment' });
    await db.execute(
      sql`update orders set created_at = ${inMonth(8).toISOString()} where number = ${unpaid}`,
    );
    const nextMonth = await createTestOrder(db, shopper.id, {
      paidAt: mexicoMonth(period.year, period.month).end,
    });

    const res = await issue(period);
    expect(res.statusCode, res.body).toBe(201);
    const global = res.json() as {
      id: number;
      orders: number[];
      totalCents: number;
      status: string;
      uuid: string;
    };
    expect(global.status).toBe('issued');
    expect(global.orders).toEqual([a, b].sort((x, y) => x - y));
    for (const left of [invoiced, cancelled, refunded, unpaid, nextMonth])
      expect(global.orders).not.toContain(left);
    const totals = (
      await db.execute<{ s: number }>(
        sql`select sum(total_cents)::bigint as s from orders where number in (${a}, ${b})`,
      )
    ).rows[0]!;
    expect(global.totalCents).toBe(Number(totals.s));

    const xmlRes = await t.app.inject({
      url: `/api/admin/invoices/global/${global.id}/xml`,
      headers: { cookie: staffCookie },
    });
    expect(xmlRes.statusCode).toBe(200);
    const xml = xmlRes.body;
    const { valid, errors } = await validateCfdiXml(xml);
    expect(errors).toEqual([]);
    expect(valid).toBe(true);
    const mm = String(period.month).padStart(2, '0');
    expect(readAttribute(xml, 'cfdi:InformacionGlobal', 'Periodicidad')).toBe('04');
    expect(readAttribute(xml, 'cfdi:InformacionGlobal', 'Meses')).toBe(mm);
    expect(readAttribute(xml, 'cfdi:InformacionGlobal', 'Año')).toBe(String(period.year));
    expect(readAttribute(xml, 'cfdi:Receptor', 'Rfc')).toBe('XAXX010101000');
    expect(readAttribute(xml, 'cfdi:Receptor', 'Nombre')).toBe('PUBLICO EN GENERAL');
    expect(readAttribute(xml, 'cfdi:Receptor', 'UsoCFDI')).toBe('S01');
    expect(readAttribute(xml, 'cfdi:Receptor', 'RegimenFiscalReceptor')).toBe('616');
    expect(readAttribute(xml, 'cfdi:Receptor', 'DomicilioFiscalReceptor')).toBe(
      readAttribute(xml, 'cfdi:Comprobante', 'LugarExpedicion'),
    );
    expect(readAttribute(xml, 'cfdi:Comprobante', 'MetodoPago')).toBe('PUE');
    expect(readAttribute(xml, 'cfdi:Comprobante', 'Total')).toBe((global.totalCents / 100).toFixed(2));
    expect(xml.match(/<cfdi:Concepto /g)).toHaveLength(2);
    expect(xml).toContain(`NoIdentificacion="${a}"`);
    expect(xml).toContain('ClaveProdServ="01010101"');
    expect(xml).toContain('ClaveUnidad="ACT"');
    expect(xml).toContain('Descripcion="Venta"');
  });

  it('one per period: a second request is refused and includes nothing', async () => {
    const late = await createTestOrder(t.db, shopper.id, { paidAt: inMonth(25) });
    const res = await issue(period);
    expect(res.statusCode).toBe(409);
    expect((res.json() as { error: { message: string } }).error.message).toMatch(
      /Ya existe la factura global/,
    );
    const member = (await t.db.execute(sql`select 1 from global_invoice_orders where order_number = ${late}`))
      .rows;
    expect(member).toHaveLength(0);
  });

  it('refuses an open month, a month without sales, bad input, and shoppers', async () => {
    const now = new Date();
    const current = previousMexicoMonth(new Date(now.getTime() + 40 * 86_400_000));
    const open = await issue(current);
    expect(open.statusCode).toBe(409);
    expect((open.json() as { error: { message: string } }).error.message).toMatch(/aún no termina/);
    const empty = await issue({ year: 2023, month: 2 });
    expect(empty.statusCode).toBe(409);
    expect((empty.json() as { error: { message: string } }).error.message).toMatch(
      /No hay ventas sin factura/,
    );
    expect((await issue({ year: 2025, month: 13 })).statusCode).toBe(400);
    expect((await issue({ year: '2025', month: 1 })).statusCode).toBe(400);
    const shopperCookie = `${Object.keys(shopper.cookie)[0]}=${Object.values(shopper.cookie)[0]}`;
    expect((await issue(period, shopperCookie)).statusCode).toBe(403);
    const count = (await t.db.execute(sql`select 1 from global_invoices`)).rows;
    expect(count).toHaveLength(1);
  });

  it('the monthly job issues the closed month within the 72 hours after its end, once; later it leaves it to staff', async () => {
    const p = previousMexicoMonth(mexicoMonth(period.year, period.month).start);
    const { start, end } = mexicoMonth(p.year, p.month);
    const order = await createTestOrder(t.db, shopper.id, { paidAt: new Date(start.getTime() + 86_400_000) });
    const at = (ms: number) =>
      createInvoicingContext(t.app.config, t.db, { now: () => new Date(end.getTime() + ms) });
    expect(await globalInvoiceJob(at(73 * 3_600_000))).toBe('late');
    expect(await globalInvoiceJob(at(3_600_000))).toBe('issued');
    expect(await globalInvoiceJob(at(2 * 3_600_000))).toBe('exists');
    const rows = (
      await t.db.execute<{ created_by: string }>(
        sql`select g.created_by from global_invoices g join global_invoice_orders o on o.global_invoice_id = g.id
            where o.order_number = ${order}`,
      )
    ).rows;
    expect(rows).toEqual([{ created_by: 'job' }]);
  });

  it('a global whose PAC answer was lost is finished with the stamp made then; a refusal releases the period', async () => {
    // Four and five months back: months no other test uses.
    let lost = previousMexicoMonth(mexicoMonth(period.year, period.month).start);
    lost = previousMexicoMonth(mexicoMonth(lost.year, lost.month).start);
    const refused = previousMexicoMonth(mexicoMonth(lost.year, lost.month).start);
    const inside = (p: { year: number; month: number }) =>
      new Date(mexicoMonth(p.year, p.month).start.getTime() + 2 * 86_400_000);
    const order = await createTestOrder(t.db, shopper.id, { paidAt: inside(lost) });
    const base = createInvoicingContext(t.app.config, t.db);
    const stamped: string[] = [];
    const losing: Pac = {
      ...base.pac,
      name: base.pac.name,
      cancel: (r) => base.pac.cancel(r),
      cancellationStatus: (r) => base.pac.cancellationStatus(r),
      stamp: async (xml) => {
        const stamp = await base.pac.stamp(xml);
        stamped.push(stamp.uuid);
        throw new Error('la conexión se cortó tras el timbrado');
      },
    };
    await expect(
      issueGlobalInvoice({ ...base, pac: losing }, lost, 'staff', { confirmLate: true }),
    ).rejects.toThrow(/se cortó/);
    const left = (
      await t.db.execute<{ status: string; sealed: string | null }>(
        sql`select status, sealed from global_invoices where year = ${lost.year} and month = ${lost.month}`,
      )
    ).rows;
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ status: 'pending' });
    expect(left[0]?.sealed).toContain('Sello=');

    // Staff ask again (another process): the document sealed then is stamped again, and the PAC answers the
    // stamp it already made: one global for the month, with the UUID the SAT knows.
    const again = await issue(lost);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toMatchObject({ uuid: stamped[0], status: 'issued' });
    const rows = (
      await t.db.execute<{ uuid: string; order_number: number }>(
        sql`select g.uuid, o.order_number from global_invoices g join global_invoice_orders o on o.global_invoice_id = g.id
            where g.year = ${lost.year} and g.month = ${lost.month}`,
      )
    ).rows;
    expect(rows.map((r) => [r.uuid, Number(r.order_number)])).toEqual([[stamped[0], order]]);

    // A definite refusal stamped nothing: the period is free again and the next request issues it.
    await createTestOrder(t.db, shopper.id, { paidAt: inside(refused) });
    const refusing: Pac = {
      ...losing,
      stamp: async () => {
        throw new PacError('El PAC rechazó el comprobante: CFDI40999', 'CFDI40999');
      },
    };
    await expect(
      issueGlobalInvoice({ ...base, pac: refusing }, refused, 'staff', { confirmLate: true }),
    ).rejects.toThrow(/rechazó/);
    const none = await t.db.execute(
      sql`select 1 from global_invoices where year = ${refused.year} and month = ${refused.month}`,
    );
    expect(none.rows).toHaveLength(0);
    expect((await issue(refused)).statusCode).toBe(201);
  });
});

describe('the SAT’s 72 hours (RMF 2.7.1.21)', () => {
  it('past them staff must confirm a late global, and the confirmation is audited', async () => {
    const p = (() => {
      let q = previousMexicoMonth(new Date());
      for (let i = 0; i < 8; i++) q = previousMexicoMonth(mexicoMonth(q.year, q.month).start);
      return q;
    })();
    await createTestOrder(t.db, shopper.id, {
      paidAt: new Date(mexicoMonth(p.year, p.month).start.getTime() + 5 * 86_400_000),
    });
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/admin/invoices/global',
      headers: { cookie: staffCookie },
      payload: p,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('global_late');
    expect(refused.json().error.message).toContain('72 horas después del cierre del periodo');
    const none = await t.db.execute(
      sql`select 1 from global_invoices where year = ${p.year} and month = ${p.month}`,
    );
    expect(none.rows).toHaveLength(0);
    const confirmed = await issue(p);
    expect(confirmed.statusCode, confirmed.body).toBe(201);
    const audit = await t.db.execute<{ action: string }>(
      sql`select action from audit_log where action = 'invoice.global-late' and entity_id = ${String(confirmed.json().id)}`,
    );
    expect(audit.rows).toHaveLength(1);
  });
});
