import { shop } from './shop.ts';

/**
 * How an order is paid (issue 21): by card (at once, optionally on meses sin intereses), by SPEI transfer to a
 * CLABE Openpay gives for the order, or in cash at a store with a Paynet reference. One vocabulary everywhere:
 * the order, the payment attempt and Openpay's charge (`method` card / bank_account / store) map onto it.
 */
export const PAYMENT_METHODS = ['card', 'spei', 'cash'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export type DelayedMethod = Exclude<PaymentMethod, 'card'>;

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  card: 'Tarjeta de crédito o débito',
  spei: 'Transferencia SPEI',
  cash: 'Efectivo en tienda',
};

export const isDelayed = (method: PaymentMethod | string | null | undefined): method is DelayedMethod =>
  method === 'spei' || method === 'cash';

/** How long a delayed payment may take: the order's stock hold and the charge's due_date (config/shop.json). */
export function delayedHoldHours(method: DelayedMethod): number {
  return method === 'spei' ? shop.paymentMethods.speiHours : shop.paymentMethods.storeHours;
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
