import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productsSearchParams } from '@/client/catalog/api/get-products.ts';
import { IMAGE_WIDTHS as CLIENT_IMAGE_WIDTHS } from '@/client/catalog/components/product-image.tsx';
import { createTestApp, type TestApp } from '../../../tests/server/support/test-app.ts';
import { apiPreload, IMAGE_WIDTHS, PRODUCT_PHOTO_SIZES, productPhotoPreload } from './preload-hints.ts';

const root = resolve(import.meta.dirname, '../../..');

describe('hints agree with the client (a preload only helps when the URLs are identical)', () => {
  it('same image widths as ProductImage and the same sizes as the product photo', () => {
    expect([...IMAGE_WIDTHS]).toEqual([...CLIENT_IMAGE_WIDTHS]);
    const page = readFileSync(join(root, 'src/client/catalog/pages/product-page.tsx'), 'utf8');
    expect(page).toContain(`sizes="${PRODUCT_PHOTO_SIZES}"`);
  });

  it('the listing request is the one get-products.ts makes for a group or a brand without filters', () => {
    for (const clas of ['VID', 'VID-MAT', 'Reactivos & Químicos', 'Ñandú/ñ']) {
      const hint = apiPreload(new URL(`http://x/grupos/${encodeURIComponent(clas)}`), {} as never);
      expect(hint).toBe(
        `<link rel="preload" as="fetch" crossorigin href="/api/products?${productsSearchParams({
          group: [clas],
        })
          .toString()
          .replace(/&/g, '&amp;')}">`,
      );
    }
    const brand = apiPreload(new URL('http://x/marcas/Cristalux'), {} as never);
    expect(brand).toContain(`href="/api/products?${productsSearchParams({ brand: ['Cristalux'] })}"`);
  });

  it('the product request is get-product.ts’s; no API hint with filters, sort or page, for other pages or a 404', () => {
    expect(apiPreload(new URL('http://x/productos/CRX-10%2F2'), {} as never)).toContain(
      `href="/api/products/${encodeURIComponent('CRX-10/2')}"`,
    );
    expect(apiPreload(new URL('http://x/grupos/VID?marca=Cristalux'), {} as never)).toBeNull();
    expect(apiPreload(new URL('http://x/grupos/VID?pagina=2'), {} as never)).toBeNull();
    expect(apiPreload(new URL('http://x/carrito'), {} as never)).toBeNull();
    expect(apiPreload(new URL('http://x/productos/NOPE'), { status: 404 } as never)).toBeNull();
    expect(apiPreload(new URL('http://x/productos/%E0%A4%A'), {} as never)).toBeNull();
  });

  it('the photo preload carries the srcset and sizes of the <img>, same-origin, high priority', () => {
    const hint = productPhotoPreload({
      title: 'x',
      description: 'x',
      canonical: 'https://tienda.example.mx/productos/A-1',
      ogType: 'product',
      image: 'https://tienda.example.mx/api/products/A-1/image?v=abc123&w=640',
    });
    expect(hint).toBe(
      '<link rel="preload" as="image" href="/api/products/A-1/image?v=abc123&amp;w=640" ' +
        'imagesrcset="/api/products/A-1/image?v=abc123&amp;w=160 160w, /api/products/A-1/image?v=abc123&amp;w=320 320w, /api/products/A-1/image?v=abc123&amp;w=640 640w" ' +
        `imagesizes="${PRODUCT_PHOTO_SIZES}" fetchpriority="high">`,
    );
    expect(
      productPhotoPreload({ title: 'x', description: 'x', canonical: 'x', ogType: 'product' }),
    ).toBeNull();
    expect(
      productPhotoPreload({ title: 'x', description: 'x', canonical: 'x', image: 'https://x/y.png' }),
    ).toBeNull();
  });
});

describe('index.html served with the page’s hints', () => {
  let t: TestApp;
  let clientDir: string;
  beforeAll(async () => {
    clientDir = mkdtempSync(join(tmpdir(), 'preload-hints-'));
    mkdirSync(join(clientDir, '.vite'));
    writeFileSync(
      join(clientDir, 'index.html'),
      '<!doctype html><html lang="es-MX"><head><title>x</title><!--page-meta--><script type="module" src="/assets/index-1.js"></script></head><body><div id="root"></div></body></html>',
    );
    // A manifest shaped like Vite's: the entry, a shared chunk, and two page chunks.
    writeFileSync(
      join(clientDir, '.vite/manifest.json'),
      JSON.stringify({
        'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_framework-1.js'] },
        '_framework-1.js': { file: 'assets/framework-1.js' },
        '_kit-1.js': { file: 'assets/kit-1.js', imports: ['_framework-1.js'] },
        'catalog/pages/product-page.tsx': {
          file: 'assets/product-page-1.js',
          imports: ['_framework-1.js', '_kit-1.js', 'index.html'],
        },
        'catalog/pages/home-page.tsx': { file: 'assets/home-page-1.js', imports: ['index.html'] },
      }),
    );
    t = await createTestApp({
      seedProducts: 12,
      config: { clientDir, publicUrl: 'https://tienda.example.mx' },
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('a product page preloads its photo, its API answer and its own chunks (not those index.html already loads)', async () => {
    const { rows } = (await t.database.db.execute(
      sql`select code, image_hash from products where active and image_hash is not null order by code limit 1`,
    )) as unknown as { rows: { code: string; image_hash: string }[] };
    const { code, image_hash: hash } = rows[0]!;
    const res = await t.app.inject(`/productos/${encodeURIComponent(code)}`);
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(html).toContain(
      `<link rel="preload" as="image" href="/api/products/${encodeURIComponent(code)}/image?v=${hash}&amp;w=640"`,
    );
    expect(html).toContain(
      `<link rel="preload" as="fetch" crossorigin href="/api/products/${encodeURIComponent(code)}">`,
    );
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/product-page-1.js">');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/kit-1.js">');
    expect(html).not.toContain('modulepreload" crossorigin href="/assets/framework-1.js"');
    // The API answer the hint points at is the product's own.
    const api = await t.app.inject(`/api/products/${encodeURIComponent(code)}`);
    expect(api.json().code).toBe(code);
  });

  it('an unknown product: 404 page without hints for the photo or the API', async () => {
    const res = await t.app.inject('/productos/NO-EXISTE-999');
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('rel="preload"');
  });

  it('the home page preloads only its chunk; pages outside the table get nothing', async () => {
    const home = await t.app.inject('/');
    expect(home.body).toContain('<link rel="modulepreload" crossorigin href="/assets/home-page-1.js">');
    expect(home.body).not.toContain('rel="preload"');
    const account = await t.app.inject('/cuenta');
    expect(account.body).not.toContain('modulepreload');
  });
});
