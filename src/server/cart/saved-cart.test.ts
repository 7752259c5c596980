import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/server/support/test-app.ts';
import type { SavedCart } from '../../shared/schemas/cart.ts';
import { createSession } from '../auth/session.ts';
import { carts, products, users } from '../db/schema.ts';

let t: TestApp;
let ana: string;
let beto: string;

const fixtures = [
  { code: 'S-A', name: 'Matraz 250 ml', priceCents: 15_000, stock: 10, weightKg: 0.2, imageHash: 'abc123' },
  { code: 'S-B', name: 'Pipeta', priceCents: 2_000, stock: 2, weightKg: 0.05 },
  { code: 'S-C', name: 'Agotado', priceCents: 3_000, stock: 0, weightKg: 0.1 },
  { code: 'S-OFF', name: 'Descontinuado', priceCents: 1_000, stock: 5, weightKg: 0.1, active: false },
];

async function signedInUser(email: string) {
  const [user] = await t.database.db
    .insert(users)
    .values({ email, passwordHash: 'x', nombre: 'Prueba', apellidoPat: 'Carrito', telefono: '3312345678' })
    .returning({ id: users.id });
  if (!user) throw new Error('no user');
  const { token } = await createSession(t.database.db, user.id);
  return token;
}

function call(method: 'GET' | 'PUT' | 'POST', url: string, token: string | null, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    ...(token ? { cookies: { sid: token } } : {}),
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

beforeAll(async () => {
  t = await createTestApp();
  await t.database.db.insert(products).values(fixtures);
  ana = await signedInUser('ana@example.mx');
  beto = await signedInUser('beto@example.mx');
});
afterAll(() => t.close());

describe('saved cart', () => {
  it('needs a session for every call', async () => {
    for (const [method, url, body] of [
      ['GET', '/api/cart', undefined],
      ['PUT', '/api/cart', { items: [] }],
      ['POST', '/api/cart/merge', { items: [] }],
    ] as const) {
      const res = await call(method, url, null, body);
      expect(res.statusCode).toBe(401);
      expect(res.json().error.message).toBe('Inicie sesión para continuar');
    }
    const forged = await call('GET', '/api/cart', 'a'.repeat(43));
    expect(forged.statusCode).toBe(401);
  });

  it('starts empty, then PUT replaces it with current product data, dropping unknown and inactive codes', async () => {
    expect((await call('GET', '/api/cart', ana)).json()).toEqual({ items: [] });
    const put = await call('PUT', '/api/cart', ana, {
      items: [
        { code: 'S-A', quantity: 3, priceCents: 1, name: 'falso' },
        { code: 'NO-EXISTE', quantity: 1 },
        { code: 'S-OFF', quantity: 1 },
      ],
    });
    expect(put.statusCode).toBe(200);
    const expected = {
      items: [
        {
          code: 'S-A',
          name: 'Matraz 250 ml',
          priceCents: 15_000,
          quantity: 3,
          stock: 10,
          imageUrl: '/api/products/S-A/image?v=abc123',
          leadTime: null,
        },
      ],
    };
    expect(put.json()).toEqual(expected);
    expect((await call('GET', '/api/cart', ana)).json()).toEqual(expected);
  });

  it("never shows one shopper another shopper's cart", async () => {
    expect((await call('GET', '/api/cart', beto)).json()).toEqual({ items: [] });
    await call('PUT', '/api/cart', beto, { items: [{ code: 'S-B', quantity: 1 }] });
    const anaCart = (await call('GET', '/api/cart', ana)).json() as SavedCart;
    expect(anaCart.items.map((i) => i.code)).toEqual(['S-A']);
    const betoCart = (await call('GET', '/api/cart', beto)).json() as SavedCart;
    expect(betoCart.items.map((i) => i.code)).toEqual(['S-B']);
  });

  it('ignores a user id sent in the body or query: identity comes from the session only', async () => {
    const [betoRow] = await t.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'beto@example.mx'));
    await call('PUT', `/api/cart?userId=${betoRow?.id}`, ana, {
      userId: betoRow?.id,
      items: [{ code: 'S-A', quantity: 4 }],
    });
    const betoCart = (await call('GET', '/api/cart', beto)).json() as SavedCart;
    expect(betoCart.items).toMatchObject([{ code: 'S-B', quantity: 1 }]);
  });

  it('merges the local cart at sign-in: larger quantity wins, capped by stock; unknown, inactive and sold-out dropped', async () => {
    // Saved: S-A × 4. Local: S-A × 2 (smaller), S-B × 5 (stock 2), S-C (stock 0), S-OFF (inactive), an unknown code.
    const res = await call('POST', '/api/cart/merge', ana, {
      items: [
        { code: 'S-A', quantity: 2 },
        { code: 'S-B', quantity: 5 },
        { code: 'S-C', quantity: 1 },
        { code: 'S-OFF', quantity: 1 },
        { code: 'NO-EXISTE', quantity: 1 },
      ],
    });
    expect(res.statusCode).toBe(200);
    const merged = res.json() as SavedCart;
    expect(merged.items.map((i) => [i.code, i.quantity])).toEqual([
      ['S-A', 4],
      ['S-B', 2],
    ]);
    const [row] = await t.database.db
      .select()
      .from(carts)
      .innerJoin(users, eq(users.id, carts.userId))
      .where(eq(users.email, 'ana@example.mx'));
    expect(row?.carts.items).toEqual([
      { code: 'S-A', quantity: 4 },
      { code: 'S-B', quantity: 2 },
    ]);
  });

  it('caps a saved quantity by the stock at merge time even when the local cart is empty', async () => {
    await t.database.db.update(products).set({ stock: 3 }).where(eq(products.code, 'S-A'));
    const merged = (await call('POST', '/api/cart/merge', ana, { items: [] })).json() as SavedCart;
    expect(merged.items.map((i) => [i.code, i.quantity, i.stock])).toEqual([
      ['S-A', 3, 3],
      ['S-B', 2, 2],
    ]);
  });

  it('rejects bad input with a Spanish message and leaves the saved cart as it was', async () => {
    const before = (await call('GET', '/api/cart', ana)).json();
    for (const payload of [
      { items: [{ code: 'S-A', quantity: 0 }] },
      { items: [{ code: 'S-A', quantity: -2 }] },
      { items: [{ code: 'S-A', quantity: 2.5 }] },
      { items: [{ code: 'S-A', quantity: 100_000 }] },
      {
        items: [
          { code: 'S-A', quantity: 1 },
          { code: 'S-A', quantity: 1 },
        ],
      },
      { items: Array.from({ length: 101 }, (_, i) => ({ code: `X-${i}`, quantity: 1 })) },
    ]) {
      for (const url of ['/api/cart', '/api/cart/merge']) {
        const res = await call(url === '/api/cart' ? 'PUT' : 'POST', url, ana, payload);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.message).toMatch(/cantidad|aparece más de una vez|más de 100/);
      }
    }
    expect((await call('GET', '/api/cart', ana)).json()).toEqual(before);
  });
});
