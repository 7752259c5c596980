import { and, eq, inArray } from 'drizzle-orm';
import { PUBLICO_EN_GENERAL } from '../../shared/sat-catalogs.ts';
import type { CancelMotivo } from '../../shared/sat-motivos.ts';
import type { InvoiceState } from '../../shared/schemas/invoice.ts';
import type { SessionUser } from '../auth/session.ts';
import { invoices } from '../db/schema.ts';
import { AppError, conflict } from '../http/errors.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { type Balances, balancesOf, ledgerActor, recordMovement } from '../orders/ledger.ts';
import { lockOrder } from '../orders/lock.ts';
import type { InvoiceRow, InvoicingContext, OrderRow } from './context.ts';
import { CANCEL_REJECTED, correctionBlock } from './corrections.ts';
import { invoiceCancelledMail } from './mails.ts';
import { type CancelRequest, type CancelResult, PacError } from './pac/types.ts';
import { INVOICE_CANCELLED, invoicesOf, NO_ACTIVE_INVOICE, ownOrder, stateOf } from './state.ts';

/**
 * What the PAC needs to cancel (or follow the cancellation of) an invoice row: the issuer as stamped, the
 * receptor, the total, the motivo and, for a replaced invoice, the UUID that replaces it (FolioSustitucion).
 */
export function cancelRequestOf(
  ctx: InvoicingContext,
  row: InvoiceRow,
  uuid: string,
  motivo: CancelMotivo,
): CancelRequest {
  return {
    uuid,
    issuerRfc: row.snapshot?.emisor.rfc ?? ctx.issuer.rfc,
    receiverRfc: row.rfc,
    totalCents: row.totalCents,
    motivo,
    folioSustitucion: row.substituteUuid ?? undefined,
    issuedAt: row.issuedAt ?? undefined,
  };
}

export const CANCEL_PENDING =
  'Solicitamos la cancelación al SAT. Como la factura supera $1,000 y tiene más de un día, el receptor debe aceptarla (tiene 3 días hábiles para responder); mientras tanto la factura sigue vigente y le avisaremos por correo cuando se resuelva.';

export type CancelOptions = {
  motivo: Exclude<CancelMotivo, '01'>;
  /** A shopper may correct an invoice once (cancel and ask again); staff are not limited. */
  by: 'shopper' | 'staff';
};

/**
 * POST /api/orders/:number/invoice/cancel (shopper: motivo 02) and the staff action (02, 03 the sale did not
 * happen, 04 global invoice): asks the PAC. Cancelled at once → 'cancelled'; "en proceso" (the receptor must
 * accept) → the invoice stays 'issued' with cancel_status 'pending', shown as such, and followUpCancellations
 * finishes it when the SAT answers. Never shown as cancelled before it is.
 */
export async function cancelInvoice(
  ctx: InvoicingContext,
  user: SessionUser,
  number: number,
  options: CancelOptions = { motivo: '02', by: 'shopper' },
): Promise<{ message: string; invoice: InvoiceState }> {
  const order = await ownOrder(ctx.db, user.id, number);
  const rows = await invoicesOf(ctx.db, number);
  const active = rows.find((r) => r.status === 'issued' && r.kind === 'I');
  if (!active?.uuid) return alreadyCancelled(ctx, order);
  const block = correctionBlock(active, rows, ctx.now(), options.by);
  if (block) throw conflict(block.message, block.code);
  const refusal = motivoRefusal(options.motivo, order, active, rows, await balancesOf(ctx.db, number));
  if (refusal) throw conflict(refusal.message, refusal.code);

  let result: CancelResult;
  try {
    result = await ctx.pac.cancel(cancelRequestOf(ctx, active, active.uuid, options.motivo));
  } catch (error) {
    if (error instanceof PacError) {
      ctx.log?.error({ order: number, detail: error.detail }, 'el PAC no canceló la factura');
      throw new AppError(502, 'pac_error', `No se pudo cancelar la factura. ${error.message}`);
    }
    throw error;
  }
  const now = ctx.now();
  if (result.status !== 'cancelled') {
    await ctx.db
      .update(invoices)
      .set({
        cancelStatus: result.status,
        cancelRequestedAt: now,
        cancelMotivo: options.motivo,
        cancelAcknowledgement: result.acknowledgement,
      })
      .where(and(eq(invoices.id, active.id), eq(invoices.status, 'issued')));
    return {
      message: result.status === 'pending' ? CANCEL_PENDING : CANCEL_REJECTED,
      invoice: stateOf(order, await invoicesOf(ctx.db, number), ctx.now()),
    };
  }
  const updated = await markCancelled(ctx, active, user, options.motivo, result.acknowledgement);
  if (!updated) return alreadyCancelled(ctx, order);
  return {
    message:
      options.by === 'shopper'
        ? 'Factura cancelada correctamente. Puede solicitar una nueva factura para este pedido.'
        : 'Factura cancelada correctamente.',
    invoice: stateOf(order, await invoicesOf(ctx.db, number), ctx.now()),
  };
}

