import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/server/support/test-app.ts';
import type { ProductsResponse } from '../../shared/schemas/catalog.ts';
import { products } from '../db/schema.ts';
import { searchTokens } from './search.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seedProducts: 600 });
}, 120_000);
afterAll(() => t.close());

async function search(q: string, extra: Record<string, string> = {}): Promise<ProductsResponse> {
  const res = await t.app.inject({ url: '/api/products', query: { q, ...extra } });
  expect(res.statusCode, `${q}: ${res.body.slice(0, 200)}`).toBe(200);
  return res.json();
}

const names = (r: ProductsResponse) => r.items.map((i) => i.name);

describe('search (q)', () => {
  it("finds balanzas when the shopper types 'balansa' (typo correction)", async () => {
    const r = await search('balansa');
    expect(r.total).toBeGreaterThan(0);
    expect(names(r).every((n) => /^Balanza/.test(n))).toBe(true);
  });

  it("finds matraces for 'matras'", async () => {
    const r = await search('matras');
    expect(r.total).toBeGreaterThan(0);
    expect(names(r).every((n) => /^Matraz/.test(n))).toBe(true);
  });

  it("finds 'Ácido …' without the accent, and the same with it", async () => {
    const plain = await search('acido');
    expect(plain.total).toBeGreaterThan(0);
    expect(names(plain).every((n) => n.startsWith('Ácido'))).toBe(true);
    expect((await search('ÁCIDO')).total).toBe(plain.total);
  });

  it('matches partial words as prefixes, all words required', async () => {
    const r = await search('matraz erlen');
    expect(r.total).toBeGreaterThan(0);
    expect(names(r).every((n) => n.startsWith('Matraz Erlenmeyer'))).toBe(true);
    expect((await search('matraz')).total).toBeGreaterThan(r.total);
  });

  it('finds a product by its code, in any case, first', async () => {
    for (const q of ['LBN-10001', 'lbn-10001', ' Lbn-10001 ']) {
      const r = await search(q);
      expect(r.items[0]?.code, q).toBe('LBN-10001');
    }
  });

  it('searches brand, type and description words too, code and name weighted first', async () => {
    const brand = await search('quimiva');
    expect(brand.total).toBe(brand.facets.brands.find((b) => b.value === 'Quimiva')?.count);
    expect(brand.items.every((i) => i.brand === 'Quimiva')).toBe(true);
    // 'borosilicato' is in the type of glassware: every hit is glass.
    const glass = await search('borosilicato', { pageSize: '60' });
    expect(glass.total).toBeGreaterThan(0);
    expect(glass.items.every((i) => /borosilicato/i.test(i.type ?? ''))).toBe(true);
  });

  it('orders by relevance by default, but obeys an explicit sort', async () => {
    const relevance = await search('balanza analitica', { pageSize: '60' });
    // Names containing both words outrank names that only have 'semianalítica'.
    expect(relevance.items[0]!.name).toMatch(/^Balanza analítica/);
    const byPrice = await search('balanza analitica', { sort: 'price_asc', pageSize: '60' });
    const prices = byPrice.items.map((i) => i.priceCents);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(byPrice.total).toBe(relevance.total);
  });

  it('combines with filters, and facet counts follow the search', async () => {
    const all = await search('matraz');
    const one = await search('matraz', { brand: 'Cristalux' });
    expect(one.total).toBe(all.facets.brands.find((b) => b.value === 'Cristalux')!.count);
    expect(one.items.every((i) => i.brand === 'Cristalux')).toBe(true);
    expect(all.facets.groups.map((g) => g.value)).toEqual(['VID-MAT']);
  });

  it("counts each facet of a search under the search and the other facets' filters", async () => {
    // Every match of 'matraz', read page by page, is the ground truth.
    const matches: ProductsResponse['items'] = [];
    for (let page = 1; ; page++) {
      const r = await search('matraz', { pageSize: '60', page: String(page), sort: 'code' });
      matches.push(...r.items);
      if (page >= r.pages) break;
    }
    const sel = { brand: ['Cristalux', 'Metrion'], line: ['Línea Pro', 'Serie Industrial'] };
    const body = await search('matraz', { brand: sel.brand, line: sel.line } as unknown as Record<
      string,
      string
    >);
    const count = (rows: typeof matches, key: 'brand' | 'line' | 'type') => {
      const m = new Map<string, number>();
      for (const r of rows) if (r[key]) m.set(r[key]!, (m.get(r[key]!) ?? 0) + 1);
      return m;
    };
    const asMap = (f: { value: string; count: number }[]) =>
      new Map(f.filter((x) => x.count > 0).map((x) => [x.value, x.count]));
    const inBrand = (r: (typeof matches)[number]) => sel.brand.includes(r.brand ?? '');
    const inLine = (r: (typeof matches)[number]) => sel.line.includes(r.line ?? '');
    expect(asMap(body.facets.brands)).toEqual(count(matches.filter(inLine), 'brand'));
    expect(asMap(body.facets.lines)).toEqual(count(matches.filter(inBrand), 'line'));
    expect(asMap(body.facets.types)).toEqual(
      count(
        matches.filter((r) => inBrand(r) && inLine(r)),
        'type',
      ),
    );
    expect(body.total).toBe(matches.filter((r) => inBrand(r) && inLine(r)).length);
  });

  it('never fails on hostile or odd input: SQL, HTML, tsquery syntax, emoji, 1,000 characters', async () => {
    const cases = [
      "'; drop table products; --",
      '<script>alert(1)</script>',
      "matraz' OR 1=1 --",
      '%_\\',
      'ácido:* & !(|',
      '🧪🧫',
      '\u202e\u200b',
      'x'.repeat(1000),
      'matraz '.repeat(142),
      '   ',
      'de la el',
    ];
    for (const q of cases) {
      const r = await search(q);
      expect(r.items.length, q).toBeLessThanOrEqual(9);
    }
    // U+0000 cannot reach PostgreSQL: a 400 (the app's input guard) or no results, never a 500.
    const nul = await t.app.inject({ url: '/api/products', query: { q: 'matraz\u0000' } });
    expect([200, 400]).toContain(nul.statusCode);
    expect((await search('🧪🧫')).total).toBe(0);
    expect((await search('<script>alert(1)</script>')).total).toBe(0);
    expect((await search("matraz' OR 1=1 --")).items.every((i) => i.name.startsWith('Matraz'))).toBe(true);
    const tooLong = await t.app.inject({ url: '/api/products', query: { q: 'x'.repeat(1001) } });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.message).toBe('La búsqueda es demasiado larga');
    const [count] = await t.database.db.select({ code: products.code }).from(products).limit(1);
    expect(count).toBeDefined();
  });

  it("a one-character word is a word, not the prefix of every code: '#1', 'a/b' and 'a' do not list the catalogue", async () => {
    const all = (await t.app.inject('/api/products').then((r) => r.json())).total as number;
    const one = await search('#1');
    expect(one.total).toBeLessThan(all);
    expect(
      one.items.every((i) => /(^|[^\d.])1([^\d.]|$)/.test(i.name)),
      names(one).join('; '),
    ).toBe(true);
    expect((await search('1')).total).toBe(one.total);
    // 'a' is a stop word (finds nothing); 'a/b' is 'a' and 'b', so not more than 'b' as a word finds.
    expect((await search('a')).total).toBe(0);
    expect((await search('a/b')).total).toBe((await search('b')).total);
    expect((await search('b')).total).toBeLessThan(all / 10);
    // Two characters and more still find by prefix ('ma' → matraces…), and a whole code is still found.
    expect((await search('ma')).total).toBeGreaterThan(0);
  });

  it('treats a blank q as no search', async () => {
    expect((await search('  ')).total).toBe(
      (await t.app.inject('/api/products').then((r) => r.json())).total,
    );
  });

  it('finds a product added after the migration, including its new words (typo correction too)', async () => {
    await t.database.db.insert(products).values({
      code: 'ZZZ-00001',
      name: 'Desecador de vacío con llave',
      priceCents: 120000,
      shortDesc: 'Desecador de vidrio.',
    });
    expect((await search('desecador')).items[0]?.code).toBe('ZZZ-00001');
    expect((await search('desecadro')).items[0]?.code).toBe('ZZZ-00001');
    expect((await search('vacio')).items.map((i) => i.code)).toContain('ZZZ-00001');
    await t.database.db
      .update(products)
      .set({ name: 'Campana de extracción', shortDesc: 'Campana para vapores.' })
      .where(eq(products.code, 'ZZZ-00001'));
    expect((await search('extraccion')).items[0]?.code).toBe('ZZZ-00001');
    expect((await search('desecador')).items.map((i) => i.code)).not.toContain('ZZZ-00001');
  });
});

describe('searchTokens', () => {
  it('keeps letters and digits only, lower-cased, at most 8 distinct words', () => {
    expect(searchTokens("Ácido 'nítrico' 65%")).toEqual(['ácido', 'nítrico', '65']);
    expect(searchTokens('a b c d e f g h i j')).toHaveLength(8);
    expect(searchTokens(':* & | ! <-> ()')).toEqual([]);
    expect(searchTokens('CRX-10000')).toEqual(['crx', '10000']);
  });
});
