import { describe, expect, it } from 'vitest';
import type { CartItem } from '@/client/lib/cart-store.ts';
import { cartFullMessage, MAX_CART_LINES, MAX_LINE_QUANTITY } from '@/shared/limits.ts';
import {
  addLines,
  addToCart,
  cartCount,
  localSubtotalCents,
  type ProductForCart,
  parseQuantity,
  rebaseOnSaved,
  refreshFromQuote,
  removeFromCart,
  updateQuantity,
  validateQuantity,
} from './cart-rules.ts';

const matraz: ProductForCart = {
  code: 'VID-10001',
  name: 'Matraz Erlenmeyer 250 ml',
  priceCents: 18_550,
  stock: 3,
  imageUrl: null,
};
const pipeta: ProductForCart = {
  code: 'VID-10002',
  name: 'Pipeta 10 ml',
  priceCents: 4_200,
  stock: 1,
  imageUrl: '/i?v=1',
};

function added(items: CartItem[], product: ProductForCart): CartItem[] {
  const r = addToCart(items, product);
  if (!r.ok) throw new Error(`refused: ${r.reason}`);
  return r.items;
}

describe('adding from the product detail', () => {
  it('adds a new product with quantity 1', () => {
    expect(added([], matraz)).toEqual([{ ...matraz, quantity: 1 }]);
  });

  it('adds one more unit of a product already in the cart, keeping one line in its place', () => {
    let items = added([], matraz);
    items = added(items, pipeta);
    items = added(items, matraz);
    expect(items.map((i) => [i.code, i.quantity])).toEqual([
      ['VID-10001', 2],
      ['VID-10002', 1],
    ]);
  });

  it('refuses with the stock limit when the new quantity would exceed stock, changing nothing', () => {
    const items = added([], pipeta);
    expect(addToCart(items, pipeta)).toEqual({
      ok: false,
      reason: 'stock_limit',
      message: 'Límite de stock',
    });
    expect(items).toEqual([{ ...pipeta, quantity: 1 }]);
  });

  it('refuses a product with stock 0', () => {
    expect(addToCart([], { ...matraz, stock: 0 })).toEqual({
      ok: false,
      reason: 'stock_limit',
      message: 'Límite de stock',
    });
  });

  it('stores the product data of the latest add (e.g. a new price) with the summed quantity', () => {
    const items = added(added([], matraz), { ...matraz, priceCents: 19_000 });
    expect(items).toEqual([{ ...matraz, priceCents: 19_000, quantity: 2 }]);
  });

  it('adds the quantity typed on the product page at once, counting what the cart holds', () => {
    const reagent = { ...matraz, stock: 40 };
    const once = addToCart([], reagent, 12);
    expect(once.ok && once.items).toEqual([{ ...reagent, quantity: 12 }]);
    const again = addToCart(once.ok ? once.items : [], reagent, 28);
    expect(again.ok && again.items[0]!.quantity).toBe(40);
    expect(addToCart(again.ok ? again.items : [], reagent, 1)).toMatchObject({
      ok: false,
      reason: 'stock_limit',
    });
  });

  it("refuses a typed quantity beyond the stock, but not beyond it for a 'sobre pedido' product", () => {
    expect(addToCart([], matraz, 4)).toMatchObject({ ok: false, message: 'Límite de stock' });
    const lead = { ...matraz, leadTime: { minDays: 5, maxDays: 10 } };
    expect(addToCart([], lead, 40)).toMatchObject({ ok: true, items: [{ quantity: 40 }] });
    expect(addToCart([], lead, MAX_LINE_QUANTITY + 1)).toMatchObject({ ok: false, reason: 'stock_limit' });
  });
});

