import { addBusinessDays } from './business-days.ts';
import { fromMexicoWallClock, mexicoCityDate } from './mexico-time.ts';
import { shop } from './shop.ts';

/**
 * How an order is paid (issue 21): by card (at once, optionally on meses sin intereses), by SPEI transfer to a
 * CLABE Openpay gives for the order, or in cash at a store with a Paynet reference. One vocabulary everywhere:
 * the order, the payment attempt and Openpay's charge (`method` card / bank_account / store) map onto it.
 */
export const PAYMENT_METHODS = ['card', 'spei', 'cash'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export type DelayedMethod = Exclude<PaymentMethod, 'card'>;

/**
 * How an order may be settled: one of the gateway's methods, or 'credit' — an institution's order placed on its
 * credit line (issue 34, decision 060), invoiced PPD and paid later by transfer. Never offered to a person.
 */
export type OrderPaymentMethod = PaymentMethod | 'credit';

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  card: 'Tarjeta de crédito o débito',
  spei: 'Transferencia SPEI',
  cash: 'Efectivo en tienda',
};

export const ORDER_PAYMENT_METHOD_LABELS: Record<OrderPaymentMethod, string> = {
  ...PAYMENT_METHOD_LABELS,
  credit: 'A crédito',
};

export const isDelayed = (method: PaymentMethod | string | null | undefined): method is DelayedMethod =>
  method === 'spei' || method === 'cash';

/** The least a delayed payment is given: the hours of config/shop.json (see delayedPaymentDeadline). */
export function delayedHoldHours(method: DelayedMethod): number {
  return method === 'spei' ? shop.paymentMethods.speiHours : shop.paymentMethods.storeHours;
}

/**
 * The one definition of a SPEI/store reference's deadline (decision 053) — the order's payment_due_at, its stock
 * hold and the Openpay charge's due_date: at least the configured hours after `placedAt`, then on to the close
 * (23:59:59, Mexico City time) of that day if it is a business day, or of the next business day
 * (src/shared/business-days.ts: weekends and the LFT's rest days). An order on Saturday at 03:14 with 48 h is
 * due on Monday at 23:59:59, not at 03:14 — a buyer's accounts department pays on business days.
 * Whole seconds, as Openpay keeps due_date.
 */
export function delayedPaymentDeadline(method: DelayedMethod, placedAt: Date): Date {
  const earliest = new Date(placedAt.getTime() + delayedHoldHours(method) * 3_600_000);
  const day = addBusinessDays(mexicoCityDate(earliest), 0);
  return fromMexicoWallClock(`${day}T23:59:59`);
}

/** The meses sin intereses plans a card purchase of this total may use (none below the configured amount). */
export function msiOptions(totalCents: number): readonly number[] {
  return totalCents >= shop.paymentMethods.msi.minCents ? shop.paymentMethods.msi.months : [];
}

/** The status label of an order waiting on a transfer or a store payment. */
export const AWAITING_PAYMENT_LABEL = 'Pendiente de pago';

/** A payment deadline as the buyer reads it (the shop's time zone, Guadalajara = Ciudad de México time). */
export function formatDeadline(iso: string | Date): string {
  return `${new Intl.DateTimeFormat('es-MX', {
    dateStyle: 'full',
    timeStyle: 'short',
    timeZone: 'America/Mexico_City',
  }).format(new Date(iso))} (hora del centro de México)`;
}
