import type { LeadTime } from '@/shared/backorder.ts';
import { MAX_LINE_QUANTITY } from '@/shared/limits.ts';
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
 * Add one unit: new quantity = existing + 1, or 1. Refused ('Límite de stock') when the stock is below the new
 * quantity. The line is replaced by the fresh product data (name, price, stock, image) with the new quantity —
 * not summed twice — and keeps its position; a new line is appended.
 */
export function addToCart(
  items: readonly CartItem[],
  product: ProductForCart,
): { ok: true; items: CartItem[] } | { ok: false; reason: 'stock_limit' } {
  const quantity = quantityInCart(items, product.code) + 1;
  if (orderableUpTo(product) < quantity || quantity > MAX_LINE_QUANTITY)
    return { ok: false, reason: 'stock_limit' };
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

/**
 * Adds several lines at once (quick order, a saved list, 'Volver a comprar'): each under the same rule as the
 * product page — the new quantity (what the cart holds plus what is added) may not pass the stock or the most
 * units per line. A line that would is left out and reported; the others are added, in their order.
 */
export function addLines(
  items: readonly CartItem[],
  lines: readonly { product: ProductForCart; quantity: number }[],
): { items: CartItem[]; added: string[]; refused: { code: string; reason: 'stock_limit' | 'zero' }[] } {
  let next = [...items];
  const added: string[] = [];
  const refused: { code: string; reason: 'stock_limit' | 'zero' }[] = [];
  for (const { product, quantity } of lines) {
    if (!Number.isInteger(quantity) || quantity < 1) {
      refused.push({ code: product.code, reason: 'zero' });
      continue;
    }
    const total = quantityInCart(next, product.code) + quantity;
    if (total > orderableUpTo(product) || total > MAX_LINE_QUANTITY) {
      refused.push({ code: product.code, reason: 'stock_limit' });
      continue;
    }
    const item: CartItem = { ...product, quantity: total };
    next = next.some((i) => i.code === product.code)
      ? next.map((i) => (i.code === product.code ? item : i))
      : [...next, item];
    added.push(product.code);
  }
  return { items: next, added, refused };
}
