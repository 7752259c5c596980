import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateCfdiXml } from '../../../tests/server/support/cfdi-xsd.ts';
import { type CheckoutTestApp, createCheckoutApp } from '../../../tests/server/support/checkout.ts';
import {
  createTestOrder,
  createTestShopper,
  type TestShopper,
} from '../../../tests/server/support/invoice-orders.ts';
import { createStaff } from '../../../tests/server/support/staff.ts';
import { mexicoMonth, previousMexicoMonth } from '../../shared/mexico-time.ts';
import { createInvoicingContext } from './context.ts';
import { resumeGlobalInvoices } from './global-release.ts';
import { issueInvoice } from './issue.ts';
import { readAttribute } from './pac/tfd.ts';
import type { Pac } from './pac/types.ts';

/**
 * An order in an issued factura global is later invoiced to its buyer (issue 21, decision 023 — SAT motivo 04):
 * the global is cancelled with motivo 04, issued again for the period without the order (CfdiRelacionados
 * TipoRelacion 04 to the cancelled one, XSD-valid), then the buyer's CFDI is issued; twice in parallel gives
 * exactly one of each; past the SAT's cancellation deadline the buyer is told why and nothing changes.
 */
let t: CheckoutTestApp;
let staffCookie: string;
let shopper: TestShopper;
beforeAll(async () => {
  t = await createCheckoutApp();
  staffCookie = (await createStaff(t)).cookie;
  shopper = await createTestShopper(t.db, 'Renata');
});
afterAll(() => t.close());

/** `back` months before the current one: closed, and each test its own period. */
const monthsBack = (back: number) => {
  let p = previousMexicoMonth(new Date());
  for (let i = 1; i < back; i++) p = previousMexicoMonth(mexicoMonth(p.year, p.month).start);
  return p;
};
const dayOf = (p: { year: number; month: number }, day: number) =>
  new Date(mexicoMonth(p.year, p.month).start.getTime() + (day - 1) * 86_400_000 + 3_600_000);

const receptor = {
  nombreFiscal: 'Laboratorios Químicos del Bajío',
  rfc: 'LQB150101AB3',
  regimenFiscal: '601',
  usoCfdi: 'G03',
  formaPago: '04',
  cp: '44100',
};
const requestInvoice = (number: number) =>
  t.app.inject({
    method: 'POST',
    url: `/api/orders/${number}/invoice`,
    cookies: shopper.cookie,
    payload: receptor,
  });

type GlobalRow = {
  id: number;
  status: string;
  uuid: string | null;
  xml: string | null;
  cancel_motivo: string | null;
  related_uuid: string | null;
  replaces_id: number | null;
  total_cents: number;
};
const globalsOf = async (p: { year: number; month: number }) =>
  (
    await t.db.execute<GlobalRow>(
      sql`select id, status, uuid, xml, cancel_motivo, related_uuid, replaces_id, total_cents::bigint as total_cents
          from global_invoices where year = ${p.year} and month = ${p.month} order by id`,
    )
  ).rows.map((r) => ({ ...r, total_cents: Number(r.total_cents) }));
const membersOf = async (id: number) =>
  (
    await t.db.execute<{ order_number: number }>(
      sql`select order_number from global_invoice_orders where global_invoice_id = ${id} order by order_number`,
    )
  ).rows.map((r) => Number(r.order_number));
/** The valid CFDIs that cover the order: its issued individual ones and the non-cancelled globals listing it. */
const validCfdisOf = async (number: number) => {
  const own = (
    await t.db.execute(
      sql`select 1 from invoices where order_number = ${number} and kind = 'I' and status = 'issued'`,
    )
  ).rows.length;
  const globals = (
    await t.db.execute<{ xml: string }>(sql`select xml from global_invoices where status = 'issued'`)
  ).rows.filter((g) => g.xml.includes(`NoIdentificacion="${number}"`)).length;
  return own + globals;
};

/** A closed month with three paid orders and its issued global; the orders' payment made recent (window open). */
async function monthWithGlobal(back: number) {
  const p = monthsBack(back);
  const orders = [
    await createTestOrder(t.db, shopper.id, { paidAt: dayOf(p, 2) }),
    await createTestOrder(t.db, shopper.id, { paidAt: dayOf(p, 9) }),
    await createTestOrder(t.db, shopper.id, { paidAt: dayOf(p, 27) }),
  ];
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/invoices/global',
    headers: { cookie: staffCookie },
    // Months back: past the SAT's 72 hours, so staff confirm the late issue.
    payload: { ...p, confirmLate: true },
  });
  expect(res.statusCode, res.body).toBe(201);
  // A global issued within 72 h of the month's end covers sales of its last days, which their buyers may still
  // invoice (30-day window): here the payments are made recent.
  await t.db.execute(
    sql`update orders set paid_at = now() where number in (${orders[0]}, ${orders[1]}, ${orders[2]})`,
  );
  return { p, orders, first: res.json() as { id: number; uuid: string; totalCents: number } };
}

