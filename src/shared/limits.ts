import { formatMoney } from './money.ts';
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS, type PaymentMethod } from './payment-methods.ts';
import { shop } from './shop.ts';

/**
 * The business limits of a purchase, from config/shop.json → limits, shared by the server (which applies them)
 * and the browser (which shows them).
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
export const CHARGE_LIMITS: Readonly<Record<PaymentMethod, number>> = {
  card: shop.limits.methods.card.maxCents,
  spei: shop.limits.methods.spei.maxCents,
  cash: shop.limits.methods.cash.maxCents,
};
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

/** The ways of payment whose maximum this total fits, in the checkout's order. */
export function methodsThatCanPay(totalCents: number): PaymentMethod[] {
  return PAYMENT_METHODS.filter((method) => totalCents <= CHARGE_LIMITS[method]);
}

/** How each method's maximum is named in a sentence ('… el máximo de $X por cargo con tarjeta'). */
const LIMIT_NAMES: Record<PaymentMethod, string> = {
  card: 'por cargo con tarjeta',
  spei: 'por transferencia SPEI',
  cash: 'para pago en efectivo en tienda',
};

/** 'Transferencia SPEI' · 'Transferencia SPEI o Efectivo en tienda' · 'A, B o C'. */
export function methodList(methods: readonly PaymentMethod[]): string {
  const labels = methods.map((m) => PAYMENT_METHOD_LABELS[m]);
  return labels.length <= 1 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} o ${labels.at(-1)}`;
}

/**
 * The refusal of a total above the maximum of the chosen method, naming that method and its limit and the methods
 * that can pay it; with no method chosen (the cart's quote), only a total no method can pay is refused. Null when
 * the total may be paid so.
 */
export function chargeLimitMessage(totalCents: number, method?: PaymentMethod): string | null {
  const payable = methodsThatCanPay(totalCents);
  const total = formatMoney(totalCents);
  if (payable.length === 0) {
    const widest = PAYMENT_METHODS.reduce((a, b) => (CHARGE_LIMITS[b] > CHARGE_LIMITS[a] ? b : a));
    return `El total de su compra (${total}) supera el máximo de cualquier forma de pago en línea (hasta ${formatMoney(CHARGE_LIMITS[widest])} ${LIMIT_NAMES[widest]}). Divídala en varios pedidos o contáctenos para una cotización.`;
  }
  if (method === undefined || payable.includes(method)) return null;
  return `El total de su compra (${total}) supera el máximo de ${formatMoney(CHARGE_LIMITS[method])} ${LIMIT_NAMES[method]}. Puede pagarla con ${methodList(payable)}, o dividirla en varios pedidos.`;
}

/** What a quotation, the checkout and the cart tell about who can pay this total; null when every method can. */
export function payableMethodsNote(totalCents: number): string | null {
  const payable = methodsThatCanPay(totalCents);
  if (payable.length === PAYMENT_METHODS.length) return null;
  if (payable.length === 0) return chargeLimitMessage(totalCents);
  return `Por su importe, solo puede pagarse con ${methodList(payable)}.`;
}
