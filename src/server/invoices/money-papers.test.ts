import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealVerifies } from '../../../tests/server/support/cfdi-seal.ts';
import { validateCfdiXml } from '../../../tests/server/support/cfdi-xsd.ts';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  placeOrderRequest,
  productWithStock,
  type Shopper,
} from '../../../tests/server/support/checkout.ts';
import { createStaff, paidOrder } from '../../../tests/server/support/staff.ts';
import { previousMexicoMonth } from '../../shared/mexico-time.ts';
import { reconcileAwaiting } from '../checkout/settle.ts';
import { balancesOf } from '../orders/ledger.ts';
import type { SandboxGateway } from '../payments/sandbox.ts';
import type { Comprobante } from './cfdi.ts';
import { readAttribute } from './pac/tfd.ts';

/**
 * Issue 33: every tax paper follows the money and the motivo follows the facts. A partial refund of an invoiced
 * order issues its credit note in the same action; a buyer's cancellation of an invoiced order cancels the CFDI with
 * motivo 03 after the refund; staff cannot say 03 about a kept sale, 04 about a nominative invoice, nor cancel an
 * invoice whose credit note is live; a sale in a factura global that is undone gets an egreso to the público en
 * general related to the global. The papers are checked against the SAT's XSD and their seal.
 */
let t: CheckoutTestApp;
let staff: Shopper;
beforeAll(async () => {
  t = await createCheckoutApp({
    env: { CHECKOUT_MAX_PENDING_ORDERS: '200', CHECKOUT_MAX_RESERVED_UNITS: '5000' },
  });
  staff = await createStaff(t);
});
afterAll(() => t.close());

const post = (who: Shopper, url: string, payload: Record<string, unknown> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { cookie: who.cookie }, payload });
const form = {
  nombreFiscal: 'Laboratorios Químicos del Bajío',
  rfc: 'LQB150101AB3',
  regimenFiscal: '601',
  usoCfdi: 'G03',
  cp: '44100',
};
const papers = async (number: number) =>
  (
    await t.db.execute<{
      kind: string;
      status: string;
      total_cents: number;
      related_uuid: string | null;
      uuid: string | null;
      cancel_motivo: string | null;
      xml: string | null;
      serie: string | null;
      sealed: { comprobante: Comprobante } | null;
    }>(
      sql`select kind, status, total_cents::int as total_cents, related_uuid, uuid, cancel_motivo, xml, serie, sealed
          from invoices where order_number = ${number} order by id`,
    )
  ).rows;

async function invoicedCardOrder(index: number, quantity = 4) {
  const shopper = await createShopper(t);
  const p = await productWithStock(t, 10, index);
  const number = await paidOrder(t, shopper, [{ code: p.code, quantity }]);
  const res = await post(shopper, `/api/orders/${number}/invoice`, form);
  expect(res.statusCode, res.body).toBe(201);
  return { shopper, number, uuid: res.json().invoice.uuid as string };
}

async function expectValidPaper(paper: { xml: string | null; sealed: { comprobante: Comprobante } | null }) {
  expect(await validateCfdiXml(paper.xml!)).toEqual({ valid: true, errors: [] });
  expect(sealVerifies(paper.sealed!.comprobante)).toBe(true);
}

