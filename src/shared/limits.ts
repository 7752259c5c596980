import { formatMoney } from './money.ts';
import { shop } from './shop.ts';

/**
 * The business limits of a purchase, from config/shop.json → limits: one rule for the cart's quote and for
 * placing an order (both price the cart with the server's quoteCart, which applies it), so the shopper reads the
 * same refusal in both.
 *
 * - maxChargeCents: the card gateway's maximum per charge (Openpay refuses more with error 1012; the figure is
 *   the merchant's contract, see limits.maxChargeSource).
 * - maxLineQuantity: the most units of one product in one line (the cart schemas refuse more).
 *
 * With at most 100 lines (MAX_CART_LINES) of at most maxLineQuantity units of a product priced at most
 * MAX_PRICE_CENTS, every intermediate amount stays below Number.MAX_SAFE_INTEGER, so centavos are exact numbers
 * end to end (bigint columns, mode 'number').
 */
export const MAX_CHARGE_CENTS = shop.limits.maxChargeCents;
export const MAX_LINE_QUANTITY = shop.limits.maxLineQuantity;
/**
 * The most distinct products (lines) in one cart: the cart schemas refuse more, the cookie holds no more, and the
 * browser's adding rules (lib/cart-add.ts: product page, cards, quick order, 'Volver a comprar', saved lists)
 * stop at it and say how many lines were left out.
 */
export const MAX_CART_LINES = 100;

/** What the shopper reads when lines were not added because the cart already holds MAX_CART_LINES products. */
export function cartFullMessage(notAdded: number): string {
  const lines = notAdded === 1 ? 'se agregó 1 línea' : `se agregaron ${notAdded} líneas`;
  return `No ${lines}: el carrito admite hasta ${MAX_CART_LINES} productos distintos. Complete o divida este pedido y ${notAdded === 1 ? 'agréguela' : 'agréguelas'} después.`;
}

export const lineQuantityMessage = () => `La cantidad no puede ser mayor que ${MAX_LINE_QUANTITY}`;

/** The refusal of a total above the maximum per charge, naming the limit; null when the total may be charged. */
export function chargeLimitMessage(totalCents: number): string | null {
  if (totalCents <= MAX_CHARGE_CENTS) return null;
  return `El total de su compra (${formatMoney(totalCents)}) supera el máximo de ${formatMoney(MAX_CHARGE_CENTS)} por cargo con tarjeta. Divídala en varios pedidos o contáctenos para una cotización.`;
}
