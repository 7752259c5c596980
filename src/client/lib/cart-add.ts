import type { LeadTime } from '@/shared/backorder.ts';
import { cartFullMessage, MAX_CART_LINES, MAX_LINE_QUANTITY } from '@/shared/limits.ts';
import type { CartItem } from './cart-store.ts';

/**
 * Adding one unit to the cart (spec §4): the rule shared by the product page's button (cart/) and the listing
 * cards' (catalog/), so both refuse alike. The rest of the cart's rules stay in cart/cart-rules.ts.
 */

export type ProductForCart = {
  code: string;
  name: string;
  priceCents: number;
  stock: number;
  imageUrl: string | null;
  /** 'Sobre pedido' (decision 029): orderable beyond stock. */
  leadTime?: LeadTime | null;
};

/**
 * The most units a line may hold: the stock — or, for a 'sobre pedido' product (decision 029), the most units per
 * line whatever the stock (what stock does not cover is backordered by the order).
 */
export function orderableUpTo(p: { stock: number; leadTime?: LeadTime | null | undefined }): number {
  return p.leadTime ? MAX_LINE_QUANTITY : p.stock;
}

export const STOCK_LIMIT = 'Límite de stock';

export function quantityInCart(items: readonly CartItem[], code: string): number {
  return items.find((i) => i.code === code)?.quantity ?? 0;
}

/**
 * Add `units` (one by default; the product page's quantity field may ask more): new quantity = existing + units.
 * Refused ('Límite de stock') when the stock — or, 'sobre pedido', the most units per line — is below the new
 * quantity. The line is replaced by the fresh product data (name, price, stock, image) with the new quantity —
 * not summed twice — and keeps its position; a new line is appended.
 */
export function addToCart(
  items: readonly CartItem[],
  product: ProductForCart,
  units = 1,
): { ok: true; items: CartItem[] } | { ok: false; reason: 'stock_limit' | 'cart_full'; message: string } {
  const held = quantityInCart(items, product.code);
  const quantity = held + units;
  if (orderableUpTo(product) < quantity || quantity > MAX_LINE_QUANTITY)
    return { ok: false, reason: 'stock_limit', message: STOCK_LIMIT };
  if (held === 0 && items.length >= MAX_CART_LINES)
    return { ok: false, reason: 'cart_full', message: cartFullMessage(1) };
  const item: CartItem = {
    code: product.code,
    name: product.name,
    priceCents: product.priceCents,
    stock: product.stock,
    imageUrl: product.imageUrl,
    quantity,
    ...(product.leadTime ? { leadTime: product.leadTime } : {}),
  };
  const exists = items.some((i) => i.code === product.code);
  return {
    ok: true,
    items: exists ? items.map((i) => (i.code === product.code ? item : i)) : [...items, item],
  };
}

export type LineRefusal = 'stock_limit' | 'zero' | 'cart_full';

/**
 * Adds several lines at once (quick order, a saved list, 'Volver a comprar'): each under the same rule as the
 * product page — the new quantity (what the cart holds plus what is added) may not pass the stock or the most
 * units per line — and a new product only while the cart holds fewer than MAX_CART_LINES. A line that would
 * pass either is left out and reported; the others are added, in their order. `cartFull` is the message naming
 * how many lines the cart's maximum left out (null when none).
 */
export function addLines(
  items: readonly CartItem[],
  lines: readonly { product: ProductForCart; quantity: number }[],
): {
  items: CartItem[];
  added: string[];
  refused: { code: string; reason: LineRefusal }[];
  cartFull: string | null;
} {
  let next = [...items];
  const added: string[] = [];
  const refused: { code: string; reason: LineRefusal }[] = [];
  for (const { product, quantity } of lines) {
    if (!Number.isInteger(quantity) || quantity < 1) {
      refused.push({ code: product.code, reason: 'zero' });
      continue;
    }
    const held = quantityInCart(next, product.code);
    const total = held + quantity;
    if (total > orderableUpTo(product) || total > MAX_LINE_QUANTITY) {
      refused.push({ code: product.code, reason: 'stock_limit' });
      continue;
    }
    if (held === 0 && next.length >= MAX_CART_LINES) {
      refused.push({ code: product.code, reason: 'cart_full' });
      continue;
    }
    const item: CartItem = { ...product, quantity: total };
    next = next.some((i) => i.code === product.code)
      ? next.map((i) => (i.code === product.code ? item : i))
      : [...next, item];
    added.push(product.code);
  }
  const full = refused.filter((r) => r.reason === 'cart_full').length;
  return { items: next, added, refused, cartFull: full > 0 ? cartFullMessage(full) : null };
}
