import { AWAITING_PAYMENT_LABEL, isDelayed } from '../../shared/payment-methods.ts';
import { NO_GUIDE, ORDER_STATUS_LABELS, type OrderStatus } from '../../shared/schemas/orders.ts';
import type { CancelRequest } from '../db/schema.ts';
import { type AppError, conflict } from '../http/errors.ts';
import type { Order } from './lock.ts';
import type { ShopperRequest, StaffRequest } from './requester.ts';
import { fromStates, TRANSITIONS, transitionFor } from './transitions.ts';

/** The rules of an order's life that the shopper's history, the back office and the transitions share. */

export const ORDER_NOT_FOUND = 'Pedido no encontrado';
export const AFTER_PAYMENT: readonly OrderStatus[] = [
  'paid',
  'on_credit',
  'preparing',
  'partially_shipped',
  'shipped',
  'delivered',
];

export const statusLabel = (status: OrderStatus) => ORDER_STATUS_LABELS[status] ?? status;
export const guideOf = (guide: string | null) => (guide && guide.trim() !== '' ? guide : NO_GUIDE);
export const hasGuide = (guide: string | null) => guideOf(guide) !== NO_GUIDE;

/** Why a cancellation with refund is refused. */
export type CancelRefusal = 'already_cancelled' | 'not_paid' | 'shipped' | 'invoiced' | 'cancelling';

type CancelRule = {
  /** The statuses a cancellation may start from. */
  from: readonly OrderStatus[];
  /** Which refusal is told first when several hold. */
  refusalOrder: readonly CancelRefusal[];
  messages: Record<CancelRefusal, string>;
  code(refusal: CancelRefusal): string;
};

/** A shopper cancels their own paid order; they are told why not in their words. */
const SHOPPER_RULE: CancelRule = {
  from: fromStates('cancel', 'shopper'),
  refusalOrder: ['already_cancelled', 'invoiced', 'not_paid', 'shipped', 'cancelling'],
  messages: {
    already_cancelled: 'El pedido ya está cancelado',
    invoiced: 'La factura del pedido se está generando; intente cancelar en un momento',
    not_paid: 'Solo se pueden cancelar pedidos pagados',
    shipped: 'El pedido ya fue enviado y no se puede cancelar',
    cancelling: 'La cancelación del pedido ya está en proceso',
  },
  code: (refusal) => refusal,
};

/** Staff also cancel an order in preparation (with a reason, audited). */
const STAFF_RULE: CancelRule = {
  from: fromStates('cancel', 'staff'),
  refusalOrder: ['already_cancelled', 'not_paid', 'shipped', 'invoiced', 'cancelling'],
  messages: {
    already_cancelled: 'El pedido ya está cancelado',
    not_paid: 'Solo se pueden cancelar con reembolso pedidos pagados',
    shipped: 'El pedido ya fue enviado; no se puede cancelar',
    invoiced: 'La factura del pedido se está generando; intente cancelar en un momento',
    cancelling: 'La cancelación del pedido ya está en proceso',
  },
  code: () => 'not_cancellable',
};

/** Every status some cancellation may start from (what a claimed order can be in). */
export const CANCELLABLE: readonly OrderStatus[] = STAFF_RULE.from;

type CancelFacts = Pick<Order, 'status' | 'trackingGuide' | 'cancelledAt'>;

/**
 * A repeated cancellation (a double click, a retry after a lost answer): the order is already cancelled at this
 * requester's own request — the same shopper, or the same staff member. The request answers with the state it
 * asked for, as a success; an order someone else cancelled is still refused ('El pedido ya está cancelado').
 */
export function alreadyCancelledBy(
  order: Pick<Order, 'status' | 'cancelRequest'>,
  request: CancelRequest,
): boolean {
  const done = order.cancelRequest;
  if (order.status !== 'cancelled' || !done || done.by !== request.by) return false;
  return request.by === 'shopper' || (done.actor?.userId ?? null) === (request.actor?.userId ?? null);
}

