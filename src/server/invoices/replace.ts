import { and, eq } from 'drizzle-orm';
import type { InvoiceRequest, InvoiceState } from '../../shared/schemas/invoice.ts';
import type { SessionUser } from '../auth/session.ts';
import { invoices } from '../db/schema.ts';
import { conflict } from '../http/errors.ts';
import { cancelRequestOf } from './cancel.ts';
import type { InvoiceRow, InvoicingContext } from './context.ts';
import { correctionBlock } from './corrections.ts';
import { checkReceptor, issueNew } from './issue.ts';
import { type CancelResult, PacError } from './pac/types.ts';
import { invoicesOf, NO_ACTIVE_INVOICE, ownOrder, stateOf } from './state.ts';

export const REPLACED =
  'Emitimos la factura corregida (sustituye a la anterior, relación 04) y solicitamos al SAT la cancelación de la anterior con motivo 01. Le enviamos la nueva por correo con el XML y el PDF.';

/**
 * POST /api/orders/:number/invoice/replace: corrects the invoice the SAT's way for motivo 01 — first a new
 * CFDI with CfdiRelacionados TipoRelacion 04 pointing at the old UUID, then the old one cancelled with motivo
 * 01 and FolioSustitucion = the new UUID. The old row is 'replaced' (still valid at the SAT) until its
 * cancellation lands; if the PAC cannot cancel now or the receptor must accept, followUpCancellations goes on.
 * A shopper corrects once; staff without limit.
 */
export async function replaceInvoice(
  ctx: InvoicingContext,
  user: SessionUser,
  number: number,
  request: InvoiceRequest,
  by: 'shopper' | 'staff' = 'shopper',
): Promise<{ message: string; invoice: InvoiceState }> {
  const order = await ownOrder(ctx.db, user.id, number);
  const rows = await invoicesOf(ctx.db, number);
  const active = rows.find((r) => r.status === 'issued' && r.kind === 'I');
  if (!active?.uuid) throw conflict(NO_ACTIVE_INVOICE, 'no_active_invoice');
  const block = correctionBlock(active, rows, ctx.now(), by);
  if (block) throw conflict(block.message, block.code);
  checkReceptor(ctx, request);
  // Free the order's active slot: the old invoice is 'replaced' while its replacement is issued.
  const [claimed] = await ctx.db
    .update(invoices)
    .set({ status: 'replaced' })
    .where(and(eq(invoices.id, active.id), eq(invoices.status, 'issued')))
    .returning();
  if (!claimed) throw conflict(NO_ACTIVE_INVOICE, 'no_active_invoice');
  let newUuid: string;
  try {
    newUuid = await issueNew(ctx, user, order, request, { tipoRelacion: '04', uuids: [active.uuid] });
  } catch (error) {
    await ctx.db
      .update(invoices)
      .set({ status: 'issued' })
      .where(and(eq(invoices.id, active.id), eq(invoices.status, 'replaced')));
    throw error;
  }
  await ctx.db.update(invoices).set({ substituteUuid: newUuid }).where(eq(invoices.id, active.id));
  await cancelReplaced(ctx, { ...claimed, substituteUuid: newUuid });
  return { message: REPLACED, invoice: stateOf(order, await invoicesOf(ctx.db, number), ctx.now()) };
}

/** Motivo 01 for a 'replaced' invoice; a PAC failure leaves it for followUpCancellations. */
export async function cancelReplaced(
  ctx: InvoicingContext,
  row: InvoiceRow,
): Promise<CancelResult['status'] | null> {
  if (!row.uuid || !row.substituteUuid) return null;
  let result: CancelResult;
  try {
    result = await ctx.pac.cancel(cancelRequestOf(ctx, row, row.uuid, '01'));
  } catch (error) {
    ctx.log?.error(
      {
        order: row.orderNumber,
        uuid: row.uuid,
        detail: error instanceof PacError ? error.detail : String(error),
      },
      'no se pudo cancelar con motivo 01 la factura sustituida; se reintenta en el seguimiento',
    );
    return null;
  }
  const now = ctx.now();
  await ctx.db
    .update(invoices)
    .set(
      result.status === 'cancelled'
        ? {
            status: 'cancelled',
            cancelledAt: now,
            cancelMotivo: '01',
            cancelStatus: null,
            cancelAcknowledgement: result.acknowledgement,
          }
        : {
            cancelStatus: result.status,
            cancelRequestedAt: now,
            cancelMotivo: '01',
            cancelAcknowledgement: result.acknowledgement,
          },
    )
    .where(and(eq(invoices.id, row.id), eq(invoices.status, 'replaced')));
  return result.status;
}
