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

describe('a sale in the factura global that is undone', () => {
  it('gets an egreso to the público en general related to the global (TipoRelacion 01), valid and sealed', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 10, 4);
    const res = await placeOrderRequest(t, shopper, {
      items: [{ code: p.code, quantity: 2 }],
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
    // Paid last month: the monthly global takes it.
    const last = previousMexicoMonth(new Date());
    await t.db.execute(
      sql`update orders set paid_at = make_timestamptz(${last.year}, ${last.month}, 10, 12, 0, 0, 'America/Mexico_City'),
          created_at = make_timestamptz(${last.year}, ${last.month}, 10, 11, 0, 0, 'America/Mexico_City') where number = ${number}`,
    );
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
