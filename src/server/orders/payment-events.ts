import { and, eq, sql } from 'drizzle-orm';
import { formatMoney } from '../../shared/money.ts';
import type { Tx } from '../db/client.ts';
import { orders, type PaymentState, paymentAlerts, payments } from '../db/schema.ts';
import { type Charge, chargeMatches } from '../payments/gateway.ts';
import type { OrderContext } from './context.ts';
import { hasActiveInvoice } from './invoice-state.ts';
import { balancesFrom, ledgerActor, ledgerOf, recordMovement } from './ledger.ts';
import { lockOrder } from './lock.ts';
import { cardRefundInProgress } from './refunds.ts';
import type { GatewayRequest, SweeperRequest } from './requester.ts';
import { returnStock } from './stock.ts';
import { applyTransition } from './transitions.ts';

/**
 * What happens to a paid order's money after it was paid, as the gateway says (webhook, or any later look at
 * the charge): a refund (also one made in Openpay's dashboard), a chargeback opened, won or lost, the
 * anti-fraud rescoring the charge to declined, the charge cancelled. The order's payment state follows; staff
 * are alerted in the back office (payment_alerts); the goods come back to the shelf when the money is gone
 * and the order has not left (paid/preparing → cancelled, 'order_cancel' ledger rows); an invoice can no longer
 * be issued for a refunded or lost order (invoices read orders.payment_state). One transaction under the order's
 * lock; repeated deliveries change nothing.
 */

const MONEY_GONE: readonly PaymentState[] = ['refunded', 'lost'];
const NOT_SHIPPED = ['paid', 'preparing'];

/** Where the money stands by this charge, or null when the charge says nothing about a paid order. */
export function paymentStateOf(charge: Charge): PaymentState | null {
  switch (charge.status) {
    case 'chargeback_pending':
      return 'in_dispute';
    case 'chargeback_accepted':
      return 'lost';
    case 'refunded':
    case 'cancelled':
      return 'refunded';
    case 'completed':
      if (charge.refundedCents >= charge.amountCents && charge.amountCents > 0) return 'refunded';
      return charge.refundedCents > 0 ? 'partially_refunded' : 'paid';
    default:
      return null;
  }
}

const REASONS: Record<PaymentState, string> = {
  paid: 'El contracargo se resolvió a favor de la tienda: el pago es válido',
  partially_refunded: 'Se hizo un reembolso parcial en Openpay',
  refunded: 'El pago fue reembolsado o cancelado en Openpay',
  in_dispute: 'El cliente abrió un contracargo: no envíe el pedido y envíe la evidencia a Openpay',
  lost: 'Contracargo perdido: el banco devolvió el dinero al cliente',
};

/** A staff alert about an order's money, once per fact (dedupeKey). */
export async function raisePaymentAlert(
  tx: Tx,
  alert: { orderNumber: number; kind: string; message: string; chargeId: string | null; dedupeKey: string },
): Promise<void> {
  await tx.insert(paymentAlerts).values(alert).onConflictDoNothing({ target: paymentAlerts.dedupeKey });
}

/**
 * A paid order's charge changed at the gateway. Returns the order's payment state afterwards, or null when the
 * order is not a paid one (the checkout's settle handles pending orders) or the charge is not this order's.
 */
