import { shop } from './shop.ts';

/**
 * The business limits of a purchase, from config/shop.json → limits, shared by the server (which applies them)
 * and the browser (which shows them). The maximum of each way of payment is charge-limits.ts (only the cart's
 * quote, the checkout and the quotation need it; these limits load on every catalogue page).
 *
 * - methods.{card,spei,cash}.maxCents: the most one payment of that method may be (decision 048): the card
 *   gateway's maximum per charge (Openpay refuses more with error 1012; the merchant's contract), the SPEI maximum
 *   (Openpay documents none: the shop's own), the store-cash maximum (Openpay's documented $9,999.99). The cart's
 *   quote, the order's placement and the quotation read the total against the chosen method's limit here.
 * - maxLineQuantity: the most units of one product in one line (the cart schemas refuse more).
 *
 * With at most 100 lines (MAX_CART_LINES) of at most maxLineQuantity units of a product priced at most
 * MAX_PRICE_CENTS, every intermediate amount stays below Number.MAX_SAFE_INTEGER, so centavos are exact numbers
 * end to end (bigint columns, mode 'number').
 */
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