describe('a partial refund of an invoiced order issues its credit note in the same action', () => {
  it('two refunds, two credit notes of exactly their amounts, FormaPago of the card; then the cancellation credits the rest', async () => {
    const { shopper, number, uuid } = await invoicedCardOrder(0);
    const r1 = await post(staff, `/api/admin/orders/${number}/refunds`, {
      amountCents: 12_345,
      reason: 'Un frasco llegó roto',
    });
    expect(r1.statusCode, r1.body).toBe(200);
    let notes = (await papers(number)).filter((p) => p.kind === 'E');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ status: 'issued', total_cents: 12_345, related_uuid: uuid });
    await expectValidPaper(notes[0]!);
    expect(readAttribute(notes[0]!.xml!, 'cfdi:Comprobante', 'FormaPago')).toBe(
      readAttribute((await papers(number))[0]!.xml!, 'cfdi:Comprobante', 'FormaPago'),
    );
    expect(readAttribute(notes[0]!.xml!, 'cfdi:Comprobante', 'TipoDeComprobante')).toBe('E');

    expect(
      (
        await post(staff, `/api/admin/orders/${number}/refunds`, {
          amountCents: 5_000,
          reason: 'Descuento acordado',
        })
      ).statusCode,
    ).toBe(200);
    expect((await balancesOf(t.db, number)).taxDueCents).toBe(0);

    // Staff cannot cancel the invoice while its credit notes are live; nor with 03 for a kept sale.
    const with02 = await post(staff, `/api/admin/invoices/${number}/cancel`, { motivo: '02' });
    expect(with02.statusCode).toBe(409);
    expect(with02.json().error.code).toBe('related_documents');

    // The buyer cancels: the rest is refunded to the card and, the invoice having live credit notes, the rest is
    // credited too — the papers add up to the money, never the SAT told «no se llevó a cabo» with notes alive.
    const cancel = await post(shopper, `/api/orders/${number}/cancel`);
    expect(cancel.statusCode, cancel.body).toBe(200);
    const b = await balancesOf(t.db, number);
    expect(b).toMatchObject({ keptCents: 0, refundedCents: b.paidCents, taxDueCents: 0 });
    notes = (await papers(number)).filter((p) => p.kind === 'E');
    expect(notes.map((n) => n.total_cents)).toEqual([12_345, 5_000, b.paidCents - 17_345]);
    expect(notes.every((n) => n.status === 'issued' && n.serie === 'NC')).toBe(true);
    expect((await papers(number))[0]).toMatchObject({ kind: 'I', status: 'issued', cancel_motivo: null });
  });
});

describe('the motivo follows the facts', () => {
  it('03 is refused for a kept sale and 04 for a nominative invoice; nothing changes', async () => {
    const { number, uuid } = await invoicedCardOrder(1, 1);
    const r03 = await post(staff, `/api/admin/invoices/${number}/cancel`, { motivo: '03' });
    expect(r03.statusCode).toBe(409);
    expect(r03.json().error.code).toBe('sale_kept');
    expect(r03.json().error.message).toContain('solo aplica a una venta que se deshizo');
    const r04 = await post(staff, `/api/admin/invoices/${number}/cancel`, { motivo: '04' });
    expect(r04.statusCode).toBe(409);
    expect(r04.json().error.code).toBe('motivo_not_applicable');
    expect((await papers(number))[0]).toMatchObject({ uuid, status: 'issued', cancel_motivo: null });
  });

  it('a buyer’s own cancellation of an invoiced order refunds the card and cancels the CFDI with 03, in one action', async () => {
    const { shopper, number, uuid } = await invoicedCardOrder(2, 2);
    const cancel = await post(shopper, `/api/orders/${number}/cancel`);
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().order.status).toBe('cancelled');
    expect((await papers(number))[0]).toMatchObject({ uuid, status: 'cancelled', cancel_motivo: '03' });
    expect((await papers(number)).filter((p) => p.kind === 'E')).toEqual([]);
    const b = await balancesOf(t.db, number);
    expect(b).toMatchObject({ invoicedCents: 0, keptCents: 0, taxDueCents: 0 });
    const ledger = await t.db.execute<{ kind: string }>(
      sql`select kind from order_ledger where order_number = ${number} order by id`,
    );
    expect(ledger.rows.map((r) => r.kind)).toEqual([
      'charge',
      'invoice',
      'refund_due',
      'refund',
      'invoice_cancelled',
    ]);
  });

  it('02 is accepted for a data error while no related document is live', async () => {
    const { number, uuid } = await invoicedCardOrder(3, 1);
    const r02 = await post(staff, `/api/admin/invoices/${number}/cancel`, { motivo: '02' });
    expect(r02.statusCode, r02.body).toBe(200);
    expect((await papers(number))[0]).toMatchObject({ uuid, status: 'cancelled', cancel_motivo: '02' });
  });
});

/** A store-cash order paid on the 10th of `period` (the global of that month takes it). */
async function cashOrderPaidIn(period: { year: number; month: number }, index: number, quantity = 2) {
  const shopper = await createShopper(t);
  const p = await productWithStock(t, 10, index);
  const res = await placeOrderRequest(t, shopper, {
    items: [{ code: p.code, quantity }],
    paymentMethod: 'cash',
  });
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
  await t.db.execute(
    sql`update orders set paid_at = make_timestamptz(${period.year}, ${period.month}, 10, 12, 0, 0, 'America/Mexico_City'),
        created_at = make_timestamptz(${period.year}, ${period.month}, 10, 11, 0, 0, 'America/Mexico_City') where number = ${number}`,
  );
  return number;
}

