import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { CancelMotivo } from '../../shared/sat-motivos.ts';
import type { InvoiceState } from '../../shared/schemas/invoice.ts';
import type { SessionUser } from '../auth/session.ts';
import { invoices, orders, users } from '../db/schema.ts';
import { AppError, conflict } from '../http/errors.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { raisePaymentAlert } from '../orders/payment-events.ts';
import { saleUndone } from '../orders/rules.ts';
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

export async function markCancelled(
  ctx: InvoicingContext,
  row: InvoiceRow,
  to: { email: string; nombre: string },
  motivo: CancelMotivo,
  acknowledgement: string | null,
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
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
      await enqueueMail(
        tx,
        invoiceCancelledMail(to, { orderNumber: row.orderNumber, uuid: row.uuid, motivo }, ctx.publicUrl),
      );
    }
    return rows.length > 0;
  });
}

/**
 * Invoices of sales that did not take place (orders/rules.ts, saleUndone: the order cancelled and its money
 * returned — typically a refund made in Openpay's dashboard, which the webhook applies to the order): the CFDI
 * de ingreso still valid is cancelled with the SAT's motivo 03 «No se llevó a cabo la operación», which is what
 * the accountant expects for a sale that was undone (a credit note is for returns and discounts of a sale that
 * did happen). Staff see the outcome as an alert on the order: cancelled, 'en proceso' (the receptor must
 * accept; followUpCancellations goes on) or refused (deadline passed, receptor rejected) with what to do
 * instead — a credit note for the total. Runs on the invoices' timer (routes.ts) and in tests; a PAC that does
 * not answer is asked again on the next round.
 */
export async function cancelInvoicesOfUndoneSales(
  ctx: InvoicingContext,
): Promise<{ cancelled: number; pending: number; refused: number }> {
  const counts = { cancelled: 0, pending: 0, refused: 0 };
  const candidates = await ctx.db
    .select({ invoice: invoices, order: orders })
    .from(invoices)
    .innerJoin(orders, eq(orders.number, invoices.orderNumber))
    .where(
      and(
        eq(invoices.kind, 'I'),
        eq(invoices.status, 'issued'),
        isNull(invoices.cancelStatus),
        eq(orders.status, 'cancelled'),
      ),
    );
  for (const { invoice, order } of candidates) {
    if (!saleUndone(order) || !invoice.uuid) continue;
    const alert = (outcome: string, message: string) =>
      ctx.db.transaction((tx) =>
        raisePaymentAlert(tx, {
          orderNumber: order.number,
          kind: 'invoice_motivo_03',
          message,
          chargeId: null,
          dedupeKey: `invoice-03:${invoice.uuid}:${outcome}`,
        }),
      );
    const [owner] = await ctx.db
      .select({
        id: users.id,
        email: users.email,
        nombre: users.nombre,
        apellidoPat: users.apellidoPat,
        apellidoMat: users.apellidoMat,
        telefono: users.telefono,
      })
      .from(users)
      .where(eq(users.id, order.userId));
    if (!owner) continue;
    try {
      const answer = await cancelInvoice(ctx, { ...owner, role: 'customer' }, order.number, {
        motivo: '03',
        by: 'staff',
      });
      const state = answer.invoice.cancellation;
      if (state === 'pending') {
        counts.pending++;
        await alert(
          'pending',
          `La venta no se llevó a cabo (pedido cancelado y reembolsado): se solicitó al SAT la cancelación de la factura ${invoice.uuid} con motivo 03; está en proceso hasta que el receptor la acepte.`,
        );
      } else if (state === 'rejected') {
        counts.refused++;
        await alert(
          'rejected',
          `El receptor rechazó la cancelación con motivo 03 de la factura ${invoice.uuid}: emita una nota de crédito por el total.`,
        );
      } else {
        counts.cancelled++;
        await alert(
          'cancelled',
          `La venta no se llevó a cabo (pedido cancelado y reembolsado): la factura ${invoice.uuid} se canceló ante el SAT con motivo 03.`,
        );
      }
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 409) {
        // The SAT's deadline passed (or a cancellation is already under way): a credit note instead.
        counts.refused++;
        await alert(
          'refused',
          `No se puede cancelar la factura ${invoice.uuid} con motivo 03: ${error.message}. Emita una nota de crédito por el total.`,
        );
        continue;
      }
      ctx.log?.error(
        {
          order: order.number,
          uuid: invoice.uuid,
          detail: error instanceof PacError ? error.detail : String(error),
        },
        'no se pudo cancelar con motivo 03 la factura de una venta que no se llevó a cabo; se reintenta',
      );
    }
  }
  return counts;
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
