import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateCfdiXml } from '../../../tests/server/support/cfdi-xsd.ts';
import {
  createTestOrder,
  createTestShopper,
  type TestShopper,
} from '../../../tests/server/support/invoice-orders.ts';
import { createTestApp, type TestApp } from '../../../tests/server/support/test-app.ts';
import type { SessionUser } from '../auth/session.ts';
import { invoices, mailOutbox } from '../db/schema.ts';
import { CANCEL_PENDING, cancelInvoice } from './cancel.ts';
import { createInvoicingContext, type InvoicingContext } from './context.ts';
import {
  CANCEL_IN_PROGRESS,
  CANCEL_REJECTED,
  cancellationDeadline,
  SELF_SERVICE_LIMIT,
} from './corrections.ts';
import { followUpCancellations } from './follow-up.ts';
import { issueInvoice } from './issue.ts';
import type { SandboxPac } from './pac/sandbox.ts';
import { REPLACED, replaceInvoice } from './replace.ts';
import { getInvoiceState } from './state.ts';

let t: TestApp;
let ana: TestShopper;
let user: SessionUser;
let ctx: InvoicingContext;
let sandbox: SandboxPac;

const form = {
  nombreFiscal: 'Laboratorios Químicos del Bajío',
  rfc: 'LQB150101AB3',
  regimenFiscal: '601',
  usoCfdi: 'G03',
  cp: '44100',
};
const DAY = 24 * 60 * 60 * 1000;
const BIG = [
  { code: 'EQU-0001', description: 'Balanza analítica 220 g', unitPriceCents: 1_850_000, quantity: 1 },
];

beforeAll(async () => {
  t = await createTestApp();
  ana = await createTestShopper(t.database.db, 'Ana');
  user = {
    id: ana.id,
    email: ana.email,
    role: 'customer',
    nombre: 'Ana',
    apellidoPat: 'López',
    apellidoMat: 'Ruiz',
    telefono: '3312345678',
  };
  ctx = createInvoicingContext(t.app.config, t.database.db);
  sandbox = ctx.pac as SandboxPac;
});
afterAll(async () => {
  await t.close();
});

const rowsOf = (number: number) =>
  t.database.db.select().from(invoices).where(eq(invoices.orderNumber, number)).orderBy(invoices.id);

/** An issued invoice of a new order, stamped `daysAgo` days ago. */
async function invoiced(lines = BIG, daysAgo = 2) {
  const number = await createTestOrder(t.database.db, ana.id, { lines });
  await issueInvoice(ctx, user, number, form);
  await t.database.db
    .update(invoices)
    .set({ issuedAt: new Date(Date.now() - daysAgo * DAY) })
    .where(eq(invoices.orderNumber, number));
  return number;
}

describe('cancellation that needs the receptor’s acceptance (SAT: over $1,000, after the next business day)', () => {
  it('is pending — shown as such, still valid — until the follow-up learns it was accepted', async () => {
    const number = await invoiced();
    sandbox.receptorAnswer = () => 'wait';
    const answer = await cancelInvoice(ctx, user, number);
    expect(answer.message).toBe(CANCEL_PENDING);
    expect(answer.invoice).toMatchObject({ state: 'issued', cancellation: 'pending' });
    expect(answer.invoice.cancelRequestedAt).not.toBeNull();
    expect((await rowsOf(number)).map((r) => [r.status, r.cancelStatus])).toEqual([['issued', 'pending']]);
    await expect(cancelInvoice(ctx, user, number)).rejects.toMatchObject({
      statusCode: 409,
      message: CANCEL_IN_PROGRESS,
    });
    expect(await followUpCancellations(ctx)).toMatchObject({ pending: 1, cancelled: 0 });
    expect((await getInvoiceState(ctx, user, number)).cancellation).toBe('pending');

    sandbox.receptorAnswer = () => 'accept';
    expect(await followUpCancellations(ctx)).toMatchObject({ cancelled: 1 });
    const after = await getInvoiceState(ctx, user, number);
    expect(after).toMatchObject({ state: 'cancelled', cancellation: null, canRequest: true });
    const [row] = await rowsOf(number);
    expect(row).toMatchObject({ status: 'cancelled', cancelStatus: null, cancelMotivo: '02' });
    const mails = await t.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.dedupeKey, `invoice-cancelled:${row!.uuid}`));
    expect(mails).toHaveLength(1);
  });

  it('stays valid when the receptor rejects it, and says so', async () => {
    const number = await invoiced();
    sandbox.receptorAnswer = () => 'reject';
    expect((await cancelInvoice(ctx, user, number)).invoice.cancellation).toBe('pending');
    expect(await followUpCancellations(ctx)).toMatchObject({ rejected: 1 });
    expect(await getInvoiceState(ctx, user, number)).toMatchObject({
      state: 'issued',
      cancellation: 'rejected',
    });
    sandbox.receptorAnswer = () => 'accept';
  });

  it('is immediate for $1,000 or less, or on the day of issue', async () => {
    const small = await invoiced(
      [{ code: 'VID-1', description: 'Vaso de precipitado 250 ml', unitPriceCents: 30_000, quantity: 1 }],
      5,
    );
    expect((await cancelInvoice(ctx, user, small)).invoice).toMatchObject({
      state: 'cancelled',
      cancellation: null,
    });
    const fresh = await invoiced(BIG, 0);
    expect((await cancelInvoice(ctx, user, fresh)).invoice).toMatchObject({ state: 'cancelled' });
  });
});

