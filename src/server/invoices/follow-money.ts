import { eq, inArray, sql } from 'drizzle-orm';
import { formatMoney } from '../../shared/money.ts';
import { invoices, orderLedger, orders, users } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { balancesOf } from '../orders/ledger.ts';
import { raisePaymentAlert } from '../orders/payment-events.ts';
import { cancelInvoice } from './cancel.ts';
import type { InvoicingContext } from './context.ts';
import { issueCreditNote } from './credit-notes.ts';
import { PacError } from './pac/types.ts';
import { invoicesOf } from './state.ts';

/**
 * Every tax paper follows the money (decision 045). After money moved on an order — a refund decided or done by
 * any route, a chargeback lost, a cancellation — its CFDI is brought in line with what the ledger says the shop
 * keeps:
 * - the sale undone (the order cancelled, nothing kept) and its invoice alone (no live credit note): the invoice is
 *   cancelled with motivo 03 «No se llevó a cabo la operación» — only then, never for a kept sale;
 * - otherwise (a partial refund, a return after shipping, an invoice past the SAT's cancellation deadline or with
 *   credit notes already): a credit note (egreso, relation 01) for exactly what the papers owe the money;
 * - a sale in a factura global: an egreso to the público en general related to that global, for what went back.
 * Called at once through the orders' TaxPapers port, and for every order whose ledger shows papers behind its
 * money by the invoices' round (a crash, the PAC down). Each step is idempotent: the ledger's balances are read
 * again under the order's lock before a credit note is claimed, and a cancellation already asked is followed up.
 */
export type FollowOutcome =
  | 'nothing'
  | 'cancelled_03'
  | 'cancel_pending'
  | 'credit_note'
  | 'global_credit_note'
  | 'in_progress';

export async function followTheMoney(ctx: InvoicingContext, number: number): Promise<FollowOutcome> {
  const [order] = await ctx.db.select().from(orders).where(eq(orders.number, number));
  if (!order) return 'nothing';
  const b = await balancesOf(ctx.db, number);
  const rows = await invoicesOf(ctx.db, number);
  if (rows.some((r) => r.status === 'pending')) return 'in_progress';
  const active = rows.find((r) => r.status === 'issued' && r.kind === 'I');
  if (active?.uuid) {
    if (b.taxDueCents <= 0) return 'nothing';
    if (active.cancelStatus === 'pending') return 'cancel_pending';
    const liveNotes = rows.filter(
      (r) => r.kind === 'E' && r.relatedUuid === active.uuid && r.status === 'issued',
    );
    const undone = order.status === 'cancelled' && b.keptCents <= 0;
    if (undone && liveNotes.length === 0 && active.cancelStatus !== 'rejected') {
      const outcome = await cancelWith03(ctx, order, active.uuid);
      if (outcome !== 'refused') return outcome;
    }
    const note = await issueCreditNote(ctx, number, {
      amountCents: 'tax_due',
      description: undone
        ? `Devolución total del pedido ${number}`
        : `Devolución parcial del pedido ${number}`,
    });
    if (note) {
      await alert(
        ctx,
        number,
        `credit-note:${note.uuid}`,
        `Se emitió la nota de crédito ${note.uuid} por ${formatMoney(note.totalCents)}: el dinero devuelto del pedido ya tiene su comprobante.`,
      );
      return 'credit_note';
    }
    return 'nothing';
  }
  if (b.globalTaxDueCents > 0) {
    const note = await issueCreditNote(ctx, number, {
      amountCents: 'tax_due',
      target: 'global',
      description: `Devolución de la venta del pedido ${number} incluida en la factura global`,
    });
    if (note) {
      await alert(
        ctx,
        number,
        `global-credit-note:${note.uuid}`,
        `El pedido estaba en la factura global: se emitió la nota de crédito ${note.uuid} al público en general por ${formatMoney(note.totalCents)}, relacionada con la global.`,
      );
      return 'global_credit_note';
    }
  }
  return 'nothing';
}

async function alert(ctx: InvoicingContext, orderNumber: number, key: string, message: string) {
  await ctx.db.transaction((tx) =>
    raisePaymentAlert(tx, {
      orderNumber,
      kind: 'tax_paper',
      message,
      chargeId: null,
      dedupeKey: `tax:${key}`,
    }),
  );
}

/** Motivo 03 for a sale that did not take place; 'refused' when the SAT no longer allows it (a credit note then). */
async function cancelWith03(
  ctx: InvoicingContext,
  order: typeof orders.$inferSelect,
  uuid: string,
): Promise<'cancelled_03' | 'cancel_pending' | 'refused'> {
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
  if (!owner) return 'refused';
  try {
    const answer = await cancelInvoice(ctx, { ...owner, role: 'customer' }, order.number, {
      motivo: '03',
      by: 'staff',
    });
    if (answer.invoice.cancellation === 'pending') {
      await alert(
        ctx,
        order.number,
        `03-pending:${uuid}`,
        `La venta no se llevó a cabo (pedido cancelado y reembolsado): se solicitó al SAT la cancelación de la factura ${uuid} con motivo 03; está en proceso hasta que el receptor la acepte.`,
      );
      return 'cancel_pending';
    }
    if (answer.invoice.cancellation === 'rejected') return 'refused';
    await alert(
      ctx,
      order.number,
      `03:${uuid}`,
      `La venta no se llevó a cabo (pedido cancelado y reembolsado): la factura ${uuid} se canceló ante el SAT con motivo 03.`,
    );
    return 'cancelled_03';
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 409) {
      await alert(
        ctx,
        order.number,
        `03-refused:${uuid}`,
        `No se puede cancelar la factura ${uuid} con motivo 03: ${error.message}. Se emite una nota de crédito por lo devuelto.`,
      );
      return 'refused';
    }
    throw error;
  }
}

/**
 * The invoices' round: every order whose ledger shows money gone back and whose papers do not follow yet — an
 * invoice not credited for what was refunded, a sale in a global not taken back. One order's failure (the PAC
 * down) does not stop the others; they are tried again next round.
 */
export async function followTheMoneyRound(ctx: InvoicingContext): Promise<Record<FollowOutcome, number>> {
  const counts: Record<FollowOutcome, number> = {
    nothing: 0,
    cancelled_03: 0,
    cancel_pending: 0,
    credit_note: 0,
    global_credit_note: 0,
    in_progress: 0,
  };
  const candidates = await ctx.db
    .select({ number: orderLedger.orderNumber })
    .from(orderLedger)
    .where(inArray(orderLedger.kind, ['refund_due', 'refund']))
    .groupBy(orderLedger.orderNumber)
    .having(
      sql`exists (select 1 from ${invoices} i where i.order_number = ${orderLedger.orderNumber} and i.status = 'issued')
        or exists (select 1 from order_ledger g where g.order_number = ${orderLedger.orderNumber} and g.kind = 'global_in')`,
    );
  for (const { number } of candidates) {
    try {
      counts[await followTheMoney(ctx, number)]++;
    } catch (error) {
      ctx.log?.error(
        { order: number, detail: error instanceof PacError ? error.detail : String(error) },
        'el comprobante del dinero devuelto no se emitió; se reintenta en la siguiente vuelta',
      );
    }
  }
  return counts;
}
