import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/server/support/test-app.ts';
import { type SuggestResponse, suggestResponseSchema } from '../../shared/schemas/catalog.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seedProducts: 600 });
}, 120_000);
afterAll(() => t.close());

async function suggest(q: string): Promise<SuggestResponse> {
  const res = await t.app.inject({ url: '/api/search/suggest', query: { q } });
  expect(res.statusCode, res.body).toBe(200);
  return suggestResponseSchema.parse(res.json());
}

describe('GET /api/search/suggest', () => {
  it("offers balanzas, their category, and the full search's count for 'balan'", async () => {
    const s = await suggest('balan');
    expect(s.products.length).toBeGreaterThan(0);
    expect(s.products.length).toBeLessThanOrEqual(6);
    expect(s.products.every((p) => p.name.startsWith('Balanza'))).toBe(true);
    expect(s.products[0]).toMatchObject({ code: expect.any(String), priceCents: expect.any(Number) });
    expect(s.groups.map((g) => g.name)).toEqual(['Balanzas']);
    const page = await t.app.inject({ url: '/api/products', query: { q: 'balan' } });
    expect(s.total).toBe(page.json().total);
    // The first suggestions are the first results of the search page (relevance order).
    expect(s.products.map((p) => p.code)).toEqual(
      page
        .json()
        .items.slice(0, s.products.length)
        .map((p: { code: string }) => p.code),
    );
  });

  it('offers brands whose name starts with a typed word, accents and case aside', async () => {
    expect((await suggest('quim')).brands.map((b) => b.name)).toEqual(['Quimiva']);
    expect((await suggest('POLIM')).brands.map((b) => b.name)).toEqual(['Polimérica']);
    expect((await suggest('matraz')).brands).toEqual([]);
  });

  it('finds codes and corrects typos like the search page, saying so', async () => {
    expect((await suggest('lbn-10001')).products[0]?.code).toBe('LBN-10001');
    const typo = await suggest('balansa');
    expect(typo.searchNote).toEqual({ kind: 'corrected', searched: 'balanza' });
    expect(typo.products.length).toBeGreaterThan(0);
  });

  it('shows a new price, name or withdrawal at the next suggestion, also for a prefix asked before', async () => {
    const first = await suggest('balan');
    const p = first.products[0]!;
    expect(await suggest('BALAN')).toEqual({ ...first, q: 'BALAN' });
    const db = t.database.db;
    await db.execute(sql`update products set price_cents = price_cents + 100 where code = ${p.code}`);
    expect((await suggest('balan')).products[0]).toMatchObject({
      code: p.code,
      priceCents: p.priceCents + 100,
    });
    await db.execute(sql`update products set name = 'Balanza renombrada' where code = ${p.code}`);
    expect((await suggest('balan')).products.find((x) => x.code === p.code)?.name).toBe('Balanza renombrada');
    await db.execute(sql`update products set active = false where code = ${p.code}`);
    const withdrawn = await suggest('balan');
    expect(withdrawn.products.map((x) => x.code)).not.toContain(p.code);
    expect(withdrawn.total).toBe(first.total - 1);
    await db.execute(
      sql`update products set active = true, name = ${p.name}, price_cents = ${p.priceCents} where code = ${p.code}`,
    );
    expect(await suggest('balan')).toEqual(first);
  });

  it('answers an empty suggestion, not unrelated products, for a word the catalogue lacks', async () => {
    const s = await suggest('permanganato');
    expect(s).toMatchObject({ total: 0, products: [], brands: [], groups: [] });
  });

  it('refuses fewer than 2 characters and more than 100 with a Spanish message', async () => {
    for (const q of ['b', ' b ', 'x'.repeat(101)]) {
      const res = await t.app.inject({ url: '/api/search/suggest', query: { q } });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.message).toMatch(/caracteres|demasiado larga/);
    }
    const none = await t.app.inject({ url: '/api/search/suggest' });
    expect(none.statusCode).toBe(400);
  });

  it('never fails on hostile input', async () => {
    for (const q of ["'; drop table products; --", '<script>', '&&||!:*', '😀😀', '%_\\']) {
      const res = await t.app.inject({ url: '/api/search/suggest', query: { q } });
      expect(res.statusCode, q).toBe(200);
    }
  });
});
