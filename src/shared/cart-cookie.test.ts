import { describe, expect, it } from 'vitest';
import { CART_COOKIE_MAX_LENGTH, decodeCartCookie, encodeCartCookie } from './cart-cookie.ts';
import { MAX_LINE_QUANTITY } from './limits.ts';
import { MAX_CART_LINES } from './schemas/cart.ts';

describe('the cart cookie (codes and quantities of the browser’s cart)', () => {
  it('gives back the lines it was written from, codes with any character included', () => {
    const lines = [
      { code: 'ABC-1', quantity: 2 },
      { code: 'X|Y*Z %é', quantity: MAX_LINE_QUANTITY },
    ];
    expect(decodeCartCookie(encodeCartCookie(lines))).toEqual(lines);
    expect(decodeCartCookie('')).toEqual([]);
    const most = Array.from({ length: MAX_CART_LINES }, (_, i) => ({ code: `P${i}`, quantity: 1 }));
    expect(decodeCartCookie(encodeCartCookie(most))).toEqual(most);
  });

  it('refuses what the store never writes or POST /api/cart/quote refuses: the server then leaves the cart to the browser', () => {
    const bad = [
      'A*0',
      `A*${MAX_LINE_QUANTITY + 1}`,
      'A*1|A*2',
      '%20A*1',
      `${'x'.repeat(65)}*1`,
      'A*1.5',
      'A',
      '%E0%A4%A*1',
      Array.from({ length: MAX_CART_LINES + 1 }, (_, i) => `${i}*1`).join('|'),
      `${'x'.repeat(CART_COOKIE_MAX_LENGTH)}*1`,
    ];
    for (const value of bad) {
      expect(decodeCartCookie(value), value.slice(0, 40)).toBeNull();
    }
  });
});
