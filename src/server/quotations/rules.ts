import { sql } from 'drizzle-orm';
import { addDays, mexicoCityDate, mexicoDayEnd } from '../../shared/mexico-time.ts';
import type { OrderStatus } from '../../shared/schemas/orders.ts';
import { QUOTATION_STATE_LABELS, type QuotationState } from '../../shared/schemas/quotations.ts';
import { shop } from '../../shared/shop.ts';
import { orders } from '../db/schema.ts';

/** The rules of a quotation's life (issue 20, decision 022): folio, validity, state, what may be done. */

export const QUOTATION_NOT_FOUND = 'Cotización no encontrada';
export const EMPTY_CART = 'El carrito está vacío: agregue productos para solicitar una cotización';

/** COT-2026-000123: the year of issue and the folio sequence, six digits at least. */
export const folioOf = (issuedAt: Date, n: number) =>
  `COT-${mexicoCityDate(issuedAt).slice(0, 4)}-${String(n).padStart(6, '0')}`;

/**
 * Prices held `days` days (config/shop.json → quotations.validityDays, spec §9 'precios firmes 30 días'):
 * until the end of that day in Mexico City, so a quotation issued on 3 March at any hour is valid through
 * 2 April inclusive, as printed.
 */
export function validUntilFrom(from: Date, days = shop.quotations.validityDays): Date {
  return mexicoDayEnd(addDays(mexicoCityDate(from), days));
}

/** The order a quotation points at, as far as its state is concerned. */
export type LinkedOrder = { status: OrderStatus; paidAt: Date | null } | null;

/**
 * An order that never got paid and is over (declined, or released unpaid) does not consume its quotation:
 * the buyer may convert it again. One pending payment, paid, or later: it does.
 */
export function orderConsumesQuotation(order: LinkedOrder): boolean {
  if (!order) return false;
  if (order.status === 'payment_failed') return false;
  if (order.status === 'cancelled' && order.paidAt === null) return false;
  return true;
}

/**
 * orderConsumesQuotation in SQL, over the `orders` table joined to the quotation: the back office's conversion
 * rate and the dashboard count a quotation as converted exactly when its state reads 'convertida'.
 */
export const consumedByOrderSql = sql`(${orders.status} <> 'payment_failed' and not (${orders.status} = 'cancelled' and ${orders.paidAt} is null))`;

export function quotationState(
  q: { status: 'open' | 'cancelled'; validUntil: Date },
  order: LinkedOrder,
  now = new Date(),
): QuotationState {
  if (orderConsumesQuotation(order)) return 'convertida';
  if (q.status === 'cancelled') return 'cancelada';
  return now.getTime() > q.validUntil.getTime() ? 'vencida' : 'vigente';
}

export const stateLabel = (state: QuotationState) => QUOTATION_STATE_LABELS[state];

export const actionsFor = (state: QuotationState) => ({
  canConvert: state === 'vigente',
  canRenew: state === 'vencida',
  canCancel: state === 'vigente' || state === 'vencida',
});

/** Why a quotation cannot become an order now, in Spanish, by state. */
export function cannotConvert(
  folio: string,
  state: QuotationState,
  orderNumber: number | null,
): string | null {
  switch (state) {
    case 'vigente':
      return null;
    case 'vencida':
      return `La cotización ${folio} venció; renuévela a los precios de hoy para comprar`;
    case 'convertida':
      return `La cotización ${folio} ya se convirtió en el pedido #${orderNumber}`;
    case 'cancelada':
      return `La cotización ${folio} está cancelada`;
  }
}