export async function recordChargeChange(
  ctx: OrderContext,
  number: number,
  charge: Charge,
  who: GatewayRequest | SweeperRequest,
): Promise<PaymentState | null> {
  let moved = false;
  const state = await ctx.db.transaction(async (tx): Promise<PaymentState | null> => {
    const order = await lockOrder(tx, number);
    if (!order?.paymentState) return null;
    // A cancellation of ours is in flight (claimed, refunding): it records its own refund when it finishes (or
    // the sweeper does); touching the payment now would make it miss the completed payment it refunds.
    if (order.cancelledAt !== null && order.status !== 'cancelled') return order.paymentState;
    // A partial refund of ours is being asked of Openpay: its holder (or the sweeper) records it from the answer.
    const refunding = await cardRefundInProgress(tx, number);
    if (refunding) return order.paymentState;
    const [payment] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.orderNumber, number), eq(payments.chargeId, charge.id)))
      .limit(1);
    if (!payment) return null;
    if (!chargeMatches(charge, { orderRef: payment.orderRef, amountCents: payment.amountCents })) {
      ctx.log.error({ order: number, charge: charge.id }, 'el cargo reportado no coincide con el pedido');
      await raisePaymentAlert(tx, {
        orderNumber: number,
        kind: 'foreign_charge',
        message: `El cargo ${charge.id} no coincide con el pedido (importe, moneda o referencia): revíselo en Openpay`,
        chargeId: charge.id,
        dedupeKey: `foreign:${charge.id}`,
      });
      return order.paymentState;
    }
    const state = paymentStateOf(charge);
    if (!state) return order.paymentState;
    const refundedCents =
      state === 'refunded' ? Math.max(charge.refundedCents, payment.amountCents) : charge.refundedCents;
    if (state === order.paymentState && refundedCents === payment.refundedCents) return state;

    await tx
      .update(payments)
      .set({ status: charge.status, refundedCents, updatedAt: sql`now()` })
      .where(eq(payments.id, payment.id));
    // The shop's own cancellation refunds too: once it has ended (cancelled), its refund is no news.
    const ours = order.status === 'cancelled' && state === 'refunded';
    const cancel =
      MONEY_GONE.includes(state) && NOT_SHIPPED.includes(order.status) && order.cancelledAt === null;
    moved = await recordOutsideRefund(tx, number, charge, state, refundedCents, who);
    if (cancel) {
      await applyTransition(tx, order, 'money_gone', who, {
        paymentState: state,
        cancelledAt: sql`now()`,
        cancelReason: state === 'lost' ? 'Contracargo perdido' : 'Pago reembolsado en Openpay',
      });
    } else {
      await tx
        .update(orders)
        .set({ paymentState: state, updatedAt: sql`now()` })
        .where(eq(orders.number, number));
    }
    if (cancel) await returnStock(tx, number, 'order_cancel');
    if (!ours) {
      const invoiced =
        (MONEY_GONE.includes(state) || state === 'partially_refunded') &&
        (await hasActiveInvoice(tx, number));
      const message = [
        REASONS[state],
        cancel ? 'El pedido se canceló y las existencias regresaron al inventario' : null,
        !cancel && MONEY_GONE.includes(state) && !NOT_SHIPPED.includes(order.status)
          ? 'El pedido ya había salido del almacén'
          : null,
        invoiced && cancel
          ? 'La venta no se llevó a cabo: su factura vigente se cancelará ante el SAT con motivo 03 (o, si ya no es posible, se emitirá una nota de crédito)'
          : invoiced && state === 'partially_refunded'
            ? `El pedido tiene una factura vigente: se emite una nota de crédito por lo reembolsado (${formatMoney(refundedCents)} MXN en total)`
            : invoiced
              ? 'El pedido tiene una factura vigente: se emite una nota de crédito por lo devuelto'
              : null,
      ]
        .filter(Boolean)
        .join('. ');
      await raisePaymentAlert(tx, {
        orderNumber: number,
        kind: state,
        message: `${message}.`,
        chargeId: charge.id,
        dedupeKey: `${charge.id}:${state}:${refundedCents}`,
      });
      ctx.log.error(
        { order: number, charge: charge.id, state, by: who.kind },
        'cambio en el pago de un pedido pagado',
      );
    }
    return state;
  });
  if (moved) await ctx.taxPapers?.afterMoneyMoved(number);
  return state;
}

/**
 * Money Openpay reports gone that the ledger does not know (a refund made in Openpay's dashboard, a chargeback
 * lost): written as a card refund due and done, so the balances follow the bank. The difference between what
 * Openpay says was refunded in all and what the ledger holds is the new movement; a repeat finds nothing new.
 */
async function recordOutsideRefund(
  tx: Tx,
  number: number,
  charge: Charge,
  state: PaymentState,
  refundedCents: number,
  who: GatewayRequest | SweeperRequest,
): Promise<boolean> {
  const b = balancesFrom(await ledgerOf(tx, number));
  const gone = state === 'lost' ? b.paidCents : refundedCents;
  const delta = gone - b.refundedByRoute.card;
  if (delta <= 0) return false;
  const actor = ledgerActor(who);
  const reason = state === 'lost' ? 'Contracargo perdido' : 'Reembolso hecho en Openpay';
  const reference = `${charge.id}:${state}:${gone}`;
  await recordMovement(tx, number, actor, {
    kind: 'refund_due',
    amountCents: delta,
    method: 'card',
    reference,
    reason,
  });
  await recordMovement(tx, number, actor, {
    kind: 'refund',
    amountCents: delta,
    method: 'card',
    reference,
    reason,
  });
  return true;
}

/** The unseen alerts of an order, newest first (the back office's order page). */
export async function paymentAlertsOf(db: OrderContext['db'], number: number) {
  return db
    .select()
    .from(paymentAlerts)
    .where(eq(paymentAlerts.orderNumber, number))
    .orderBy(sql`${paymentAlerts.id} desc`);
}