/**
 * The motivo must follow the facts (issue 33): the SAT is never told «no se llevó a cabo la operación» about a sale
 * the shop kept, a nominative invoice is never cancelled as «relacionada en una factura global», and an invoice
 * with a live credit note is not cancelled at all (the SAT answers "No cancelable": the related egreso must be
 * cancelled or replaced first). 01 is the outcome of a replacement (replace.ts), not a choice here.
 */
export function motivoRefusal(
  motivo: CancelMotivo,
  order: Pick<OrderRow, 'status'>,
  invoice: InvoiceRow,
  rows: readonly InvoiceRow[],
  balances: Pick<Balances, 'keptCents' | 'paidCents'>,
): { message: string; code: string } | null {
  if (motivo === '04' && invoice.kind === 'I')
    return {
      code: 'motivo_not_applicable',
      message:
        'El motivo 04 («Operación nominativa relacionada en una factura global») es solo para la factura global; esta factura es nominativa. Use 02 para corregir datos o sustitúyala (01).',
    };
  const live = rows.filter((r) => r.kind === 'E' && r.relatedUuid === invoice.uuid && r.status === 'issued');
  if (live.length > 0)
    return {
      code: 'related_documents',
      message: `La factura tiene ${live.length === 1 ? 'una nota de crédito vigente relacionada' : `${live.length} notas de crédito vigentes relacionadas`} (${live.map((r) => r.uuid).join(', ')}); el SAT no cancela una factura con documentos relacionados vigentes. Cancele o sustituya primero la nota de crédito.`,
    };
  if (motivo === '03' && !(order.status === 'cancelled' && balances.keptCents <= 0))
    return {
      code: 'sale_kept',
      message:
        'El motivo 03 («No se llevó a cabo la operación») solo aplica a una venta que se deshizo: el pedido debe estar cancelado y todo su pago reembolsado o por reembolsar. Para corregir datos use el motivo 02 o sustituya la factura (01).',
    };
  return null;
}

export async function markCancelled(
  ctx: InvoicingContext,
  row: InvoiceRow,
  to: { email: string; nombre: string },
  motivo: CancelMotivo,
  acknowledgement: string | null,
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    // The order's lock first, as every writer of its ledger takes it.
    await lockOrder(tx, row.orderNumber);
    const rows = await tx
      .update(invoices)
      .set({
        status: 'cancelled',
        cancelledAt: ctx.now(),
        cancelMotivo: motivo,
        cancelStatus: null,
        cancelAcknowledgement: acknowledgement ?? row.cancelAcknowledgement,
      })
      .where(and(eq(invoices.id, row.id), inArray(invoices.status, ['issued', 'replaced'])))
      .returning({ id: invoices.id });
    if (rows.length > 0 && row.uuid) {
      const onGlobal = row.kind === 'E' && row.rfc === PUBLICO_EN_GENERAL.rfc && row.relatedUuid;
      await recordMovement(tx, row.orderNumber, ledgerActor({ kind: 'system' }), {
        kind: row.kind === 'E' ? 'credit_note_cancelled' : 'invoice_cancelled',
        amountCents: row.totalCents,
        reference: row.uuid,
        detail: {
          motivo,
          ...(row.relatedUuid ? { related: row.relatedUuid } : {}),
          ...(onGlobal ? { global: row.relatedUuid } : {}),
        },
      });
      await enqueueMail(
        tx,
        invoiceCancelledMail(to, { orderNumber: row.orderNumber, uuid: row.uuid, motivo }, ctx.publicUrl),
      );
    }
    return rows.length > 0;
  });
}

/**
 * No valid invoice to cancel: a repeated 'Sí, cancelar factura' (double click, retry after a lost answer, a
 * concurrent request that won) answers with the state reached, as a success; an order never invoiced, or
 * invoiced anew meanwhile (a pending one), is still refused.
 */
async function alreadyCancelled(ctx: InvoicingContext, order: OrderRow) {
  const rows = await invoicesOf(ctx.db, order.number);
  const latest = rows.find((r) => r.kind === 'I');
  if (latest?.status !== 'cancelled') throw conflict(NO_ACTIVE_INVOICE, 'no_active_invoice');
  return { message: INVOICE_CANCELLED, invoice: stateOf(order, rows, ctx.now()) };
}
