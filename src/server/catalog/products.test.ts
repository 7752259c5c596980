import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listVia } from '../../../tests/server/support/catalog.ts';
import { createTestApp, type TestApp } from '../../../tests/server/support/test-app.ts';
import type { ProductCard } from '../../shared/schemas/catalog.ts';
import { groups, products } from '../db/schema.ts';

let t: TestApp;
type Row = {
  code: string;
  brand: string | null;
  groupClas: string | null;
  line: string | null;
  type: string | null;
};
let all: Row[];
let parentOf: Map<string, string | null>;

beforeAll(async () => {
  t = await createTestApp({ seedProducts: 600 });
  // One product switched off: it must never be listed, counted or shown.
  await t.database.db.update(products).set({ active: false }).where(eq(products.code, 'CRX-10000'));
  all = await t.database.db
    .select({
      code: products.code,
      brand: products.brand,
      groupClas: products.groupClas,
      line: products.line,
      type: products.type,
    })
    .from(products)
    .where(eq(products.active, true));
  const g = await t.database.db.select().from(groups);
  parentOf = new Map(g.map((x) => [x.clas, x.parentClas]));
}, 120_000);
afterAll(() => t.close());

const list = (query: Record<string, string | string[]>) => listVia(t.app, query);

/** The expected facet counts, computed independently from the raw rows. */
function expectedCounts(
  sel: { brand?: string[]; group?: string[]; line?: string[]; type?: string[] },
  facet: 'brand' | 'group' | 'line' | 'type',
) {
  const inGroup = (clas: string | null, wanted: string[]) =>
    clas !== null && (wanted.includes(clas) || wanted.includes(parentOf.get(clas) ?? '\0'));
  const ok = (r: Row, f: string) =>
    f === facet ||
    (f === 'brand' && (!sel.brand?.length || sel.brand.includes(r.brand ?? ''))) ||
    (f === 'group' && (!sel.group?.length || inGroup(r.groupClas, sel.group))) ||
    (f === 'line' && (!sel.line?.length || sel.line.includes(r.line ?? ''))) ||
    (f === 'type' && (!sel.type?.length || sel.type.includes(r.type ?? '')));
  const counts = new Map<string, number>();
  for (const r of all) {
    if (!['brand', 'group', 'line', 'type'].every((f) => ok(r, f))) continue;
    const key = facet === 'group' ? r.groupClas : r[facet];
    if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

const asMap = (facet: { value: string; count: number }[]) =>
  new Map(facet.filter((f) => f.count > 0).map((f) => [f.value, f.count]));

describe('GET /api/brands', () => {
  it('lists every brand with its logo URL, featured flag and count of active products', async () => {
    const res = await t.app.inject('/api/brands');
    expect(res.statusCode).toBe(200);
    const { brands } = res.json() as {
      brands: { name: string; logoUrl: string | null; featured: boolean; productCount: number }[];
    };
    expect(brands).toHaveLength(12);
    const cristalux = brands.find((b) => b.name === 'Cristalux')!;
    expect(cristalux.featured).toBe(true);
    expect(cristalux.logoUrl).toMatch(/^\/api\/brands\/Cristalux\/logo\?v=[0-9a-f]{16}$/);
    // CRX-10000 is inactive: not counted.
    expect(cristalux.productCount).toBe(all.filter((r) => r.brand === 'Cristalux').length);
    expect(brands.filter((b) => b.featured)).toHaveLength(5);
    expect(brands.find((b) => b.name === 'Protexa')!.logoUrl).toBeNull();
    expect(brands.reduce((s, b) => s + b.productCount, 0)).toBe(all.length);
  });

  it('serves a logo as SVG with the year-long cache only when ?v matches the stored hash', async () => {
    const { brands } = (await t.app.inject('/api/brands')).json() as { brands: { logoUrl: string | null }[] };
    const url = brands.find((b) => b.logoUrl?.includes('Polim'))!.logoUrl!;
    const res = await t.app.inject(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect(res.body).toContain('<svg');
    const stale = await t.app.inject(url.replace(/v=\w+/, 'v=old'));
    expect(stale.headers['cache-control']).not.toContain('immutable');
    const again = await t.app.inject({ url, headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('answers 404 in Spanish for an unknown brand or a brand without logo', async () => {
    for (const name of ['NoExiste', 'Protexa']) {
      const res = await t.app.inject(`/api/brands/${name}/logo`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe('Logotipo no encontrado');
    }
  });
});

describe('GET /api/products: filters and facet counts', () => {
  it('lists only active products, 9 per page in code order by default', async () => {
    const body = await list({});
    expect(body.total).toBe(all.length);
    expect(body.pageSize).toBe(9);
    expect(body.pages).toBe(Math.ceil(all.length / 9));
    expect(body.items).toHaveLength(9);
    const codes = body.items.map((i) => i.code);
    expect(codes).toEqual([...codes].sort());
    expect(codes).not.toContain('CRX-10000');
    expect(body.group).toBeNull();
  });

  it('combines values of one facet with OR and different facets with AND', async () => {
    const sel = { brand: ['Cristalux', 'Metrion'], line: ['Línea Pro', 'Serie Educativa'] };
    const body = await list({ ...sel, pageSize: '60' });
    const expected = all.filter((r) => sel.brand.includes(r.brand!) && sel.line.includes(r.line!));
    expect(body.total).toBe(expected.length);
    expect(body.total).toBeGreaterThan(0);
    for (const item of body.items) {
      expect(sel.brand).toContain(item.brand);
      expect(sel.line).toContain(item.line);
    }
    // Adding a value widens; adding a facet narrows.
    const wider = await list({ ...sel, brand: [...sel.brand, 'Termaris'] });
    expect(wider.total).toBeGreaterThan(body.total);
    const narrower = await list({ ...sel, group: 'VID' });
    expect(narrower.total).toBeLessThan(body.total);
  });

  it("counts each facet under the other facets' filters", async () => {
    const sel = { brand: ['Cristalux', 'Quimiva'], group: ['VID', 'REA-ACI'], line: ['Línea Pro'] };
    const body = await list(sel);
    expect(asMap(body.facets.brands)).toEqual(expectedCounts(sel, 'brand'));
    expect(asMap(body.facets.groups)).toEqual(expectedCounts(sel, 'group'));
    expect(asMap(body.facets.lines)).toEqual(expectedCounts(sel, 'line'));
    expect(asMap(body.facets.types)).toEqual(expectedCounts(sel, 'type'));
    // The brand facet ignores the brand filter itself: other brands show what choosing them would add.
    expect(body.facets.brands.length).toBeGreaterThan(2);
    const groupLabels = body.facets.groups.map((g) => g.label);
    expect(groupLabels).toContain('Matraces');
  });

  it('keeps a selected value in its facet with count 0 when the other filters exclude it', async () => {
    const body = await list({ brand: 'Cristalux', type: 'No existe' });
    expect(body.total).toBe(0);
    expect(body.facets.types).toContainEqual({ value: 'No existe', label: 'No existe', count: 0 });
  });

  it('takes a top-level group with all its sub-groups and names a single selected group', async () => {
    const top = await list({ group: 'VID' });
    expect(top.total).toBe(all.filter((r) => r.groupClas?.startsWith('VID-')).length);
    expect(top.group).toEqual({ clas: 'VID', name: 'Material de vidrio' });
    const sub = await list({ group: 'VID-MAT' });
    expect(sub.group).toEqual({ clas: 'VID-MAT', name: 'Matraces' });
    expect(sub.items.every((i) => i.groupClas === 'VID-MAT')).toBe(true);
    expect((await list({ group: ['VID-MAT', 'VID-VAS'] })).group).toBeNull();
    const unknown = await list({ group: 'NOPE' });
    expect(unknown).toMatchObject({ total: 0, pages: 0, items: [], group: null });
  });

  it('sorts by price both ways, ties by code', async () => {
    const asc = await list({ group: 'EQU', sort: 'price_asc', pageSize: '60' });
    const desc = await list({ group: 'EQU', sort: 'price_desc', pageSize: '60' });
    const prices = (items: ProductCard[]) => items.map((i) => i.priceCents);
    expect(prices(asc.items)).toEqual([...prices(asc.items)].sort((a, b) => a - b));
    expect(prices(desc.items)).toEqual([...prices(desc.items)].sort((a, b) => b - a));
    expect(desc.items[0]!.priceCents).toBeGreaterThan(asc.items[0]!.priceCents);
  });

  it('pages without overlap and answers a page past the last with no items but the right totals', async () => {
    const p1 = await list({ brand: 'Metrion', page: '1' });
    const p2 = await list({ brand: 'Metrion', page: '2' });
    expect(p1.items.map((i) => i.code).filter((c) => p2.items.some((i) => i.code === c))).toEqual([]);
    expect(p2.items[0]!.code > p1.items[8]!.code).toBe(true);
    const past = await list({ brand: 'Metrion', page: String(p1.pages + 1) });
    expect(past).toMatchObject({ items: [], total: p1.total, pages: p1.pages, page: p1.pages + 1 });
    expect(past.facets.brands.length).toBeGreaterThan(0);
  });

  it('rejects a page size above 60, and other bad paging, with a Spanish 400', async () => {
    const res = await t.app.inject('/api/products?pageSize=61');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('El tamaño de página no puede ser mayor que 60');
    for (const q of ['page=0', 'page=abc', 'pageSize=0', 'sort=random']) {
      const bad = await t.app.inject(`/api/products?${q}`);
      expect(bad.statusCode, q).toBe(400);
      expect(bad.json().error.message).toMatch(/inválid/);
    }
    expect((await list({ pageSize: '60' })).items).toHaveLength(60);
  });
});

describe('GET /api/products/:code', () => {
  it('returns the detail with group name, logo, sanitized description and datasheet URL', async () => {
    const withSheet = await t.database.db
      .select({ code: products.code })
      .from(products)
      .where(
        sql`${products.datasheetHash} is not null and ${products.active} and ${products.brand} = 'Cristalux'`,
      )
      .limit(1);
    const res = await t.app.inject(`/api/products/${withSheet[0]!.code}`);
    expect(res.statusCode).toBe(200);
    const p = res.json();
    expect(p).toMatchObject({ brand: 'Cristalux', code: withSheet[0]!.code });
    expect(p.groupName).toBeTruthy();
    expect(p.brandLogoUrl).toMatch(/^\/api\/brands\/Cristalux\/logo\?v=/);
    expect(p.datasheetUrl).toMatch(/\/datasheet\.pdf\?v=[0-9a-f]{16}$/);
    expect(typeof p.weightKg).toBe('number');
  });

  it('answers 404 "Producto no encontrado" for unknown and inactive products, and their stock and media', async () => {
    for (const url of [
      '/api/products/NOPE-1',
      '/api/products/CRX-10000',
      '/api/products/CRX-10000/stock',
      '/api/products/NOPE-1/image',
      '/api/products/NOPE-1/datasheet.pdf',
    ]) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.message, url).toBe('Producto no encontrado');
    }
  });

  it('reports current stock without caching', async () => {
    const res = await t.app.inject('/api/products/LBN-10001/stock');
    expect(res.statusCode).toBe(200);
    const [row] = await t.database.db
      .select({ stock: products.stock })
      .from(products)
      .where(eq(products.code, 'LBN-10001'));
    expect(res.json()).toEqual({ code: 'LBN-10001', stock: row!.stock, leadTime: null });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('never returns script, event handlers or javascript: URLs, even from a row written around the service', async () => {
    await t.database.db
      .update(products)
      .set({
        longDescHtml:
          '<p onclick="steal()">Bueno</p><script>alert(1)</script><img src=x onerror="alert(2)">' +
          '<a href="javascript:alert(3)">liga</a><a href="https://example.com">ok</a>',
      })
      .where(eq(products.code, 'LBN-10001'));
    const html = (await t.app.inject('/api/products/LBN-10001')).json().longDescHtml as string;
    expect(html).toContain('Bueno');
    expect(html).not.toMatch(/<script|onerror|onclick|javascript:|<img/i);
    expect(html).toContain('href="https://example.com"');
  });
});

describe('product media', () => {
  let code: string;
  let imageUrl: string;
  beforeAll(async () => {
    const body = await list({ brand: 'Termaris', pageSize: '60' });
    const item = body.items.find((i) => i.imageUrl)!;
    code = item.code;
    imageUrl = item.imageUrl!;
  });

  it('sends WebP when accepted, JPEG otherwise, resized to a fixed width, varying on Accept', async () => {
    const webp = await t.app.inject({
      url: `${imageUrl}&w=320`,
      headers: { accept: 'image/avif,image/webp,*/*' },
    });
    expect(webp.statusCode).toBe(200);
    expect(webp.headers['content-type']).toBe('image/webp');
    expect(webp.rawPayload.subarray(8, 12).toString('ascii')).toBe('WEBP');
    expect(webp.headers.vary).toContain('Accept');
    const jpeg = await t.app.inject({ url: `${imageUrl}&w=320`, headers: { accept: 'image/*' } });
    expect(jpeg.headers['content-type']).toBe('image/jpeg');
    expect([...jpeg.rawPayload.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const sharp = (await import('sharp')).default;
    expect((await sharp(jpeg.rawPayload).metadata()).width).toBe(320);
    // Any width snaps up to a fixed one: 200 → 320, 5000 → 400 (too large), none → 640.
    const snapped = await t.app.inject({ url: `${imageUrl}&w=200` });
    expect((await sharp(snapped.rawPayload).metadata()).width).toBe(320);
    expect((await t.app.inject({ url: `${imageUrl}&w=5000` })).statusCode).toBe(400);
    expect((await sharp((await t.app.inject(imageUrl)).rawPayload).metadata()).width).toBe(640);
  });

  it('caches a year when ?v is the content hash, revalidates otherwise, and answers 304 to its ETag', async () => {
    const fresh = await t.app.inject({ url: `${imageUrl}&w=160` });
    expect(fresh.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(fresh.headers.etag).toMatch(/^"[0-9a-f]{16}-160-jpeg"$/);
    const stale = await t.app.inject(`/api/products/${code}/image?v=123&w=160`);
    expect(stale.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    const again = await t.app.inject({
      url: `${imageUrl}&w=160`,
      headers: { 'if-none-match': String(fresh.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers 404 "Imagen no encontrada" for a product without picture', async () => {
    const [row] = await t.database.db
      .select({ code: products.code })
      .from(products)
      .where(sql`${products.imageHash} is null and ${products.active}`)
      .limit(1);
    const res = await t.app.inject(`/api/products/${row!.code}/image`);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('Imagen no encontrada');
  });

  it('serves the datasheet inline as PDF, framable by the shop itself only', async () => {
    const [row] = await t.database.db
      .select({ code: products.code, hash: products.datasheetHash })
      .from(products)
      .where(sql`${products.datasheetHash} is not null and ${products.active}`)
      .limit(1);
    const res = await t.app.inject(`/api/products/${row!.code}/datasheet.pdf?v=${row!.hash}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`inline; filename="${row!.code}.pdf"`);
    expect(res.headers['content-security-policy']).toBe("frame-ancestors 'self'");
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload.subarray(0, 5).toString('ascii')).toBe('%PDF-');
    // Every other response keeps the shop unframable.
    expect((await t.app.inject('/api/products')).headers['content-security-policy']).toContain(
      "frame-ancestors 'none'",
    );
    const [none] = await t.database.db
      .select({ code: products.code })
      .from(products)
      .where(sql`${products.datasheetHash} is null and ${products.active}`)
      .limit(1);
    const missing = await t.app.inject(`/api/products/${none!.code}/datasheet.pdf`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe('Ficha técnica no encontrada');
  });
});