describe('changing a quantity in the cart', () => {
  it('accepts digits only', () => {
    expect(parseQuantity('3')).toBe(3);
    expect(parseQuantity(' 12 ')).toBe(12);
    for (const bad of ['', '-1', '1.5', '2e3', 'dos', '0x1', '+2', '1 000'])
      expect(parseQuantity(bad)).toBeNull();
  });

  it('rejects 0 and anything above the locally held stock', () => {
    expect(validateQuantity({ stock: 3 }, '0')).toEqual({ ok: false, reason: 'zero' });
    expect(validateQuantity({ stock: 3 }, '4')).toEqual({ ok: false, reason: 'local_stock' });
    expect(validateQuantity({ stock: 3 }, 'abc')).toEqual({ ok: false, reason: 'invalid' });
    expect(validateQuantity({ stock: 3 }, '3')).toEqual({ ok: true, quantity: 3 });
  });

  it('updates one line (and the stock the server reported) and leaves the rest', () => {
    const items = added(added([], matraz), pipeta);
    const next = updateQuantity(items, 'VID-10001', 3, 7);
    expect(next[0]).toMatchObject({ quantity: 3, stock: 7 });
    expect(next[1]).toEqual(items[1]);
  });
});

describe('removing and counting', () => {
  it('removes by code', () => {
    const items = added(added([], matraz), pipeta);
    expect(removeFromCart(items, 'VID-10001').map((i) => i.code)).toEqual(['VID-10002']);
    expect(removeFromCart(items, 'NADA')).toEqual(items);
  });

  it('counts the sum of quantities for the header and adds up a local subtotal', () => {
    const items = updateQuantity(added(added([], matraz), pipeta), 'VID-10001', 3);
    expect(cartCount(items)).toBe(4);
    expect(localSubtotalCents(items)).toBe(3 * 18_550 + 4_200);
    expect(cartCount([])).toBe(0);
  });
});

describe('refreshing from the server quote', () => {
  const line = (over: object) => ({
    code: 'VID-10001',
    name: 'Matraz Erlenmeyer 250 ml',
    unitPriceCents: 18_550,
    quantity: 1,
    stock: 3,
    imageUrl: null,
    available: true,
    ...over,
  });

  it('stores the server price and stock without touching the quantity', () => {
    const items = updateQuantity(added([], matraz), 'VID-10001', 2);
    const next = refreshFromQuote(items, [line({ unitPriceCents: 20_000, stock: 9, quantity: 2 })]);
    expect(next).toEqual([{ ...matraz, priceCents: 20_000, stock: 9, quantity: 2 }]);
  });

  it('takes the volume price and the presentation name the quote gives for the quantity the line holds', () => {
    // The saved cart answers list prices and bare names; the quote prices 12 units at the volume price.
    const items = updateQuantity(added([], matraz), 'VID-10001', 12);
    const next = refreshFromQuote(items, [
      line({ name: 'Matraz Erlenmeyer, 250 ml', unitPriceCents: 17_600, quantity: 12, stock: 40 }),
    ]);
    expect(next[0]).toMatchObject({ name: 'Matraz Erlenmeyer, 250 ml', priceCents: 17_600, quantity: 12 });
  });

  it('leaves a line alone when the quote priced another quantity (its volume price is not this one)', () => {
    const items = updateQuantity(added([], matraz), 'VID-10001', 11);
    expect(refreshFromQuote(items, [line({ unitPriceCents: 17_600, quantity: 12 })])).toBe(items);
  });

  it('returns the same list when nothing changed and ignores unknown codes', () => {
    const items = added([], matraz);
    expect(refreshFromQuote(items, [line({})])).toBe(items);
    expect(refreshFromQuote(items, [line({ name: null, unitPriceCents: 0 })])).toBe(items);
  });
});