describe('a sale in the factura global that is undone', () => {
  it('gets an egreso to the público en general related to the global (TipoRelacion 01), valid and sealed', async () => {
    const last = previousMexicoMonth(new Date());
    const number = await cashOrderPaidIn(last, 4);
    const global = await post(staff, '/api/admin/invoices/global', { ...last, confirmLate: true });
    expect(global.statusCode, global.body).toBe(201);
    const globalUuid = global.json().uuid as string;
    expect((await balancesOf(t.db, number)).inGlobal).toBe(true);

    const cancel = await post(staff, `/api/admin/orders/${number}/cancel`, {
      reason: 'Cliente pidió cancelar',
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const [egreso] = (await papers(number)).filter((x) => x.kind === 'E');
    expect(egreso).toMatchObject({ status: 'issued', related_uuid: globalUuid });
    const xml = egreso!.xml!;
    await expectValidPaper(egreso!);
    expect(readAttribute(xml, 'cfdi:Receptor', 'Rfc')).toBe('XAXX010101000');
    expect(readAttribute(xml, 'cfdi:Receptor', 'UsoCFDI')).toBe('S01');
    expect(readAttribute(xml, 'cfdi:Comprobante', 'FormaPago')).toBe('01');
    expect(readAttribute(xml, 'cfdi:InformacionGlobal', 'Meses')).toBe(String(last.month).padStart(2, '0'));
    expect(xml).toContain(
      `<cfdi:CfdiRelacionados TipoRelacion="01"><cfdi:CfdiRelacionado UUID="${globalUuid}"/>`,
    );
    const b = await balancesOf(t.db, number);
    expect(b.globalCreditedCents).toBe(b.paidCents);
    // The money is still owed to the buyer's CLABE; the paper already says the sale went back, once.
    expect(b.refundDueCents).toBe(b.paidCents);
    await post(staff, `/api/admin/orders/${number}/refunds`, {
      amountCents: 1,
      reason: 'No debe poder',
    }).then((r) => expect(r.statusCode).toBe(409));
  });
});

describe('money given back before the paper: the invoice and the global state what was kept (decision 056)', () => {
  it('a partial refund before invoicing: the invoice states it as a Descuento, totals what was kept, needs no credit note; a later refund gets one', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 10, 4);
    const q = await productWithStock(t, 10, 5);
    const number = await paidOrder(t, shopper, [
      { code: p.code, quantity: 3 },
      { code: q.code, quantity: 1 },
    ]);
    const refund = await post(staff, `/api/admin/orders/${number}/refunds`, {
      amountCents: 10_001,
      reason: 'Un frasco llegó roto',
    });
    expect(refund.statusCode, refund.body).toBe(200);
    expect(await papers(number)).toEqual([]);

    const res = await post(shopper, `/api/orders/${number}/invoice`, form);
    expect(res.statusCode, res.body).toBe(201);
    const b = await balancesOf(t.db, number);
    const [invoice, ...others] = await papers(number);
    expect(others).toEqual([]);
    expect(invoice).toMatchObject({ kind: 'I', status: 'issued', total_cents: b.paidCents - 10_001 });
    await expectValidPaper(invoice!);
    const xml = invoice!.xml!;
    const cents = (v: string | null | undefined) => Math.round(Number(v) * 100);
    const subTotal = cents(readAttribute(xml, 'cfdi:Comprobante', 'SubTotal'));
    const descuento = cents(readAttribute(xml, 'cfdi:Comprobante', 'Descuento'));
    const total = cents(readAttribute(xml, 'cfdi:Comprobante', 'Total'));
    const iva = cents(readAttribute(xml, 'cfdi:Impuestos ', 'TotalImpuestosTrasladados'));
    // Anexo 20: Total = SubTotal − Descuento + traslados; Descuento = Σ of the concepts' Descuento.
    expect(descuento).toBeGreaterThan(0);
    expect(total).toBe(subTotal - descuento + iva);
    expect(total).toBe(b.keptCents);
    const concepts = invoice!.sealed!.comprobante.conceptos;
    expect(concepts.reduce((s, k) => s + cents(k.descuento), 0)).toBe(descuento);
    for (const k of concepts) {
      expect(cents(k.descuento)).toBeLessThan(cents(k.importe));
      expect(cents(k.traslado.base)).toBe(cents(k.importe) - cents(k.descuento));
    }
    expect(b).toMatchObject({ invoicedCents: b.keptCents, taxDueCents: 0 });

    // The papers already agree with the money: the invoices' round has nothing to do.
    expect((await papers(number)).filter((x) => x.kind === 'E')).toEqual([]);
    // A later refund of the invoiced order: its credit note, of exactly that amount.
    const later = await post(staff, `/api/admin/orders/${number}/refunds`, {
      amountCents: 2_000,
      reason: 'Segunda pieza dañada',
    });
    expect(later.statusCode, later.body).toBe(200);
    const notes = (await papers(number)).filter((x) => x.kind === 'E');
    expect(notes).toMatchObject([{ status: 'issued', total_cents: 2_000, related_uuid: invoice!.uuid }]);
    expect((await balancesOf(t.db, number)).taxDueCents).toBe(0);
  });

  it('an invoice is refused while a card refund is in flight (it would count on an answer not given yet)', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 10, 6);
    const number = await paidOrder(t, shopper, [{ code: p.code, quantity: 1 }]);
    await t.db.execute(
      sql`insert into order_refunds (order_number, route, amount_cents, state, reason, actor)
          values (${number}, 'card', 100, 'in_progress', 'prueba',
                  ${JSON.stringify({ by: 'staff', userId: null, label: 'prueba' })}::jsonb)`,
    );
    const busy = await post(shopper, `/api/orders/${number}/invoice`, form);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().error.message).toContain('reembolso a tarjeta en proceso');
    expect(await papers(number)).toEqual([]);
  });
});

