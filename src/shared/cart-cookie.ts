import { type CartLineInput, cartLinesSchema } from './schemas/cart.ts';

/**
 * The visitor's cart mirrored into a cookie so the server can render /carrito with its lines (docs/decisions/019):
 * codes and quantities only — never prices, names or stock, which the server reads from the database when it
 * renders. The browser's localStorage stays the cart's home (src/client/lib/cart-store.ts writes both).
 *
 * The value is `code*quantity` pairs joined by `|`, each code URI-encoded: `ABC-1*2|X%7CY*1`. An empty value is
 * an empty cart; no cookie means the server does not know the cart (the page is then rendered by the browser).
 */
export const CART_COOKIE = 'carrito';

/** Under the 4 KB a browser keeps per cookie (name and attributes included). */
export const CART_COOKIE_MAX_LENGTH = 3800;

export function encodeCartCookie(items: readonly { code: string; quantity: number }[]): string {
  return items.map((i) => `${encodeURIComponent(i.code)}*${i.quantity}`).join('|');
}

/**
 * The lines the cookie carries, checked as POST /api/cart/quote checks them (at most 100 lines, each code once,
 * quantities 1…max); null when the value is not a cart this shop wrote (then the server does not render the cart).
 */
export function decodeCartCookie(value: string): CartLineInput[] | null {
  if (value === '') return [];
  if (value.length > CART_COOKIE_MAX_LENGTH) return null;
  const lines: { code: string; quantity: number }[] = [];
  for (const pair of value.split('|')) {
    const match = /^([^*]+)\*(\d{1,6})$/.exec(pair);
    if (!match) return null;
    let code: string;
    try {
      code = decodeURIComponent(match[1]!);
    } catch {
      return null;
    }
    lines.push({ code, quantity: Number(match[2]) });
  }
  const parsed = cartLinesSchema.safeParse(lines);
  return parsed.success ? parsed.data : null;
}
