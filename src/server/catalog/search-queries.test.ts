import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/server/support/test-app.ts';
import type { ProductsQuery, ProductsResponse } from '../../shared/schemas/catalog.ts';
import { listProducts } from './listing.ts';
import { buildSearch, MIN_SIMILARITY } from './search.ts';
import {
  type Expectation,
  type FixtureQuery,
  REAGENT_FIXTURE,
  SEARCH_QUERIES,
} from './search-queries.fixture.ts';

/**
 * The 40+ real lab queries of search-queries.fixture.ts, on the 600-product demo catalogue with CAS numbers and
 * formulas on its reagents: every query gives what a shopper expects, and the similarity threshold of typo
 * correction is the one that measures best (decision 020 keeps the figures this prints).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seedProducts: 600 });
  for (const r of REAGENT_FIXTURE) {
    await t.database.db.execute(
      sql`update products set cas_number = ${r.cas}, formula = ${r.formula} where name like ${`${r.namePrefix}%`}`,
    );
  }
}, 120_000);
afterAll(() => t.close());

const PAGE = 20;

/** 1 when the first page is all a shopper expects (or nothing, when nothing is expected), else the share that is. */
function precision(expectation: Expectation, r: ProductsResponse): number {
  if ('none' in expectation) return r.total === 0 ? 1 : 0;
  if ('code' in expectation) return r.items[0]?.code === expectation.code ? 1 : 0;
  const items = 'name' in expectation && expectation.top ? r.items.slice(0, expectation.top) : r.items;
  if (items.length === 0) return 0;
  const ok = items.filter((i) =>
    'name' in expectation ? expectation.name.test(i.name) : i.code.startsWith(expectation.codePrefix),
  );
  return ok.length / items.length;
}

const query = (q: string): ProductsQuery => ({
  q,
  brand: [],
  group: [],
  line: [],
  type: [],
  sort: 'code',
  page: 1,
  pageSize: PAGE,
});

async function measure(threshold: number) {
  const scores: { q: FixtureQuery; p: number }[] = [];
  for (const f of SEARCH_QUERIES) {
    const r = await listProducts(t.database.db, query(f.q), {
      explicitSort: false,
      cache: false,
      buildSearch: (db, q, o) => buildSearch(db, q, { ...o, minSimilarity: threshold }),
    });
    scores.push({ q: f, p: precision(f.expect, r) });
  }
  const mean = scores.reduce((n, s) => n + s.p, 0) / scores.length;
  const right = scores.filter((s) => s.p === 1).length;
  return { threshold, mean, right, wrong: scores.filter((s) => s.p < 1) };
}

describe('the lab query fixture', () => {
  it('has at least 40 queries of every kind the issue names', () => {
    expect(SEARCH_QUERIES.length).toBeGreaterThanOrEqual(40);
    const kinds = new Set(SEARCH_QUERIES.map((q) => q.kind));
    for (const k of [
      'typo',
      'accent',
      'plural',
      'code',
      'partial code',
      'english',
      'cas',
      'synonym',
    ] as const) {
      expect(kinds.has(k), k).toBe(true);
    }
  });

  it('uses the similarity threshold that measures best (figures printed for decision 020)', async () => {
    const results = [];
    for (const threshold of [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6]) results.push(await measure(threshold));
    for (const r of results) {
      console.log(
        `umbral ${r.threshold.toFixed(2)}: precisión media ${(r.mean * 100).toFixed(1)} %, ` +
          `${r.right}/${SEARCH_QUERIES.length} consultas exactas; fallan: ${
            r.wrong.map((w) => `${w.q.q} (${(w.p * 100).toFixed(0)} %)`).join(', ') || 'ninguna'
          }`,
      );
    }
    const best = Math.max(...results.map((r) => r.mean));
    const chosen = results.find((r) => r.threshold === MIN_SIMILARITY);
    expect(chosen?.mean).toBe(best);
  }, 120_000);

  it.each(SEARCH_QUERIES.map((f) => [f.q, f] as const))(
    '«%s» gives what the shopper expects',
    async (q, f) => {
      const res = await t.app.inject({ url: '/api/products', query: { q, pageSize: String(PAGE) } });
      expect(res.statusCode).toBe(200);
      const body: ProductsResponse = res.json();
      expect(
        precision(f.expect, body),
        `${q}: ${body.total} → ${body.items
          .slice(0, 5)
          .map((i) => `${i.code} ${i.name}`)
          .join(' | ')}`,
      ).toBe(1);
    },
  );
});