describe('limits', () => {
  it('a shopper corrects an invoice once; after that, staff do it', async () => {
    const number = await invoiced(BIG, 0);
    await cancelInvoice(ctx, user, number);
    await issueInvoice(ctx, user, number, { ...form, usoCfdi: 'G01' });
    await expect(cancelInvoice(ctx, user, number)).rejects.toMatchObject({
      statusCode: 409,
      message: SELF_SERVICE_LIMIT,
    });
    expect((await cancelInvoice(ctx, user, number, { motivo: '02', by: 'staff' })).invoice.state).toBe(
      'cancelled',
    );
  });

  it('the state tells the shopper whether «Corregir factura» is still theirs, and why not', async () => {
    const number = await invoiced(BIG, 0);
    expect(await getInvoiceState(ctx, user, number)).toMatchObject({
      state: 'issued',
      canCorrect: true,
      correctionBlockedReason: null,
    });
    const replaced = await replaceInvoice(ctx, user, number, { ...form, usoCfdi: 'G01' });
    expect(replaced.invoice).toMatchObject({
      state: 'issued',
      canCorrect: false,
      correctionBlockedReason: SELF_SERVICE_LIMIT,
    });
    // The replacement (the old one cancelled or not yet) cannot be cancelled by the shopper either.
    await expect(cancelInvoice(ctx, user, number)).rejects.toMatchObject({
      statusCode: 409,
      message: SELF_SERVICE_LIMIT,
    });
    const none = await createTestOrder(t.database.db, ana.id, { lines: BIG });
    expect(await getInvoiceState(ctx, user, none)).toMatchObject({
      canCorrect: false,
      correctionBlockedReason: null,
    });
  });

  it('after the receptor rejected a cancellation the shopper is sent to staff, in the state and the API', async () => {
    const number = await invoiced();
    sandbox.receptorAnswer = () => 'wait';
    await cancelInvoice(ctx, user, number);
    expect(await getInvoiceState(ctx, user, number)).toMatchObject({
      canCorrect: false,
      correctionBlockedReason: CANCEL_IN_PROGRESS,
    });
    sandbox.receptorAnswer = () => 'reject';
    await followUpCancellations(ctx);
    sandbox.receptorAnswer = () => 'accept';
    expect(await getInvoiceState(ctx, user, number)).toMatchObject({
      cancellation: 'rejected',
      canCorrect: false,
      correctionBlockedReason: CANCEL_REJECTED,
    });
    await expect(replaceInvoice(ctx, user, number, form)).rejects.toMatchObject({
      statusCode: 409,
      message: CANCEL_REJECTED,
    });
  });

  it('the deadline is 31 March of the year after the issue (CFF art. 29-A), Mexico City time', async () => {
    expect(cancellationDeadline(new Date('2025-01-15T18:00:00Z')).toISOString()).toBe(
      '2026-04-01T05:59:59.999Z',
    );
    // 31 Dec 2025 at 20:00 in Mexico City is already 2026 in UTC: still fiscal year 2025.
    expect(cancellationDeadline(new Date('2026-01-01T02:00:00Z')).toISOString()).toBe(
      '2026-04-01T05:59:59.999Z',
    );
    const number = await invoiced(BIG, 800);
    await expect(cancelInvoice(ctx, user, number)).rejects.toMatchObject({
      statusCode: 409,
      message: expect.stringMatching(
        /^El plazo para cancelar esta factura terminó el 31 de marzo de \d{4} \(Código Fiscal de la Federación, art\. 29-A\)$/,
      ),
    });
    expect((await rowsOf(number))[0]?.status).toBe('issued');
  });
});