describe('a change made while the saved cart was loading', () => {
  const line = (p: ProductForCart, quantity: number): CartItem => ({ ...p, quantity });

  it("keeps the product added meanwhile on top of the saved cart (it is not erased by the server's answer)", () => {
    const saved = [line(pipeta, 1)];
    const before: CartItem[] = [];
    const now = added(before, matraz);
    expect(rebaseOnSaved(saved, before, now)).toEqual([line(pipeta, 1), line(matraz, 1)]);
  });

  it('adds the units added meanwhile to a saved line, capped by the stock', () => {
    const before = [line(matraz, 1)];
    const now = added(before, matraz);
    expect(rebaseOnSaved([line(matraz, 2)], before, now)).toEqual([line(matraz, 3)]);
    expect(rebaseOnSaved([line(matraz, 3)], before, now)).toEqual([line(matraz, 3)]);
  });

  it('drops a line removed meanwhile and leaves the saved cart alone when nothing changed', () => {
    const before = [line(matraz, 1), line(pipeta, 1)];
    const now = removeFromCart(before, pipeta.code);
    expect(rebaseOnSaved([line(matraz, 2), line(pipeta, 1)], before, now)).toEqual([line(matraz, 2)]);
    const saved = [line(pipeta, 1)];
    expect(rebaseOnSaved(saved, before, before)).toBe(saved);
  });
});

describe('adding several lines at once (quick order, lists, buying again)', () => {
  it('adds what fits under the stock counting what the cart holds, and reports the rest', () => {
    const start = added([], matraz); // 1 of 3 in the cart
    const r = addLines(start, [
      { product: matraz, quantity: 2 },
      { product: pipeta, quantity: 2 },
      { product: { ...pipeta, code: 'VID-10003', stock: 10 }, quantity: 4 },
    ]);
    expect(r.items.map((i) => [i.code, i.quantity])).toEqual([
      ['VID-10001', 3],
      ['VID-10003', 4],
    ]);
    expect(r.added).toEqual(['VID-10001', 'VID-10003']);
    expect(r.refused).toEqual([{ code: 'VID-10002', reason: 'stock_limit' }]);
    // One more matraz no longer fits: 'Límite de stock', nothing changes.
    const again = addLines(r.items, [{ product: matraz, quantity: 1 }]);
    expect(again.items).toEqual(r.items);
    expect(again.refused).toEqual([{ code: 'VID-10001', reason: 'stock_limit' }]);
  });
});

describe("the cart's most lines (MAX_CART_LINES) when adding", () => {
  const product = (i: number): ProductForCart => ({
    code: `P-${i}`,
    name: `Producto ${i}`,
    priceCents: 100,
    stock: 50,
    imageUrl: null,
  });
  const cartOf = (n: number) =>
    addLines(
      [],
      Array.from({ length: n }, (_, i) => ({ product: product(i), quantity: 1 })),
    ).items;

  it('adds new products up to 100 lines, more units of a product already there, and says how many were left out', () => {
    const start = cartOf(97);
    expect(start).toHaveLength(97);
    const r = addLines(start, [
      { product: product(0), quantity: 2 }, // already in the cart: more units, not a new line
      ...Array.from({ length: 6 }, (_, i) => ({ product: product(200 + i), quantity: 1 })),
    ]);
    expect(r.items).toHaveLength(MAX_CART_LINES);
    expect(r.items[0]).toMatchObject({ code: 'P-0', quantity: 3 });
    expect(r.added).toEqual(['P-0', 'P-200', 'P-201', 'P-202']);
    expect(r.refused).toEqual(['P-203', 'P-204', 'P-205'].map((code) => ({ code, reason: 'cart_full' })));
    expect(r.cartFull).toBe(
      'No se agregaron 3 líneas: el carrito admite hasta 100 productos distintos. Complete o divida este pedido y agréguelas después.',
    );
  });

  it('says nothing about the maximum when every line fit', () => {
    expect(addLines(cartOf(99), [{ product: product(500), quantity: 1 }]).cartFull).toBeNull();
  });

  it('refuses a 101st product from the product page with the same message', () => {
    const full = cartOf(MAX_CART_LINES);
    expect(addToCart(full, product(500))).toEqual({
      ok: false,
      reason: 'cart_full',
      message: cartFullMessage(1),
    });
    expect(addToCart(full, product(0)).ok).toBe(true);
  });
});

it('names one line left out in the singular', () => {
  expect(cartFullMessage(1)).toBe(
    'No se agregó 1 línea: el carrito admite hasta 100 productos distintos. Complete o divida este pedido y agréguela después.',
  );
});
