import { apiFetch } from '@/client/lib/api-client.ts';
import { addLines, orderableUpTo, type ProductForCart, quantityInCart } from '@/client/lib/cart-add.ts';
import { getCartItems, setCartItems } from '@/client/lib/cart-store.ts';
import { formatMoney } from '@/shared/money.ts';
import type { CartQuote } from '@/shared/schemas/cart.ts';

/** A line to buy again: an order's line ('Volver a comprar') or a saved list's ('Agregar todo al carrito'). */
export type LineToAdd = {
  code: string;
  quantity: number;
  /** How the shopper knows the line (the order's description, the list's product name or code). */
  description: string;
  /** The unit price the shopper last saw (the order's, the list page's); a different price today is said. */
  knownPriceCents: number | null;
};

/** Today's prices and stock of the lines: the cart's own quote (POST /api/cart/quote), read only. */
export const quoteLines = (items: { code: string; quantity: number }[]) =>
  apiFetch<CartQuote>('/api/cart/quote', { method: 'POST', body: { items }, timeoutMs: 5000 });

/**
 * Adds lines to the cart at today's prices under the cart's rules (addLines: stock, units per line, the cart's
 * most lines) and lists what changed since the shopper last saw them — price, no longer sold, less stock — and
 * what the cart's maximum left out. One code path for 'Volver a comprar' and the saved lists.
 */
export async function addAtTodaysPrices(
  wanted: readonly LineToAdd[],
): Promise<{ added: number; changes: string[] }> {
  const quote = await quoteLines(wanted.map((l) => ({ code: l.code, quantity: l.quantity })));
  const cart = getCartItems();
  const changes: string[] = [];
  const lines: { product: ProductForCart; quantity: number }[] = [];
  for (const old of wanted) {
    const today = quote.lines.find((q) => q.code === old.code);
    if (!today || today.name === null) {
      changes.push(`${old.description}: ya no está a la venta.`);
      continue;
    }
    // 'Sobre pedido' (decision 029): beyond stock is fine (up to the most units per line).
    const room = Math.max(0, orderableUpTo(today) - quantityInCart(cart, old.code));
    if (room === 0) {
      changes.push(
        `${today.name}: sin existencia${today.stock > 0 ? ' (ya tiene en el carrito lo disponible)' : ''}.`,
      );
      continue;
    }
    if (old.knownPriceCents !== null && today.unitPriceCents !== old.knownPriceCents) {
      changes.push(
        `${today.name}: antes ${formatMoney(old.knownPriceCents)}, hoy ${formatMoney(today.unitPriceCents)}.`,
      );
    }
    const quantity = Math.min(old.quantity, room);
    if (quantity < old.quantity)
      changes.push(
        `${today.name}: solo hay ${room} disponibles; se agregaron ${quantity} de ${old.quantity}.`,
      );
    lines.push({
      product: {
        code: old.code,
        name: today.name,
        priceCents: today.unitPriceCents,
        stock: today.stock,
        imageUrl: today.imageUrl,
        leadTime: today.leadTime,
      },
      quantity,
    });
  }
  const result = addLines(cart, lines);
  if (result.cartFull) changes.push(result.cartFull);
  setCartItems(result.items);
  return { added: result.added.length, changes };
}
