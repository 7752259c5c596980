import { eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { ORDER_STATUS_LABELS, type OrderStatus } from '../../shared/schemas/orders.ts';
import type { Tx } from '../db/client.ts';
import { orders } from '../db/schema.ts';
import { conflict } from '../http/errors.ts';
import type { Order } from './lock.ts';
import type { Requester } from './requester.ts';

/**
 * The one table of an order's life (decision 045; decision 010's table is generated from it by
 * `npm run docs:transitions`): state × event × who → next state. Every change of `orders.status` goes through
 * `applyTransition`, under the order's row lock, whoever asks — the shopper, staff, the sweeper, the gateway's
 * word. The guards that need more than the state (the cancellation rule, an invoice, a tracking guide) are told by
 * the transition's own function before it applies; this table says which moves exist at all and who may make them.
 */
export type OrderEvent =
  | 'pay'
  | 'confirm_on_credit'
  | 'decline'
  | 'payment_error'
  | 'expire_unpaid'
  | 'abandon'
  | 'prepare'
  | 'ship'
  | 'dispatch_partial'
  | 'dispatch'
  | 'drop_backorder'
  | 'deliver'
  | 'cancel'
  | 'money_gone';

type Who = Requester['kind'];

export type Transition = {
  event: OrderEvent;
  from: readonly OrderStatus[];
  to: OrderStatus;
  who: readonly Who[];
  /** The function that applies it (documentation). */
  by: string;
  /** Written in the same transaction (documentation). */
  writes: string;
};

export const TRANSITIONS: readonly Transition[] = [
  {
    event: 'pay',
    from: ['pending_payment'],
    to: 'paid',
    who: ['gateway', 'sweeper'],
    by: 'markPaid',
    writes: "ledger 'charge', payment row, 'Compra realizada' mail, bought items out of the saved cart",
  },
  {
    event: 'confirm_on_credit',
    from: ['pending_payment'],
    to: 'on_credit',
    who: ['shopper'],
    by: 'confirmOnCredit (credit/confirm.ts)',
    writes:
      "an institution's order placed on its credit line (decision 060): stock kept, ledger 'credit_sale' (written with the order), 'Pedido confirmado a crédito' mail",
  },
  {
    event: 'decline',
    from: ['pending_payment'],
    to: 'payment_failed',
    who: ['gateway', 'sweeper', 'shopper'],
    by: 'markPaymentFailed',
    writes: "stock back ('order_release'), payment row",
  },
  {
    event: 'payment_error',
    from: ['pending_payment'],
    to: 'cancelled',
    who: ['gateway', 'sweeper'],
    by: 'markPaymentError',
    writes: "stock back ('order_release'), payment row 'error' (nothing charged)",
  },
  {
    event: 'expire_unpaid',
    from: ['pending_payment'],
    to: 'cancelled',
    who: ['gateway', 'sweeper'],
    by: 'expireAwaitingPayment',
    writes: "SPEI/store deadline passed: stock back ('order_release'), payment 'expired', mail",
  },
  {
    event: 'abandon',
    from: ['pending_payment'],
    to: 'cancelled',
    who: ['shopper', 'staff'],
    by: 'abandonUnpaidOrder (buyer), releaseUnpaidOrder (staff)',
    writes:
      "SPEI/store order given up before paying: stock back ('order_release'), mail, audit row for staff",
  },
  {
    event: 'prepare',
    from: ['paid', 'on_credit'],
    to: 'preparing',
    who: ['staff'],
    by: 'advanceOrder',
    writes: 'audit row',
  },
  {
    event: 'ship',
    from: ['preparing'],
    to: 'shipped',
    who: ['staff'],
    by: 'advanceOrder',
    writes: 'guide, carrier, date, the whole order as one shipment, shipped mail, audit row',
  },
  {
    event: 'dispatch_partial',
    from: ['paid', 'on_credit', 'preparing', 'partially_shipped'],
    to: 'partially_shipped',
    who: ['staff'],
    by: 'createShipment, readyForPickup (src/server/shipments/)',
    writes: 'shipment and its lines, lines shipped, shipment mail, audit row (units are left to ship)',
  },
  {
    event: 'dispatch',
    from: ['paid', 'on_credit', 'preparing', 'partially_shipped'],
    to: 'shipped',
    who: ['staff'],
    by: 'createShipment, readyForPickup (src/server/shipments/)',
    writes: 'shipment and its lines, lines shipped, shipment mail, audit row (the last units left)',
  },
  {
    event: 'drop_backorder',
    from: ['partially_shipped'],
    to: 'shipped',
    who: ['shopper'],
    by: 'cancelLateBackorder (src/server/shipments/late.ts)',
    writes:
      "the late backordered units given up, refund through refundPart (ledger 'refund_due'/'refund'), nothing left to send",
  },
  {
    event: 'deliver',
    from: ['shipped'],
    to: 'delivered',
    who: ['staff'],
    by: 'advanceOrder, markShipmentDelivered, collectPickup (the last shipment delivered)',
    writes: 'shipments delivered, audit row (a pickup: who collected it)',
  },
  {
    event: 'cancel',
    from: ['paid'],
    to: 'cancelled',
    who: ['shopper'],
    by: 'cancelOrder',
    writes:
      "stock back ('order_cancel'), ledger 'refund_due' and 'refund' (card) or money owed (SPEI, cash), mail",
  },
  {
    event: 'cancel',
    from: ['paid', 'preparing'],
    to: 'cancelled',
    who: ['staff', 'sweeper'],
    by: 'cancelOrder (card: claim, refund, finish; the sweeper finishes a crashed one)',
    writes:
      "stock back ('order_cancel'), ledger 'refund_due' and 'refund' (card) or money owed (SPEI, cash), mail, audit row for staff",
  },
  {
    event: 'money_gone',
    from: ['paid', 'preparing'],
    to: 'cancelled',
    who: ['gateway', 'sweeper'],
    by: 'recordChargeChange',
    writes:
      "refund or lost chargeback reported by Openpay: ledger 'refund', stock back ('order_cancel'), staff alert",
  },
];

/** The transition an event makes from this state for this requester, or null when there is none. */
export function transitionFor(status: OrderStatus, event: OrderEvent, who: Who): Transition | null {
  return TRANSITIONS.find((t) => t.event === event && t.from.includes(status) && t.who.includes(who)) ?? null;
}

/** The states an event may start from for this requester. */
export const fromStates = (event: OrderEvent, who: Who): readonly OrderStatus[] =>
  TRANSITIONS.filter((t) => t.event === event && t.who.includes(who)).flatMap((t) => t.from);

/**
 * Applies an event to a locked order (the caller holds lockOrder in `tx`): the new status and the columns that go
 * with it, in one UPDATE. A move the table does not have is refused with 409 'invalid_transition' naming both
 * states, and nothing is written.
 */
export async function applyTransition(
  tx: Tx,
  order: Order,
  event: OrderEvent,
  who: Requester,
  set: Omit<PgUpdateSetSource<typeof orders>, 'status' | 'updatedAt'> = {},
): Promise<Order> {
  const transition = transitionFor(order.status, event, who.kind);
  if (!transition) {
    throw conflict(
      `El pedido #${order.number} está «${ORDER_STATUS_LABELS[order.status] ?? order.status}»: no se puede ${EVENT_VERBS[event]}`,
      'invalid_transition',
    );
  }
  const [after] = await tx
    .update(orders)
    .set({ ...set, status: transition.to, updatedAt: sql`now()` })
    .where(eq(orders.number, order.number))
    .returning();
  return after!;
}

const EVENT_VERBS: Record<OrderEvent, string> = {
  pay: 'marcar como pagado',
  confirm_on_credit: 'confirmar a crédito',
  decline: 'marcar el pago como rechazado',
  payment_error: 'liberar por un error del pago',
  expire_unpaid: 'vencer por falta de pago',
  abandon: 'abandonar',
  prepare: 'marcar «En preparación»',
  ship: 'marcar «Enviado»',
  dispatch_partial: 'registrar un envío',
  dispatch: 'registrar un envío',
  drop_backorder: 'cancelar lo pendiente sobre pedido',
  deliver: 'marcar «Entregado»',
  cancel: 'cancelar',
  money_gone: 'cancelar por un reembolso en Openpay',
};

/** Decision 010's table, made from TRANSITIONS (scripts/transitions-table.ts writes it; a test compares). */
export function transitionsMarkdown(): string {
  const rows = TRANSITIONS.map(
    (t) =>
      `| ${t.from.join(', ')} → ${t.to} | \`${t.event}\` | ${t.who.join(', ')} | ${t.by} | ${t.writes} |`,
  );
  return [
    '| Transition | Event | Who | Function | Writes with it, in one transaction |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
