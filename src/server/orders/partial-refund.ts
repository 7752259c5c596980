import { eq } from 'drizzle-orm';
import { formatMoney } from '../../shared/money.ts';
import { writeAudit } from '../audit/log.ts';
import type { Tx } from '../db/client.ts';
import { orderRefunds, orders } from '../db/schema.ts';
import { badGateway, conflict, notFound } from '../http/errors.ts';
import type { OrderContext } from './context.ts';
import { ledgerActor } from './ledger.ts';
import { lockOrder, type Order } from './lock.ts';
import { completedPayment } from './payment-records.ts';
import {
  enqueueRefundMail,
  finishCardRefund,
  keepRefund,
  openRefund,
  type RefundRow,
  refundableOf,
  routeOf,
} from './refunds.ts';
import type { ShopperRequest, StaffRequest } from './requester.ts';
import { ORDER_NOT_FOUND } from './rules.ts';

// ——— Staff partial refund ———

export type PartialRefundResult = { refund: RefundRow; outcome: 'refunded' | 'owed' };

/**
 * Staff give back part of a paid order (an amount, or the value of lines they chose, computed by the caller from
 * the order's own prices): by card through Openpay at once, or as money owed to a SPEI/cash buyer. The order
 * keeps its state; a credit note for the amount follows when the order is invoiced (the caller, in the same
 * action). Refused above what is left to refund, on an unpaid order, while a cancellation is in flight.
 */
export async function refundPart(
  ctx: OrderContext,
  number: number,
  who: StaffRequest | ShopperRequest,
  asked:
    | { amountCents: number; reason: string }
    /**
     * Issue 35: what is given up and refunded is decided under the order's lock, in the refund's own transaction
     * (a buyer giving up late backordered units): the change and the money's promise commit together.
     */
    | ((tx: Tx, order: Order) => Promise<{ amountCents: number; reason: string }>),
): Promise<PartialRefundResult> {
  const opened = await ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, number);
    if (!order || (who.kind === 'shopper' && order.userId !== who.userId)) throw notFound(ORDER_NOT_FOUND);
    const request = typeof asked === 'function' ? await asked(tx, order) : asked;
    return openPartialRefund(tx, order, who, request, ctx.publicUrl);
  });
  return completePartialRefund(ctx, opened, who);
}

/**
 * The first half of a partial refund, in the caller's transaction holding the order's lock (a return's refund
 * opens it together with its own state and stock, decision 062): the checks, the refund row with its ledger
 * 'refund_due', the audit row, and for SPEI/cash the buyer's mail. Then `completePartialRefund` after commit.
 */
export async function openPartialRefund(
  tx: Tx,
  order: Order,
  who: StaffRequest | ShopperRequest,
  request: { amountCents: number; reason: string },
  publicUrl: string,
): Promise<RefundRow> {
  const number = order.number;
  if (order.paidAt === null)
    throw conflict('El pedido no está pagado: no hay nada que reembolsar', 'not_paid');
  if (order.cancelledAt !== null && order.status !== 'cancelled')
    throw conflict('La cancelación del pedido está en proceso', 'cancelling');
  const left = await refundableOf(tx, number);
  if (request.amountCents > left)
    throw conflict(
      `El reembolso (${formatMoney(request.amountCents)}) supera lo que queda por reembolsar del pedido (${formatMoney(left)})`,
      'refund_too_large',
    );
  const payment = await completedPayment(tx, number);
  const refund = await openRefund(tx, order, {
    route: routeOf(payment?.method ?? order.paymentMethod),
    amountCents: request.amountCents,
    reason: request.reason,
    actor: ledgerActor(who),
  });
  if (who.kind === 'staff')
    await writeAudit(tx, who.actor, {
      action: 'refund.partial',
      entityType: 'order',
      entityId: number,
      before: null,
      after: {
        refundId: refund.id,
        route: refund.route,
        amountCents: refund.amountCents,
        reason: request.reason,
      },
    });
  if (refund.route !== 'card') await enqueueRefundMail(tx, order, refund, publicUrl);
  return refund;
}

/**
 * The second half, after the opening transaction committed: a card refund asked of Openpay and settled (502 when
 * Openpay refused or did not answer), and the credit note that follows the money (the tax-paper port).
 */
export async function completePartialRefund(
  ctx: OrderContext,
  opened: RefundRow,
  who: StaffRequest | ShopperRequest,
): Promise<PartialRefundResult> {
  const number = opened.orderNumber;
  if (opened.route !== 'card') {
    await ctx.taxPapers?.afterMoneyMoved(number);
    return { refund: opened, outcome: 'owed' };
  }
  const stop = keepRefund(ctx.db, opened.id);
  try {
    const outcome = await finishCardRefund(ctx, opened, ledgerActor(who));
    if (outcome.kind === 'unknown')
      throw badGateway(
        'refund_pending',
        'Openpay no respondió; el reembolso sigue en proceso y se confirmará automáticamente',
      );
    if (outcome.kind === 'refused')
      throw badGateway('refund_failed', `Openpay rechazó el reembolso: ${outcome.message}`);
    const [done] = await ctx.db.select().from(orderRefunds).where(eq(orderRefunds.id, opened.id));
    const order = await ctx.db.select().from(orders).where(eq(orders.number, number));
    await enqueueRefundMail(ctx.db, order[0]!, done!, ctx.publicUrl);
    await ctx.taxPapers?.afterMoneyMoved(number);
    return { refund: done!, outcome: 'refunded' };
  } finally {
    stop();
  }
}
