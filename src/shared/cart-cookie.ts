import { MAX_CART_LINES, MAX_LINE_QUANTITY } from './limits.ts';

/**
 * The visitor's cart mirrored into a cookie so the server can render /carrito with its lines (docs/decisions/019):
 * codes and quantities only — never prices, names or stock, which the server reads from the database when it
 * renders. The browser's localStorage stays the cart's home (src/client/lib/cart-store.ts writes both).
 *
 * The value is `code*quantity` pairs joined by `|`, each code URI-encoded: `ABC-1*2|X%7CY*1`. An empty value is
 * an empty cart (`*` in a code is written %2A); no cookie means the server does not know the cart (the page is then rendered by the browser).
 */
export const CART_COOKIE = 'carrito';

/** Under the 4 KB a browser keeps per cookie (name and attributes included). */
export const CART_COOKIE_MAX_LENGTH = 3800;

export function encodeCartCookie(items: readonly { code: string; quantity: number }[]): string {
  return items.map((i) => `${encodeURIComponent(i.code).replace(/\*/g, '%2A')}*${i.quantity}`).join('|');
}

const MAX_CODE = 64;

/**
 * The lines the cookie carries, held to the rules POST /api/cart/quote applies (at most 100 lines, each code once,
 * 1–64 characters without surrounding spaces, quantities 1…max); null when the value is not a cart this shop
 * wrote (then the server does not render the cart). No zod here: the store that writes the cookie is in every
 * page's first bundle.
 */
export function decodeCartCookie(value: string): { code: string; quantity: number }[] | null {
  if (value === '') return [];
  if (value.length > CART_COOKIE_MAX_LENGTH) return null;
  const pairs = value.split('|');
  if (pairs.length > MAX_CART_LINES) return null;
  const lines: { code: string; quantity: number }[] = [];
  const seen = new Set<string>();
  for (const pair of pairs) {
    const match = /^([^*]+)\*(\d{1,6})$/.exec(pair);
    if (!match) return null;
    let code: string;
    try {
      code = decodeURIComponent(match[1]!);
    } catch {
      return null;
    }
    const quantity = Number(match[2]);
    if (code.length > MAX_CODE || code.trim() !== code || code === '' || seen.has(code)) return null;
    if (quantity < 1 || quantity > MAX_LINE_QUANTITY) return null;
    seen.add(code);
    lines.push({ code, quantity });
  }
  return lines;
}
