import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/server/support/test-app.ts';
import { products } from '../db/schema.ts';
import { renderSitemap, renderSubSitemap } from '../seo/sitemap.ts';

const PUBLIC = 'https://tienda.example.mx';
let t: TestApp;
let clientDir: string;

beforeAll(async () => {
  clientDir = mkdtempSync(join(tmpdir(), 'catalog-seo-'));
  writeFileSync(
    join(clientDir, 'index.html'),
    '<!doctype html><html lang="es-MX"><head><title>x</title><!--page-meta--></head><body><div id="root"></div></body></html>',
  );
  t = await createTestApp({ seedProducts: 600, config: { clientDir, publicUrl: PUBLIC } });
}, 120_000);
afterAll(async () => {
  await t.close();
  rmSync(clientDir, { recursive: true, force: true });
});

const jsonLd = (html: string) => {
  const m = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
  return m ? JSON.parse(m[1]!) : null;
};
const metaContent = (html: string, property: string) =>
  new RegExp(`<meta property="${property}" content="([^"]*)">`).exec(html)?.[1];

describe('page metadata written into index.html', () => {
  it('gives a product page its title, description, canonical, Open Graph and Product JSON-LD', async () => {
    await t.database.db
      .update(products)
      .set({ stock: 7, priceCents: 123456 })
      .where(eq(products.code, 'LBN-10001'));
    const res = await t.app.inject('/productos/LBN-10001');
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(html).toContain('<title>LBN-10001 | Labnova</title>');
    expect(html).toContain(`<link rel="canonical" href="${PUBLIC}/productos/LBN-10001">`);
    expect(html).toMatch(/<meta name="description" content="[^"]*\$1,234\.56 MXN/);
    expect(metaContent(html, 'og:type')).toBe('product');
    expect(metaContent(html, 'product:price:amount')).toBe('1234.56');
    expect(metaContent(html, 'product:price:currency')).toBe('MXN');
    const ld = jsonLd(html);
    expect(ld).toMatchObject({
      '@type': 'Product',
      sku: 'LBN-10001',
      brand: { '@type': 'Brand', name: 'Labnova' },
      offers: { price: '1234.56', priceCurrency: 'MXN', availability: 'https://schema.org/InStock' },
    });
    const [row] = await t.database.db
      .select({ hash: products.imageHash })
      .from(products)
      .where(eq(products.code, 'LBN-10001'));
    if (row?.hash) {
      expect(metaContent(html, 'og:image')).toBe(
        `${PUBLIC}/api/products/LBN-10001/image?v=${row.hash}&amp;w=640`,
      );
      expect(ld.image).toEqual([`${PUBLIC}/api/products/LBN-10001/image?v=${row.hash}&w=640`]);
    }
  });

  it('marks a product without stock OutOfStock', async () => {
    await t.database.db.update(products).set({ stock: 0 }).where(eq(products.code, 'LBN-10001'));
    const ld = jsonLd((await t.app.inject('/productos/LBN-10001')).body);
    expect(ld.offers.availability).toBe('https://schema.org/OutOfStock');
  });

  it('answers 404 with a "no encontrado" title for an unknown product, brand, group or route, with the page rendered', async () => {
    const cases: [string, string][] = [
      ['/productos/NO-EXISTE', 'Producto no encontrado'],
      ['/marcas/NoExiste', 'Marca no encontrada'],
      ['/grupos/NOPE', 'Categoría no encontrada'],
      ['/ruta/desconocida', 'Página no encontrada'],
    ];
    for (const [url, title] of cases) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toContain(`<title>${title} | Ciencia Occidente</title>`);
      expect(res.body).toContain('<div id="root">');
      expect(jsonLd(res.body)).toBeNull();
    }
  });

  it('names brand and group pages, escaping what comes from the URL', async () => {
    const brand = await t.app.inject('/marcas/Polim%C3%A9rica');
    expect(brand.statusCode).toBe(200);
    expect(brand.body).toContain('<title>Polimérica | Ciencia Occidente</title>');
    const group = await t.app.inject('/grupos/VID-MAT');
    expect(group.body).toContain('<title>Matraces | Ciencia Occidente</title>');
    const search = await t.app.inject('/busqueda/%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(search.statusCode).toBe(200);
    expect(search.body).not.toContain('<script>alert');
    expect(search.body).toContain('Resultados de búsqueda por &lt;SCRIPT&gt;');
    expect((await t.app.inject('/cuenta/perfil')).statusCode).toBe(200);
    expect((await t.app.inject('/politica_de_envios')).body).toContain('<title>Política de envíos');
  });
});

describe('sitemap and robots', () => {
  it('lists static pages, brands, groups and every active product, and is not swallowed by the SPA', async () => {
    const res = await t.app.inject('/sitemap.xml');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/xml');
    const locs = [...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(res.body).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(locs).toContain(`${PUBLIC}/`);
    expect(locs).toContain(`${PUBLIC}/marcas/Polim%C3%A9rica`);
    expect(locs).toContain(`${PUBLIC}/grupos/VID-MAT`);
    expect(locs).toContain(`${PUBLIC}/productos/LBN-10001`);
    const [n] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(products)
      .where(eq(products.active, true));
    expect(locs.filter((l) => l?.includes('/productos/'))).toHaveLength(n!.n);
  });

  it('becomes a sitemap index of sub-sitemaps above the limit', async () => {
    const index = await renderSitemap(t.database.db, PUBLIC, 250);
    expect(index).toContain('<sitemapindex');
    const subs = [...index.matchAll(/<loc>[^<]+\/sitemaps\/([^<]+)\.xml<\/loc>/g)].map((m) => m[1]!);
    expect(subs[0]).toBe('pages');
    let products = 0;
    for (const name of subs.slice(1)) {
      const xml = (await renderSubSitemap(t.database.db, PUBLIC, name, 250))!;
      const count = (xml.match(/<url>/g) ?? []).length;
      expect(count).toBeLessThanOrEqual(250);
      products += count;
    }
    expect(products).toBeGreaterThanOrEqual(600);
    expect(await renderSubSitemap(t.database.db, PUBLIC, `products-${subs.length + 5}`, 250)).toBeNull();
    expect((await t.app.inject('/sitemaps/products-1.xml')).statusCode).toBe(200);
    expect((await t.app.inject('/sitemaps/products-99.xml')).statusCode).toBe(404);
    expect((await t.app.inject('/sitemaps/../../etc.xml')).statusCode).toBe(404);
  });

  it('serves robots.txt pointing at the sitemap and keeping crawlers out of the API and private pages', async () => {
    const res = await t.app.inject('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    for (const path of ['/api/', '/cuenta', '/orden', '/envio', '/historial', '/resumen', '/factura']) {
      expect(res.body).toContain(`Disallow: ${path}\n`);
    }
    expect(res.body).toContain(`Sitemap: ${PUBLIC}/sitemap.xml`);
  });
});
