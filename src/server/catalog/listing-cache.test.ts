import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listVia } from '../../../tests/server/support/catalog.ts';
import { createTestApp, type TestApp } from '../../../tests/server/support/test-app.ts';
import type { ProductsResponse } from '../../shared/schemas/catalog.ts';
import { productsQuerySchema } from '../../shared/schemas/catalog.ts';
import { products } from '../db/schema.ts';
import { listProducts } from './listing.ts';
import { catalogueVersion, SelectionCache } from './selection-cache.ts';

// Listings keep their totals, facet counts and orders per selection while the catalogue version holds.
// These tests change the catalogue the way another instance, an import or an administrator would — by
// plain SQL, around the service — and check that no listing ever shows the old catalogue.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seedProducts: 300 });
}, 120_000);
afterAll(() => t.close());

const list = (query: Record<string, string | string[]>) => listVia(t.app, query);
const count = (r: ProductsResponse, facet: keyof ProductsResponse['facets'], value: string) =>
  r.facets[facet].find((f) => f.value === value)?.count ?? 0;

async function firstProduct() {
  const [p] = await t.database.db
    .select({ code: products.code, brand: products.brand, groupClas: products.groupClas })
    .from(products)
    .where(eq(products.active, true))
    .orderBy(products.code)
    .limit(1);
  return p!;
}

describe('catalogue version', () => {
  it('changes once per transaction that changes listed columns, and not for stock', async () => {
    const db = t.database.db;
    const v0 = BigInt(await catalogueVersion(db));
    await db.execute(sql`update products set stock = stock + 1`);
    expect(BigInt(await catalogueVersion(db))).toBe(v0);
    await db.execute(sql`update products set price_cents = price_cents + 1`);
    const v1 = BigInt(await catalogueVersion(db));
    expect(v1).toBe(v0 + 1n);
    await db.transaction(async (tx) => {
      await tx.execute(sql`update products set price_cents = price_cents - 1`);
      await tx.execute(sql`update groups set position = position`);
    });
    expect(BigInt(await catalogueVersion(db))).toBe(v1 + 1n);
    // A rolled-back change leaves it as it was.
    await db
      .transaction(async (tx) => {
        await tx.execute(sql`update products set name = name || ' x'`);
        throw new Error('rollback');
      })
      .catch(() => {});
    expect(BigInt(await catalogueVersion(db))).toBe(v1 + 1n);
  });
});

