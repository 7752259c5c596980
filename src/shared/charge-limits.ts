import { formatMoney } from './money.ts';
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS, type PaymentMethod } from './payment-methods.ts';
import { shop } from './shop.ts';

/**
 * The most one payment of each method may be (config/shop.json → limits.methods; decision 048): the card gateway's
 * maximum per charge, the SPEI maximum, the store-cash maximum. The cart's quote, the order's placement and the
 * quotation read the total against the chosen method's limit here; the checkout shows which methods can pay.
 */
export const CHARGE_LIMITS: Readonly<Record<PaymentMethod, number>> = {
  card: shop.limits.methods.card.maxCents,
  spei: shop.limits.methods.spei.maxCents,
  cash: shop.limits.methods.cash.maxCents,
};
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
