import { formatMoney } from './money.ts';

/**
 * Buying on account (issue 34, decision 060): the words and the arithmetic the buyer's screens, the staff's and the
 * server share. Money in centavos; the server decides, the screens only show.
 */

/** The checkout's option for an institution with a credit line. */
export const creditOptionLabel = (days: number) => `A crédito (${days} días)`;

export const CREDIT_NO_LINE =
  'La institución no tiene línea de crédito autorizada. Pague con tarjeta o transferencia, o pida a la tienda una línea de crédito.';
export const CREDIT_NOT_VERIFIED =
  'La institución aún no está verificada por la tienda; mientras tanto puede pagar con tarjeta o transferencia.';
export const CREDIT_NO_INVOICE_PROFILE =
  'Un pedido a crédito se factura a la institución con sus datos fiscales; no elija otros datos de facturación.';

/** The order does not fit the available credit: says by how much. */
export const creditShortBy = (shortCents: number, availableCents: number) =>
  `El pedido excede por ${formatMoney(shortCents)} el crédito disponible de la institución (${formatMoney(availableCents)}). Pague con tarjeta o transferencia, o liquide facturas pendientes.`;

/** Any invoice past its due date with a balance puts the account on hold. */
export const creditOnHold = (count: number, overdueCents: number) =>
  `La cuenta de crédito está suspendida: tiene ${count === 1 ? 'una factura vencida' : `${count} facturas vencidas`} por ${formatMoney(overdueCents)}. Mientras tanto puede pagar sus pedidos con tarjeta o transferencia; el crédito se reactiva al registrar el pago.`;

/** Aging buckets of an estado de cuenta: days past the due date (not yet due counts as 0–30). */
export const AGING_BUCKETS = [
  { key: 'd0_30', label: '0–30 días' },
  { key: 'd31_60', label: '31–60 días' },
  { key: 'd61_90', label: '61–90 días' },
  { key: 'd90_plus', label: 'Más de 90 días' },
] as const;
export type AgingKey = (typeof AGING_BUCKETS)[number]['key'];

export function agingBucket(daysPastDue: number): AgingKey {
  if (daysPastDue <= 30) return 'd0_30';
  if (daysPastDue <= 60) return 'd31_60';
  if (daysPastDue <= 90) return 'd61_90';
  return 'd90_plus';
}