describe('honest corrections', () => {
  const get = async (query: Record<string, string>) => {
    const res = await t.app.inject({ url: '/api/products', query });
    expect(res.statusCode).toBe(200);
    return res.json() as ProductsResponse;
  };

  it("says what it searched instead: 'balansa' → balanza, and the shopper's own words on request", async () => {
    const corrected = await get({ q: 'balansa' });
    expect(corrected.total).toBeGreaterThan(0);
    expect(corrected.searchNote).toEqual({ kind: 'corrected', searched: 'balanza' });
    const own = await get({ q: 'balansa', exact: '1' });
    expect(own.total).toBe(0);
    expect(own.searchNote).toBeNull();
    const right = await get({ q: 'balanza' });
    expect(right.searchNote).toBeNull();
  });

  it("'matras' is a correction too, said so, although the stemmer alone finds matraces; a plural is the shopper's own word (issue 37)", async () => {
    const typo = await get({ q: 'matras' });
    expect(typo.total).toBeGreaterThan(0);
    expect(typo.searchNote).toEqual({ kind: 'corrected', searched: 'matraz' });
    expect(typo.items.every((i) => /matraz/i.test(i.name))).toBe(true);
    const plural = await get({ q: 'pipetas' });
    expect(plural.total).toBeGreaterThan(0);
    expect(plural.searchNote).toBeNull();
    expect((await get({ q: 'matraz' })).searchNote).toBeNull();
  });

  it('names the synonym it used', async () => {
    const r = await get({ q: 'Ácido Muriático' });
    expect(r.searchNote).toEqual({ kind: 'synonym', searched: 'ácido clorhídrico' });
    expect(r.items.every((i) => i.name.startsWith('Ácido clorhídrico'))).toBe(true);
  });

  it("'permanganato' shows nothing rather than graduated cylinders, and purchasing sees it was looked for", async () => {
    const r = await get({ q: 'permanganato' });
    expect(r.total).toBe(0);
    await get({ q: 'Ditizona' });
    await get({ q: 'ditizona' });
    // The log is written in the background: poll for it.
    await expect
      .poll(async () => {
        const { rows } = await t.database.db.execute<{ term: string; results: number; searches: number }>(
          sql`select term, results, searches from search_misses where term = 'ditizona'`,
        );
        return rows[0];
      })
      .toEqual({ term: 'ditizona', results: 0, searches: 2 });
    // A search with plenty of results, or with filters, is not logged.
    await get({ q: 'matraz' });
    await get({ q: 'ninhidrina', brand: 'Cristalux' });
    const { rows } = await t.database.db.execute<{ term: string }>(
      sql`select term from search_misses where term in ('matraz', 'ninhidrina')`,
    );
    expect(rows).toEqual([]);
  });

  it('rejects an exact flag other than 1 with a Spanish message', async () => {
    const res = await t.app.inject({ url: '/api/products', query: { q: 'x', exact: 'si' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/exact/);
  });
});

describe('freshness of CAS and formula matches (decision 008)', () => {
  it('a CAS number or formula set after a search was cached is found by the next search', async () => {
    const before = await t.app.inject({ url: '/api/products', query: { q: '7732-18-5' } });
    expect(before.json().total).toBe(0);
    const beforeFormula = await t.app.inject({ url: '/api/products', query: { q: 'H2O' } });
    expect(beforeFormula.json().total).toBe(0);
    await t.database.db.execute(
      sql`update products set cas_number = '7732-18-5', formula = 'H₂O' where code = 'LBN-10001'`,
    );
    const after = await t.app.inject({ url: '/api/products', query: { q: '7732-18-5' } });
    expect(after.json().items.map((i: { code: string }) => i.code)).toEqual(['LBN-10001']);
    const formula = await t.app.inject({ url: '/api/products', query: { q: 'h2o' } });
    expect(formula.json().items[0]?.code).toBe('LBN-10001');
  });
});
