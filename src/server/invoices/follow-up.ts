import { and, eq, isNull, lt } from 'drizzle-orm';
import type { CancelMotivo } from '../../shared/sat-motivos.ts';
import { invoices, users } from '../db/schema.ts';
import { cancelRequestOf, markCancelled } from './cancel.ts';
import { type InvoicingContext, staleBefore } from './context.ts';
import { recoverStaleCreditNotes } from './credit-notes.ts';
import { recoverStaleInvoice } from './issue.ts';
import { type CancelResult, PacError } from './pac/types.ts';
import { cancelReplaced } from './replace.ts';

/**
 * Follows the cancellations 'en proceso' until the SAT answers: accepted → cancelled (and the mail); rejected →
 * the invoice stays valid, cancel_status 'rejected' (shown to shopper and staff). Runs on a timer
 * (routes.ts) and in tests; returns what changed. First it finishes the invoices and credit notes a request left
 * 'pending' when it died (a crash, a lost PAC answer) once they are stale (CFDI_PENDING_STALE_MS), so a crash never
 * leaves a 'pendiente' that only the buyer's next request would clear.
 */
export async function followUpCancellations(
  ctx: InvoicingContext,
): Promise<{ cancelled: number; rejected: number; pending: number; recovered: number }> {
  const counts = { cancelled: 0, rejected: 0, pending: 0, recovered: 0 };
  // Invoices and credit notes whose request died: recovered from the PAC (never stamped twice) or dropped.
  const stuck = await ctx.db
    .selectDistinct({ orderNumber: invoices.orderNumber, kind: invoices.kind })
    .from(invoices)
    .where(and(eq(invoices.status, 'pending'), lt(invoices.createdAt, staleBefore(ctx))));
  for (const { orderNumber, kind } of stuck) {
    try {
      const recovered =
        kind === 'I'
          ? await recoverStaleInvoice(ctx, orderNumber)
          : (await recoverStaleCreditNotes(ctx, orderNumber)) !== null;
      if (recovered) counts.recovered++;
    } catch (error) {
      ctx.log?.error(
        { order: orderNumber, kind, detail: error instanceof PacError ? error.detail : String(error) },
        'no se pudo recuperar un CFDI interrumpido; se reintenta en el seguimiento',
      );
    }
  }
  // Replaced invoices whose motivo-01 cancellation did not reach the PAC yet.
  const unsent = await ctx.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.status, 'replaced'), isNull(invoices.cancelStatus)));
  for (const row of unsent) {
    const status = await cancelReplaced(ctx, row);
    if (status === 'cancelled') counts.cancelled++;
    else counts.pending++;
  }
  const pending = await ctx.db.select().from(invoices).where(eq(invoices.cancelStatus, 'pending'));
  for (const row of pending) {
    if (!row.uuid) continue;
    let result: CancelResult;
    try {
      result = await ctx.pac.cancellationStatus(
        cancelRequestOf(ctx, row, row.uuid, (row.cancelMotivo ?? '02') as CancelMotivo),
      );
    } catch (error) {
      ctx.log?.error(
        {
          order: row.orderNumber,
          uuid: row.uuid,
          detail: error instanceof PacError ? error.detail : String(error),
        },
        'no se pudo consultar la cancelación en proceso',
      );
      counts.pending++;
      continue;
    }
    if (result.status === 'pending') {
      counts.pending++;
    } else if (result.status === 'rejected') {
      await ctx.db
        .update(invoices)
        .set({ cancelStatus: 'rejected' })
        .where(and(eq(invoices.id, row.id), eq(invoices.cancelStatus, 'pending')));
      ctx.log?.warn?.(
        { order: row.orderNumber, uuid: row.uuid },
        'el receptor rechazó la cancelación de la factura',
      );
      counts.rejected++;
    } else {
      const [owner] = await ctx.db
        .select({ email: users.email, nombre: users.nombre })
        .from(users)
        .where(eq(users.id, row.userId));
      if (
        owner &&
        (await markCancelled(
          ctx,
          row,
          owner,
          (row.cancelMotivo ?? '02') as CancelMotivo,
          result.acknowledgement,
        ))
      ) {
        counts.cancelled++;
      }
    }
  }
  return counts;
}