describe('listings after catalogue changes', () => {
  it('count a new product, a deactivated one and a brand change at once', async () => {
    const p = await firstProduct();
    const before = await list({ brand: p.brand! });
    const total = before.total;
    await t.database.db.execute(sql`
      insert into products (code, name, brand, group_clas, price_cents, stock)
      values ('ZZ-CACHE-1', 'Producto nuevo de prueba', ${p.brand}, ${p.groupClas}, 12345, 3)`);
    const added = await list({ brand: p.brand! });
    expect(added.total).toBe(total + 1);
    expect((await list({ brand: p.brand!, page: String(added.pages) })).items.map((i) => i.code)).toContain(
      'ZZ-CACHE-1',
    );

    await t.database.db.execute(sql`update products set active = false where code = 'ZZ-CACHE-1'`);
    expect((await list({ brand: p.brand! })).total).toBe(total);

    // The brand list's counts follow too.
    const brandsBefore = (await t.app.inject('/api/brands')).json() as {
      brands: { name: string; productCount: number }[];
    };
    await t.database.db.execute(sql`update products set brand = null where code = ${p.code}`);
    const brandsAfter = (await t.app.inject('/api/brands')).json() as typeof brandsBefore;
    const n = (b: typeof brandsBefore, name: string) => b.brands.find((x) => x.name === name)?.productCount;
    expect(n(brandsAfter, p.brand!)).toBe(n(brandsBefore, p.brand!)! - 1);
    expect((await list({ brand: p.brand! })).total).toBe(total - 1);
    const group = await list({ group: p.groupClas! });
    const [inGroup] = (
      await t.database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from products where active and brand = ${p.brand} and group_clas = ${p.groupClas}`,
      )
    ).rows;
    expect(count(group, 'brands', p.brand!)).toBe(inGroup!.n);
    await t.database.db.execute(sql`update products set brand = ${p.brand} where code = ${p.code}`);
  });

  it('reorders by price after a price change, and shows stock and price fresh on the cards', async () => {
    const first = (await list({ sort: 'price_asc' })).items[0]!;
    const p = await firstProduct();
    await t.database.db.execute(sql`update products set price_cents = 1 where code = ${p.code}`);
    const cheapest = (await list({ sort: 'price_asc' })).items[0]!;
    expect(cheapest.code).toBe(p.code);
    expect(cheapest.priceCents).toBe(1);
    if (first.code !== p.code) expect(cheapest.code).not.toBe(first.code);

    // Stock does not change the version, yet the card shows the new stock.
    const v = await catalogueVersion(t.database.db);
    await t.database.db.execute(sql`update products set stock = 777 where code = ${p.code}`);
    expect(await catalogueVersion(t.database.db)).toBe(v);
    expect((await list({ sort: 'price_asc' })).items[0]!.stock).toBe(777);
  });

  it('shows a new stock, price or picture of a kept page’s card at the next listing', async () => {
    const query = { group: (await firstProduct()).groupClas!, pageSize: '12' };
    const before = await list(query);
    const card = before.items[5]!;
    const shown = async () => (await list(query)).items.find((i) => i.code === card.code)!;
    const v = await catalogueVersion(t.database.db);
    await t.database.db.execute(sql`update products set stock = stock + 5 where code = ${card.code}`);
    expect(await catalogueVersion(t.database.db)).toBe(v);
    expect((await shown()).stock).toBe(card.stock + 5);
    await t.database.db.execute(
      sql`update products set price_cents = price_cents + 100 where code = ${card.code}`,
    );
    expect(await shown()).toMatchObject({ priceCents: card.priceCents + 100, stock: card.stock + 5 });
    // The picture's URL carries its hash (cached a year by browsers): a new picture changes the version too.
    await t.database.db.execute(sql`update products set image_hash = 'nueva-foto' where code = ${card.code}`);
    expect(await catalogueVersion(t.database.db)).not.toBe(v);
    expect((await shown()).imageUrl).toBe(
      `/api/products/${encodeURIComponent(card.code)}/image?v=nueva-foto`,
    );
    // A withdrawn product leaves the page at once; the others keep their place.
    await t.database.db.execute(sql`update products set active = false where code = ${card.code}`);
    const after = await list(query);
    expect(after.items.map((i) => i.code)).not.toContain(card.code);
    expect(after.items[0]!.code).toBe(before.items[0]!.code);
    await t.database.db.execute(sql`update products set active = true where code = ${card.code}`);
  });

  it('finds a product by a word added after the search was first made', async () => {
    const before = await list({ q: 'zafiro' });
    expect(before.total).toBe(0);
    const p = await firstProduct();
    await t.database.db.execute(sql`update products set name = name || ' zafiro' where code = ${p.code}`);
    const after = await list({ q: 'zafiro' });
    expect(after.items.map((i) => i.code)).toEqual([p.code]);
  });

  it('answers every page and order the same as an uncached listing, also past the kept codes', async () => {
    const [{ brand } = { brand: '' }] = (
      await t.database.db.execute<{ brand: string }>(
        sql`select brand from products where active and brand is not null group by brand order by count(*) desc limit 1`,
      )
    ).rows;
    const cases: Record<string, string | string[]>[] = [
      {},
      { brand },
      { q: 'matraz' },
      { q: 'vidrio', sort: 'price_desc' },
      { brand, sort: 'price_asc' },
    ];
    for (const base of cases) {
      for (const page of ['1', '2', '3', '7']) {
        const raw = { ...base, page, pageSize: '5' };
        const query = productsQuerySchema.parse(raw);
        const explicitSort = 'sort' in base;
        // topCodes 12: pages 3 and 7 of 5 lie past the kept codes and take the direct path.
        const cached = await listProducts(t.database.db, query, { explicitSort, topCodes: 12 });
        const fresh = await listProducts(t.database.db, query, { explicitSort, cache: false });
        expect(cached, JSON.stringify(raw)).toEqual(fresh);
      }
    }
  });
});

describe('SelectionCache', () => {
  it('shares one computation among concurrent callers and recomputes for a new version', async () => {
    const cache = new SelectionCache<number>();
    let runs = 0;
    const compute = async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 10));
      return runs;
    };
    const values = await Promise.all([1, 2, 3].map(() => cache.get('k', '1', compute)));
    expect(values).toEqual([1, 1, 1]);
    expect(await cache.get('k', '1', compute)).toBe(1);
    expect(await cache.get('k', '2', compute)).toBe(2);
  });

  it('forgets a failed computation and evicts the least recently used entry', async () => {
    const cache = new SelectionCache<string>(2);
    await expect(cache.get('a', '1', () => Promise.reject(new Error('db down')))).rejects.toThrow();
    expect(await cache.get('a', '1', async () => 'ok')).toBe('ok');
    await cache.get('b', '1', async () => 'b');
    await cache.get('a', '1', async () => 'not recomputed');
    await cache.get('c', '1', async () => 'c');
    expect(cache.size).toBe(2);
    expect(await cache.get('a', '1', async () => 'recomputed')).toBe('ok');
    expect(await cache.get('b', '1', async () => 'recomputed')).toBe('recomputed');
  });
});
