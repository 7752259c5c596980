import { formatMoney } from './money.ts';
import type { OrderPaymentMethod } from './payment-methods.ts';

/**
 * How money goes back to a buyer, in the words every screen and mail uses (decision 045). Openpay refunds only
 * card charges; a SPEI transfer or a cash payment at a store is given back by a transfer to the buyer's CLABE
 * (an Openpay payout, or a transfer staff make from the bank and record).
 */
export type RefundRouteName = 'card' | 'payout' | 'transfer';
export type RefundStateName = 'owed' | 'in_progress' | 'done' | 'failed';

export const REFUND_STATE_LABELS: Record<RefundStateName, string> = {
  owed: 'Reembolso pendiente',
  in_progress: 'Reembolso en proceso',
  done: 'Reembolsado',
  failed: 'Reembolso rechazado',
};

/** "a su cuenta CLABE terminada en 1234", or how to give one when it is not known yet. */
export const clabeAccount = (clabeLast4: string | null) =>
  clabeLast4 ? `a su cuenta CLABE terminada en ${clabeLast4}` : 'a la cuenta CLABE que nos indique';

/** One sentence of what happens to the buyer's money, by its real route and state. */
export function refundSentence(refund: {
  route: RefundRouteName;
  state: RefundStateName;
  amountCents: number;
  clabeLast4: string | null;
}): string {
  const amount = formatMoney(refund.amountCents);
  if (refund.route === 'card') {
    if (refund.state === 'done') return `Reembolsamos ${amount} a la tarjeta con la que pagó.`;
    if (refund.state === 'failed') return `El banco rechazó el reembolso de ${amount} a su tarjeta.`;
    return `Estamos reembolsando ${amount} a la tarjeta con la que pagó.`;
  }
  if (refund.state === 'done') return `Le transferimos ${amount} ${clabeAccount(refund.clabeLast4)}.`;
  if (refund.clabeLast4 === null)
    return `Le devolveremos ${amount} por transferencia SPEI ${clabeAccount(null)} en «Mis pedidos».`;
  return `Le devolveremos ${amount} por transferencia SPEI ${clabeAccount(refund.clabeLast4)}.`;
}

/** The route money paid by `method` goes back by: cards through Openpay's refund, SPEI and cash to a CLABE. */
export const refundRouteOf = (method: OrderPaymentMethod): RefundRouteName =>
  method === 'card' ? 'card' : 'payout';

/**
 * What a cancellation will do with the buyer's money, told before they confirm it: the card's refund, or the
 * owed transfer in the same words the receipt and the mail use once it is owed.
 */
export function cancellationRefundSentence(method: OrderPaymentMethod, amountCents: number): string {
  // A sale on credit (decision 060) has no money to give back until it is paid: its balance is what changes.
  if (method === 'credit')
    return 'El importe se descontará del saldo de la cuenta de crédito de la institución.';
  if (refundRouteOf(method) === 'card')
    return `Reembolsaremos ${formatMoney(amountCents)} a la tarjeta con la que pagó.`;
  return refundSentence({ route: 'payout', state: 'owed', amountCents, clabeLast4: null });
}

/** The same for staff, before they cancel an order: where the money left on it goes. */
export function staffCancellationRefundSentence(method: OrderPaymentMethod, amountCents: number): string {
  const amount = formatMoney(amountCents);
  return refundRouteOf(method) === 'card'
    ? `Se reembolsarán ${amount} a la tarjeta del cliente por Openpay.`
    : `Quedarán ${amount} por reembolsar al cliente por transferencia SPEI a su cuenta CLABE («Reembolsos pendientes»).`;
}

/** How a staff partial refund of an order paid by `method` leaves. */
export function staffPartialRefundRouteText(method: OrderPaymentMethod): string {
  return refundRouteOf(method) === 'card'
    ? 'Se reembolsa en el momento a la tarjeta del cliente por Openpay.'
    : 'Queda pendiente y se paga por transferencia SPEI a la cuenta CLABE del cliente.';
}

/** How staff read a refund's route. */
export const REFUND_ROUTE_LABELS: Record<RefundRouteName, string> = {
  card: 'Tarjeta (Openpay)',
  payout: 'Pago Openpay a CLABE',
  transfer: 'Transferencia bancaria',
};