describe("a sale partly given back before its month's global", () => {
  it('goes into the global for what was kept; the ledger says the global owes nothing, and no egreso is issued', async () => {
    const last = previousMexicoMonth(new Date());
    // Two months back: the month before is the other global test's.
    const period =
      last.month === 1 ? { year: last.year - 1, month: 12 } : { year: last.year, month: last.month - 1 };
    const number = await cashOrderPaidIn(period, 7, 3);
    const part = await post(staff, `/api/admin/orders/${number}/refunds`, {
      amountCents: 7_777,
      reason: 'Una pieza no se surtió',
    });
    expect(part.statusCode, part.body).toBe(200);
    const global = await post(staff, '/api/admin/invoices/global', { ...period, confirmLate: true });
    expect(global.statusCode, global.body).toBe(201);
    const { rows } = await t.db.execute<{ xml: string }>(
      sql`select xml from global_invoices where uuid = ${global.json().uuid as string}`,
    );
    const xml = rows[0]!.xml;
    expect(await validateCfdiXml(xml)).toEqual({ valid: true, errors: [] });
    const b = await balancesOf(t.db, number);
    expect(b.keptCents).toBe(b.paidCents - 7_777);
    // The order's concept states what was kept (IVA included: Importe + its traslado).
    const concept = xml.match(
      new RegExp(`<cfdi:Concepto[^>]*NoIdentificacion="${number}"[^>]*>.*?</cfdi:Concepto>`),
    )![0];
    const cents = (v: string | null | undefined) => Math.round(Number(v) * 100);
    const stated =
      cents(readAttribute(concept, 'cfdi:Concepto', 'Importe')) +
      cents(readAttribute(concept, 'cfdi:Traslado ', 'Importe'));
    expect(stated).toBe(b.keptCents);
    expect(b).toMatchObject({ inGlobal: true, inGlobalCents: b.keptCents, globalTaxDueCents: 0 });
    expect((await papers(number)).filter((x) => x.kind === 'E')).toEqual([]);

    // The rest given back later: its egreso to the público en general is for that rest, not the whole sale.
    const cancel = await post(staff, `/api/admin/orders/${number}/cancel`, {
      reason: 'Cliente pidió cancelar',
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const egresos = (await papers(number)).filter((x) => x.kind === 'E');
    expect(egresos).toMatchObject([{ status: 'issued', total_cents: b.keptCents }]);
    expect((await balancesOf(t.db, number)).globalTaxDueCents).toBe(0);
  });
});
