import { and, eq } from 'drizzle-orm';
import type { SessionUser } from '../auth/session.ts';
import { type InvoiceSnapshot, invoices } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import type { InvoicingContext } from './context.ts';
import { renderInvoicePdf } from './pdf.ts';
import { fileBaseOf } from './stamping.ts';
import { invoicesOf, NO_INVOICE, ownOrder } from './state.ts';

/** The stamped XML and the printed PDF of an order's invoice and credit notes. */

/** The PDF of a stamped invoice or credit note as its row keeps it (also the accountant's ZIP). */
export function storedInvoicePdf(
  row: Pick<
    typeof invoices.$inferSelect,
    'orderNumber' | 'status' | 'test' | 'cancelledAt' | 'cancelMotivo'
  > & { uuid: string; snapshot: InvoiceSnapshot },
): Promise<Uint8Array> {
  return renderInvoicePdf({
    orderNumber: row.orderNumber,
    uuid: row.uuid,
    status: row.status === 'cancelled' ? 'cancelled' : 'issued',
    test: row.test,
    cancelledAt: row.cancelledAt,
    cancelMotivo: row.cancelMotivo,
    snapshot: row.snapshot,
  });
}

/** One stamped credit note of the order by its UUID (admin downloads). */
async function creditNoteOf(ctx: InvoicingContext, number: number, uuid: string) {
  const [row] = await ctx.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderNumber, number), eq(invoices.kind, 'E'), eq(invoices.uuid, uuid)));
  if (!row?.xml || !row.snapshot || !row.uuid) throw notFound('Nota de crédito no encontrada');
  return { ...row, xml: row.xml, snapshot: row.snapshot, uuid: row.uuid };
}

export async function getCreditNoteXml(ctx: InvoicingContext, number: number, uuid: string) {
  const row = await creditNoteOf(ctx, number, uuid);
  return {
    xml: row.xml,
    filename: `${fileBaseOf(row.snapshot, row.uuid)}.xml`,
  };
}

export async function getCreditNotePdf(ctx: InvoicingContext, number: number, uuid: string) {
  const row = await creditNoteOf(ctx, number, uuid);
  const pdf = await storedInvoicePdf(row);
  return {
    pdf,
    filename: `${fileBaseOf(row.snapshot, row.uuid)}.pdf`,
  };
}

/** A credit note's XML for the shopper who owns the order (another shopper's order answers 404, as a missing one). */
export async function getOwnCreditNoteXml(
  ctx: InvoicingContext,
  user: SessionUser,
  number: number,
  uuid: string,
) {
  await ownOrder(ctx.db, user.id, number);
  return getCreditNoteXml(ctx, number, uuid);
}

/** A credit note's PDF for the shopper who owns the order. */
export async function getOwnCreditNotePdf(
  ctx: InvoicingContext,
  user: SessionUser,
  number: number,
  uuid: string,
) {
  await ownOrder(ctx.db, user.id, number);
  return getCreditNotePdf(ctx, number, uuid);
}

/** The invoice whose files the downloads serve: the active one, else the latest cancelled one. */
async function downloadable(ctx: InvoicingContext, user: SessionUser, number: number) {
  await ownOrder(ctx.db, user.id, number);
  const rows = (await invoicesOf(ctx.db, number)).filter((r) => r.kind === 'I');
  const row = rows.find((r) => r.status === 'issued') ?? rows.find((r) => r.status === 'cancelled');
  if (!row?.xml || !row.snapshot || !row.uuid) throw notFound(NO_INVOICE);
  return { ...row, xml: row.xml, snapshot: row.snapshot, uuid: row.uuid };
}

export async function getInvoiceXml(ctx: InvoicingContext, user: SessionUser, number: number) {
  const row = await downloadable(ctx, user, number);
  return { xml: row.xml, filename: `${fileBaseOf(row.snapshot, row.uuid)}.xml` };
}

export async function getInvoicePdf(ctx: InvoicingContext, user: SessionUser, number: number) {
  const row = await downloadable(ctx, user, number);
  const pdf = await storedInvoicePdf(row);
  return { pdf, filename: `${fileBaseOf(row.snapshot, row.uuid)}.pdf` };
}