/**
 * The one cancellation rule: the refusal this rule tells for the order, or null when it may be cancelled.
 * Nobody cancels an order that is invoiced (or being invoiced), has a tracking guide, was not paid, or is
 * already cancelled or being cancelled.
 */
function refusalOf(order: CancelFacts, invoiced: boolean, rule: CancelRule): CancelRefusal | null {
  const holds: Record<CancelRefusal, boolean> = {
    already_cancelled: order.status === 'cancelled',
    not_paid: !AFTER_PAYMENT.includes(order.status),
    shipped: !rule.from.includes(order.status) || hasGuide(order.trackingGuide),
    invoiced,
    cancelling: order.cancelledAt !== null,
  };
  return rule.refusalOrder.find((refusal) => holds[refusal]) ?? null;
}

/** 'Cancelar pedido' in the shopper's history (invoiced: an invoice being stamped right now). */
export const shopperMayCancel = (order: CancelFacts, invoiced: boolean) =>
  refusalOf(order, invoiced, SHOPPER_RULE) === null;

/**
 * A claimed cancellation (issue 22): the claim is committed (cancelledAt, cancelRequest) and the refund and the
 * finish are under way — by the request, or by the sweeper after a crash. From that moment the order is shown as
 * 'Cancelación en proceso', is not cancellable again and cannot be invoiced.
 */
export const CANCELLING_LABEL = 'Cancelación en proceso';
export const isCancelling = (order: Pick<Order, 'status' | 'cancelledAt'>) =>
  order.cancelledAt !== null && CANCELLABLE.includes(order.status);

/**
 * The status as shopper and staff read it: 'Cancelación en proceso' while a cancellation is claimed; 'Pendiente
 * de pago' while a SPEI or store payment is awaited (issue 21).
 */
export const orderStatusLabel = (
  order: Pick<Order, 'status' | 'cancelledAt'> & { paymentMethod?: string | null; deliveryMethod?: string },
) =>
  isCancelling(order)
    ? CANCELLING_LABEL
    : order.status === 'pending_payment' && isDelayed(order.paymentMethod)
      ? AWAITING_PAYMENT_LABEL
      : order.deliveryMethod === 'pickup' && PICKUP_LABELS[order.status]
        ? PICKUP_LABELS[order.status]!
        : statusLabel(order.status);

/** 'Recoger en sucursal' (issue 35): a shipment to a branch reads as ready there, a delivery as collected. */
const PICKUP_LABELS: Partial<Record<OrderStatus, string>> = {
  partially_shipped: 'Listo para recoger (parcial)',
  shipped: 'Listo para recoger',
  delivered: 'Recogido',
};

/**
 * Why the order's own state forbids an invoice now (the invoices feature words it), or null. Invoice issuance
 * checks it twice: before the work, and again under the order's row lock (lockOrder) when it claims the invoice,
 * where a cancellation decides too — so an invoice is never issued for an order whose refund is claimed or done.
 */
export type InvoiceBlock = 'cancelled' | 'cancelling' | 'refunded' | 'in_dispute' | 'not_paid';
export function invoiceBlock(
  order: Pick<Order, 'status' | 'cancelledAt' | 'paidAt' | 'paymentState' | 'paymentMethod'>,
): InvoiceBlock | null {
  if (order.status === 'cancelled') return 'cancelled';
  if (order.cancelledAt !== null) return 'cancelling';
  // The gateway's word after the payment (issue 14): no invoice for money that went back or is disputed.
  if (order.paymentState === 'refunded' || order.paymentState === 'lost') return 'refunded';
  if (order.paymentState === 'in_dispute') return 'in_dispute';
  // A sale on credit (decision 060) is invoiced (PPD) before its money: confirmed is enough.
  if (!AFTER_PAYMENT.includes(order.status)) return 'not_paid';
  if (order.paidAt === null && order.paymentMethod !== 'credit') return 'not_paid';
  return null;
}