describe('an order of a factura global invoiced individually (SAT motivo 04)', () => {
  it('cancels the global with motivo 04, re-issues it without the order (relación 04), then issues the CFDI', async () => {
    const { p, orders, first } = await monthWithGlobal(4);
    const [x, y, z] = orders as [number, number, number];

    const res = await requestInvoice(y);
    expect(res.statusCode, res.body).toBe(201);

    const globals = await globalsOf(p);
    expect(globals).toHaveLength(2);
    const [old, replacement] = globals as [GlobalRow, GlobalRow];
    expect(old).toMatchObject({ id: first.id, status: 'cancelled', cancel_motivo: '04', uuid: first.uuid });
    expect(await membersOf(old.id)).toEqual([]);
    expect(replacement).toMatchObject({ status: 'issued', replaces_id: old.id, related_uuid: first.uuid });
    expect(await membersOf(replacement.id)).toEqual([x, z]);
    const totals = (
      await t.db.execute<{ s: number }>(
        sql`select sum(total_cents)::bigint as s from orders where number in (${x}, ${z})`,
      )
    ).rows[0]!;
    expect(replacement.total_cents).toBe(Number(totals.s));

    const xml = replacement.xml!;
    const { valid, errors } = await validateCfdiXml(xml);
    expect(errors).toEqual([]);
    expect(valid).toBe(true);
    expect(readAttribute(xml, 'cfdi:CfdiRelacionados', 'TipoRelacion')).toBe('04');
    expect(xml).toContain(`<cfdi:CfdiRelacionado UUID="${first.uuid}"/>`);
    expect(readAttribute(xml, 'cfdi:InformacionGlobal', 'Meses')).toBe(String(p.month).padStart(2, '0'));
    expect(readAttribute(xml, 'cfdi:Receptor', 'Rfc')).toBe('XAXX010101000');
    expect(xml).toContain(`NoIdentificacion="${x}"`);
    expect(xml).toContain(`NoIdentificacion="${z}"`);
    expect(xml).not.toContain(`NoIdentificacion="${y}"`);
    expect(readAttribute(xml, 'cfdi:Comprobante', 'Total')).toBe((replacement.total_cents / 100).toFixed(2));

    // The buyer's CFDI, to the buyer's RFC; the order is in exactly one valid CFDI, and so are the others.
    const own = await t.app.inject({ url: `/api/orders/${y}/invoice.xml`, cookies: shopper.cookie });
    expect(own.statusCode).toBe(200);
    expect(readAttribute(own.body, 'cfdi:Receptor', 'Rfc')).toBe(receptor.rfc);
    for (const n of orders) expect(await validCfdisOf(n)).toBe(1);

    // The staff list shows both: the cancelled one and its replacement.
    const list = await t.app.inject({ url: '/api/admin/invoices/global', headers: { cookie: staffCookie } });
    const rows = (list.json() as { items: { id: number; status: string }[] }).items;
    expect(
      rows
        .filter((g) => g.id === old.id || g.id === replacement.id)
        .map((g) => g.status)
        .sort(),
    ).toEqual(['cancelled', 'issued']);
  });

  it('two requests in parallel: exactly one cancelled global, one replacement, one CFDI', async () => {
    const { p, orders } = await monthWithGlobal(5);
    const target = orders[0]!;
    const answers = await Promise.all([requestInvoice(target), requestInvoice(target)]);
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes[0], answers.map((a) => a.body).join('\n')).toBe(201);
    // The loser is told the invoice is in progress or already issued, never a 500.
    expect([201, 409]).toContain(codes[1]);
    const globals = await globalsOf(p);
    expect(globals.map((g) => g.status)).toEqual(['cancelled', 'issued']);
    expect(await membersOf(globals[1]!.id)).toEqual(orders.slice(1));
    const own = (
      await t.db.execute(sql`select 1 from invoices where order_number = ${target} and kind = 'I'`)
    ).rows;
    expect(own).toHaveLength(1);
    for (const n of orders) expect(await validCfdisOf(n)).toBe(1);

    // A second order of the same period: the replacement is cancelled in turn and issued again without it.
    const second = await requestInvoice(orders[1]!);
    expect(second.statusCode, second.body).toBe(201);
    const after = await globalsOf(p);
    expect(after.map((g) => g.status)).toEqual(['cancelled', 'cancelled', 'issued']);
    expect(after[2]!.related_uuid).toBe(after[1]!.uuid);
    expect(await membersOf(after[2]!.id)).toEqual([orders[2]]);
    for (const n of orders) expect(await validCfdisOf(n)).toBe(1);
  });

  it('past the SAT deadline to cancel the global: refused in Spanish, nothing changed', async () => {
    const { p, orders, first } = await monthWithGlobal(6);
    // Issued two years ago: the deadline (31 March of the next year) has passed.
    await t.db.execute(
      sql`update global_invoices set issued_at = now() - interval '730 days' where id = ${first.id}`,
    );
    const res = await requestInvoice(orders[0]!);
    expect(res.statusCode).toBe(409);
    expect((res.json() as { error: { message: string } }).error.message).toMatch(
      /plazo para cancelarla ante el SAT venció.*ya no es posible emitir una factura a su nombre/,
    );
    const globals = await globalsOf(p);
    expect(globals.map((g) => g.status)).toEqual(['issued']);
    expect(await membersOf(first.id)).toEqual(orders);
    const own = (
      await t.db.execute(sql`select 1 from invoices where order_number = ${orders[0]} and kind = 'I'`)
    ).rows;
    expect(own).toHaveLength(0);
  });

  it('crash-safe: the PAC answer lost after cancelling, then after stamping the replacement; retries finish once', async () => {
    const { p, orders, first } = await monthWithGlobal(7);
    const base = createInvoicingContext(t.app.config, t.db);
    const stamped: string[] = [];
    let loseCancel = true;
    let loseReplacement = true;
    // The PAC did its work (cancelled, stamped) but the answer never arrived: the request died.
    const pac: Pac = {
      name: base.pac.name,
      cancellationStatus: (r) => base.pac.cancellationStatus(r),
      cancel: async (r) => {
        const result = await base.pac.cancel(r);
        if (loseCancel) {
          loseCancel = false;
          throw new Error('conexión perdida tras cancelar');
        }
        return result;
      },
      stamp: async (xml) => {
        const stamp = await base.pac.stamp(xml);
        if (xml.includes('CfdiRelacionados')) {
          stamped.push(stamp.uuid);
          if (loseReplacement) {
            loseReplacement = false;
            throw new Error('conexión perdida tras timbrar');
          }
        }
        return stamp;
      },
    };
    const ctx = { ...base, pac };
    const user = {
      id: shopper.id,
      email: shopper.email,
      role: 'customer' as const,
      nombre: 'Renata',
      apellidoPat: 'López',
      apellidoMat: 'Ruiz',
      telefono: '3312345678',
    };
    const target = orders[2]!;
    await expect(issueInvoice(ctx, user, target, receptor)).rejects.toThrow(/cancelar/);
    expect((await globalsOf(p)).map((g) => g.status)).toEqual(['cancelling']);
    await expect(issueInvoice(ctx, user, target, receptor)).rejects.toThrow(/timbrar/);
    expect((await globalsOf(p)).map((g) => g.status)).toEqual(['cancelled', 'pending']);
    // Nothing of the buyer's yet: the replacement comes first.
    expect(await validCfdisOf(target)).toBe(0);
    const done = await issueInvoice(ctx, user, target, receptor);
    expect(done.invoice).toMatchObject({ state: 'issued' });
    const globals = await globalsOf(p);
    expect(globals.map((g) => g.status)).toEqual(['cancelled', 'issued']);
    expect(globals[1]!.related_uuid).toBe(first.uuid);
    // The retry sent the very sealed document: the PAC answered the same stamp, one replacement UUID.
    expect(new Set(stamped)).toEqual(new Set([globals[1]!.uuid]));
    for (const n of orders) expect(await validCfdisOf(n)).toBe(1);
  });

  it('a release stopped half-way is finished by the periodic round, before the buyer asks again', async () => {
    const { p, orders, first } = await monthWithGlobal(8);
    const base = createInvoicingContext(t.app.config, t.db);
    let lose = true;
    const pac: Pac = {
      name: base.pac.name,
      cancellationStatus: (r) => base.pac.cancellationStatus(r),
      cancel: (r) => base.pac.cancel(r),
      stamp: async (xml) => {
        const stamp = await base.pac.stamp(xml);
        if (lose && xml.includes('CfdiRelacionados')) {
          lose = false;
          throw new Error('el proceso terminó tras timbrar la sustituta');
        }
        return stamp;
      },
    };
    const user = {
      id: shopper.id,
      email: shopper.email,
      role: 'customer' as const,
      nombre: 'Renata',
      apellidoPat: 'López',
      apellidoMat: 'Ruiz',
      telefono: '3312345678',
    };
    const target = orders[0]!;
    await expect(issueInvoice({ ...base, pac }, user, target, receptor)).rejects.toThrow(/sustituta/);
    expect((await globalsOf(p)).map((g) => g.status)).toEqual(['cancelled', 'pending']);
    // The other sales of the month are in no valid CFDI now: the round finishes the replacement.
    expect(await validCfdisOf(orders[1]!)).toBe(0);
    expect(await resumeGlobalInvoices(base)).toBeGreaterThanOrEqual(1);
    const globals = await globalsOf(p);
    expect(globals.map((g) => g.status)).toEqual(['cancelled', 'issued']);
    expect(globals[1]!.related_uuid).toBe(first.uuid);
    for (const n of orders.slice(1)) expect(await validCfdisOf(n)).toBe(1);
    // A second round finds nothing left to do.
    expect(await resumeGlobalInvoices(base)).toBe(0);
  });
});
