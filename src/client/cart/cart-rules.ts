import {
  addLines,
  addToCart,
  orderableUpTo,
  type ProductForCart,
  quantityInCart,
  STOCK_LIMIT,
} from '@/client/lib/cart-add.ts';
import type { CartItem } from '@/client/lib/cart-store.ts';
import type { LeadTime } from '@/shared/backorder.ts';
import { MAX_LINE_QUANTITY } from '@/shared/limits.ts';

/** Adding one unit (product page, listing cards) lives in lib/ so the catalogue's cards use the same rule. */
export { addLines, addToCart, type ProductForCart, quantityInCart };

/**
 * The cart's rules as pure functions (spec §4 and §5), so they can be tested without a browser.
 * Each returns the next list or the reason it refuses; the caller stores the list and shows the message.
 */

export type CartResult = { ok: true; items: CartItem[] } | { ok: false; reason: CartRefusal };

export type CartRefusal = 'stock_limit' | 'zero' | 'invalid' | 'local_stock';

export const MESSAGES = {
  added: 'Producto agregado al carrito',
  stockLimit: STOCK_LIMIT,
  noStock: 'Sin existencia',
  zero: 'La cantidad debe ser mayor que 0',
  invalid: 'Escriba solo dígitos',
} as const;

/** The largest quantity a line accepts, whatever the stock says (config/shop.json → limits, as the server's). */
export { MAX_LINE_QUANTITY } from '@/shared/limits.ts';

export function removeFromCart(items: readonly CartItem[], code: string): CartItem[] {
  return items.filter((i) => i.code !== code);
}

/** Digits only (spec §5: number-like inputs are numeric-only); returns null for anything else. */
export function parseQuantity(text: string): number | null {
  const t = text.trim();
  if (!/^\d{1,6}$/.test(t)) return null;
  return Number(t);
}

/**
 * A quantity typed in the cart, checked against what the browser knows: rejected when not digits, 0, or above the
 * locally held stock. The server's stock is checked afterwards by the caller (see `checkServerStock`).
 */
export function validateQuantity(
  item: Pick<CartItem, 'stock' | 'leadTime'>,
  text: string,
): { ok: true; quantity: number } | { ok: false; reason: CartRefusal } {
  const quantity = parseQuantity(text);
  if (quantity === null) return { ok: false, reason: 'invalid' };
  if (quantity === 0) return { ok: false, reason: 'zero' };
  if (quantity > orderableUpTo(item) || quantity > MAX_LINE_QUANTITY)
    return { ok: false, reason: 'local_stock' };
  return { ok: true, quantity };
}

/** Sets a line's quantity (and optionally the stock the server just reported). Unknown codes change nothing. */
export function updateQuantity(
  items: readonly CartItem[],
  code: string,
  quantity: number,
  stock?: number,
): CartItem[] {
  return items.map((i) =>
    i.code === code ? { ...i, quantity, ...(stock !== undefined ? { stock } : {}) } : i,
  );
}

/**
 * The cart as the server's quote prices it (name with its presentation, unit price with the volume price reached,
 * stock, image) without touching quantities: what /carrito shows from its first paint and stores. A quote line
 * priced for another quantity than the line holds (an answer still on its way) is not used: a volume price belongs
 * to the quantity it was quoted for.
 */
export function refreshFromQuote(
  items: readonly CartItem[],
  lines: readonly {
    code: string;
    name: string | null;
    unitPriceCents: number;
    quantity: number;
    stock: number;
    imageUrl: string | null;
    available: boolean;
    leadTime?: LeadTime | null;
  }[],
): CartItem[] {
  let changed = false;
  const next = items.map((i) => {
    const line = lines.find((l) => l.code === i.code);
    if (!line || line.name === null || line.quantity !== i.quantity) return i;
    if (
      line.unitPriceCents === i.priceCents &&
      line.stock === i.stock &&
      line.name === i.name &&
      line.imageUrl === i.imageUrl &&
      sameLead(line.leadTime, i.leadTime)
    )
      return i;
    changed = true;
    const { leadTime: _old, ...rest } = i;
    return {
      ...rest,
      name: line.name,
      priceCents: line.unitPriceCents,
      stock: line.stock,
      imageUrl: line.imageUrl,
      ...(line.leadTime ? { leadTime: line.leadTime } : {}),
    };
  });
  return changed ? next : (items as CartItem[]);
}

const sameLead = (a: LeadTime | null | undefined, b: LeadTime | null | undefined) =>
  (a ?? null) === (b ?? null) || (!!a && !!b && a.minDays === b.minDays && a.maxDays === b.maxDays);

/** Sum of quantities: the header's count. */
export function cartCount(items: readonly CartItem[]): number {
  return items.reduce((n, i) => n + i.quantity, 0);
}

/** Subtotal as the browser sees it (display only while the server's quote is loading). */
export function localSubtotalCents(items: readonly CartItem[]): number {
  return items.reduce((n, i) => n + i.priceCents * i.quantity, 0);
}

/**
 * The saved cart the server answered at sign-in or page load, with what the shopper changed in this tab while
 * that request was in flight (the local cart went from `before` to `now`) applied on top, so the answer does not
 * erase a click on 'Agregar a carrito' made as the page opened. Quantity changes are applied as differences
 * (capped by the stock the line carries), new lines are appended with the added units, removed lines go away.
 * Returns `saved` itself when nothing changed meanwhile.
 */
export function rebaseOnSaved(
  saved: readonly CartItem[],
  before: readonly CartItem[],
  now: readonly CartItem[],
): CartItem[] {
  if (now === before) return saved as CartItem[];
  let next = saved.map((i) => ({ ...i }));
  for (const line of now) {
    const delta = line.quantity - quantityInCart(before, line.code);
    if (delta === 0) continue;
    const existing = next.find((i) => i.code === line.code);
    if (existing) existing.quantity = Math.min(Math.max(existing.quantity + delta, 0), orderableUpTo(line));
    else if (delta > 0) next.push({ ...line, quantity: Math.min(delta, orderableUpTo(line)) });
  }
  for (const line of before) {
    if (!now.some((i) => i.code === line.code)) next = next.filter((i) => i.code !== line.code);
  }
  return next.filter((i) => i.quantity > 0);
}