/**
 * The sale did not take place: the order was cancelled and its money went back (our refund, a refund or
 * rescoring in Openpay's dashboard, a chargeback lost before the goods left). A CFDI de ingreso still valid
 * for it is cancelled with the SAT's motivo 03 «No se llevó a cabo la operación» (the invoices feature acts on
 * it, decision 024). A refund after shipping is a return, not this: a credit note (egreso) covers it.
 */
export const saleUndone = (order: Pick<Order, 'status' | 'paymentState'>) =>
  order.status === 'cancelled' && (order.paymentState === 'refunded' || order.paymentState === 'lost');

/** The fulfilment steps (paid → preparing → shipped → delivered): their states are the transition table's. */
export const STEPS = {
  prepare: { action: 'order.prepare' },
  ship: { action: 'order.ship' },
  deliver: { action: 'order.deliver' },
} as const;
export type FulfilmentStep = keyof typeof STEPS;
export const stepOf = (step: FulfilmentStep) => {
  const t = TRANSITIONS.find((x) => x.event === step)!;
  return { from: t.from[0]!, to: t.to };
};

/** An order being cancelled (claimed) does not move forward until the cancellation ends. */
export const mayAdvance = (order: Pick<Order, 'status' | 'cancelledAt'>, step: FulfilmentStep) =>
  transitionFor(order.status, step, 'staff') !== null &&
  (order.cancelledAt === null || order.status === 'shipped');

/** The back office's buttons, and the reason beside a disabled 'Cancelar' (invoiced: being stamped). */
export function staffActions(order: CancelFacts, invoiced: boolean) {
  const refusal = refusalOf(order, invoiced, STAFF_RULE);
  return {
    prepare: mayAdvance(order, 'prepare'),
    ship: mayAdvance(order, 'ship'),
    deliver: mayAdvance(order, 'deliver'),
    cancel: refusal === null,
    cancelBlockedReason: refusal ? STAFF_RULE.messages[refusal] : null,
  };
}

export const SHOPPER_CANCEL_REASON = 'Cancelado por el cliente';

/** A cancellation as one requester asks for it: the rule that applies to them and what is stored with the claim. */
export type CancelPolicy = {
  /** Stored on the order with the claim: whoever finishes the cancellation uses this reason and actor. */
  request: CancelRequest;
  from: readonly OrderStatus[];
  /** Only this user's orders (others' answer like missing ones); null: any order. */
  ownerId: number | null;
  /** The refusal to tell, or null when the order may be cancelled now. */
  check(order: CancelFacts, invoiced: boolean): AppError | null;
  refundFailedMessage: string;
  /** The gateway did not answer the refund: the claim stays and the sweeper finishes it. */
  refundPendingMessage: string;
};

export function cancelPolicy(who: ShopperRequest | (StaffRequest & { reason: string })): CancelPolicy {
  const rule = who.kind === 'shopper' ? SHOPPER_RULE : STAFF_RULE;
  const check = (order: CancelFacts, invoiced: boolean) => {
    const refusal = refusalOf(order, invoiced, rule);
    return refusal ? conflict(rule.messages[refusal], rule.code(refusal)) : null;
  };
  if (who.kind === 'shopper') {
    return {
      request: { by: 'shopper', reason: SHOPPER_CANCEL_REASON, actor: null },
      from: rule.from,
      ownerId: who.userId,
      check,
      refundFailedMessage: 'No se pudo procesar el reembolso con el banco. Intente de nuevo en unos minutos.',
      refundPendingMessage:
        'El banco no respondió a tiempo. Su cancelación sigue en proceso y la terminaremos en unos momentos.',
    };
  }
  return {
    request: { by: 'staff', reason: who.reason, actor: who.actor },
    from: rule.from,
    ownerId: null,
    check,
    refundFailedMessage:
      'No se pudo procesar el reembolso con el banco; el pedido sigue sin cancelar. Intente de nuevo en unos minutos.',
    refundPendingMessage:
      'El banco no respondió a tiempo; la cancelación sigue en proceso y se terminará automáticamente en unos momentos.',
  };
}