describe('motivo chosen by what happened', () => {
  it('staff cancel with motivo 03 (the sale did not happen): refused while the sale is kept; once undone the PAC is told 03', async () => {
    const number = await invoiced(BIG, 0);
    await expect(cancelInvoice(ctx, user, number, { motivo: '03', by: 'staff' })).rejects.toMatchObject({
      code: 'sale_kept',
    });
    expect((await rowsOf(number))[0]).toMatchObject({ status: 'issued', cancelMotivo: null });
    // The order cancelled with its money back (this order's ledger holds no charge: nothing is kept).
    await ctx.db.execute(
      sql`update orders set status = 'cancelled', cancelled_at = now() where number = ${number}`,
    );
    await cancelInvoice(ctx, user, number, { motivo: '03', by: 'staff' });
    const [row] = await rowsOf(number);
    expect(row).toMatchObject({ status: 'cancelled', cancelMotivo: '03' });
    expect(row?.cancelAcknowledgement).toContain('<Motivo>03</Motivo>');
  });
});

describe('motivo 01: the replacement first (TipoRelacion 04), then the old one cancelled with FolioSustitucion', () => {
  it('issues the corrected CFDI related to the old UUID and cancels the old one with motivo 01', async () => {
    const number = await invoiced(BIG, 0);
    const [old] = await rowsOf(number);
    const answer = await replaceInvoice(ctx, user, number, { ...form, usoCfdi: 'G01' });
    expect(answer.message).toBe(REPLACED);
    expect(answer.invoice.state).toBe('issued');
    expect(answer.invoice.uuid).not.toBe(old!.uuid);
    const rows = await rowsOf(number);
    expect(
      rows.map((r) => [r.status, r.cancelMotivo, r.substituteUuid, r.relationType, r.relatedUuid]),
    ).toEqual([
      ['cancelled', '01', answer.invoice.uuid, null, null],
      ['issued', null, null, '04', old!.uuid],
    ]);
    const xml = rows[1]!.xml!;
    expect(xml).toContain(
      `<cfdi:CfdiRelacionados TipoRelacion="04"><cfdi:CfdiRelacionado UUID="${old!.uuid}"/></cfdi:CfdiRelacionados>`,
    );
    expect(await validateCfdiXml(xml)).toEqual({ valid: true, errors: [] });
    expect(rows[0]?.cancelAcknowledgement).toContain(
      `<FolioSustitucion>${answer.invoice.uuid}</FolioSustitucion>`,
    );
    await expect(replaceInvoice(ctx, user, number, form)).rejects.toMatchObject({
      message: SELF_SERVICE_LIMIT,
    });
  });

  it('when the receptor must accept, the old one stays replaced (valid) until the follow-up', async () => {
    const number = await invoiced(BIG, 3);
    sandbox.receptorAnswer = () => 'wait';
    await replaceInvoice(ctx, user, number, { ...form, usoCfdi: 'G01' });
    expect((await rowsOf(number)).map((r) => [r.status, r.cancelStatus])).toEqual([
      ['replaced', 'pending'],
      ['issued', null],
    ]);
    sandbox.receptorAnswer = () => 'accept';
    await followUpCancellations(ctx);
    expect((await rowsOf(number)).map((r) => r.status)).toEqual(['cancelled', 'issued']);
  });
});
