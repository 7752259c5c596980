import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { eq, isNotNull, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ROUTES } from '@/client/app/route-table.ts';
import { SSR_STATE_ID } from '@/client/lib/query-client.ts';
import { CART_COOKIE, encodeCartCookie } from '@/shared/cart-cookie.ts';
import { formatMoney, formatPriceCard, formatPriceDetail } from '@/shared/money.ts';
import { shop } from '@/shared/shop.ts';
import { createTestApp, type TestApp } from '../../../tests/server/support/test-app.ts';
import { quoteCart } from '../cart/quote.ts';
import { getProduct, listProducts } from '../catalog/service.ts';
import { products } from '../db/schema.ts';
import { BOOT_SCRIPT } from './boot-script.ts';
import { classesIn, utilitiesFor } from './css-subset.ts';
import { inlineStylesheets, negotiateEncoding, splitTemplate } from './ssr.ts';

/**
 * The HTML the server sends, read as a crawler or a browser without JavaScript reads it: no build is needed
 * (the page modules are rendered from source), only an index.html shaped like Vite's.
 */
let t: TestApp;
let clientDir: string;

beforeAll(async () => {
  clientDir = mkdtempSync(join(tmpdir(), 'ssr-'));
  mkdirSync(join(clientDir, '.vite'));
  writeFileSync(
    join(clientDir, 'index.html'),
    '<!doctype html>\n<html lang="es-MX">\n  <head>\n    <meta charset="UTF-8" />\n    <title>x</title>\n    <!--page-meta-->\n' +
      '    <script type="module" crossorigin src="/assets/index-1.js"></script>\n' +
      '    <link rel="stylesheet" crossorigin href="/assets/index-1.css">\n  </head>\n' +
      '  <body class="bg-slate-50">\n    <div id="root"></div>\n  </body>\n</html>\n',
  );
  mkdirSync(join(clientDir, 'assets'));
  writeFileSync(
    join(clientDir, 'assets/index-1.css'),
    '@layer theme{:root{--c:#123}}@layer base{h1{margin:0}}@layer utilities{.bg-slate-50{background:#f8fafc}' +
      '.font-mono{font-family:monospace}.nunca-usada{color:red}@media (width>=40rem){.sm\\:nunca{display:none}}}',
  );
  writeFileSync(
    join(clientDir, '.vite/manifest.json'),
    JSON.stringify({
      'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_framework-1.js'] },
      '_framework-1.js': { file: 'assets/framework-1.js' },
      '_kit-1.js': { file: 'assets/kit-1.js', imports: ['_framework-1.js'] },
      'app/routes/product-page.tsx': {
        file: 'assets/product-page-1.js',
        imports: ['_framework-1.js', '_kit-1.js', 'index.html'],
      },
    }),
  );
  t = await createTestApp({
    seedProducts: 60,
    config: { clientDir, publicUrl: 'https://tienda.example.mx' },
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(clientDir, { recursive: true, force: true });
});

/** The visible text of the page's root, tags removed (what a shopper reads without JavaScript). */
function visibleText(html: string): string {
  const root = html.slice(html.indexOf('<div id="root">'), html.indexOf(`<script type="application/json"`));
  return root
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');
}

function queryState(html: string): { queries: { queryKey: unknown[]; state: { data: unknown } }[] } {
  const m = new RegExp(`<script type="application/json" id="${SSR_STATE_ID}">([\\s\\S]*?)</script>`).exec(
    html,
  );
  if (!m) throw new Error('sin estado de consultas en el HTML');
  return JSON.parse(m[1]!);
}

describe('server-rendered pages: the first response carries what the shopper reads', () => {
  it('a product: name, code, price with IVA, stock, description, brand and category, with its metadata', async () => {
    await t.database.db
      .update(products)
      .set({ stock: 7, priceCents: 123456 })
      .where(eq(products.code, 'LBN-10001'));
    const p = (await getProduct(t.database.db, 'LBN-10001'))!;
    const res = await t.app.inject('/productos/LBN-10001');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    const text = visibleText(res.body);
    expect(text).toContain(p.name);
    expect(text).toContain('Código: LBN-10001');
    expect(text).toContain(formatPriceDetail(123456));
    expect(text).toContain('$1,234.56 MXN');
    expect(text).toContain('Precio con IVA incluido');
    expect(text).toContain('7 disponibles');
    expect(text).toContain(p.shortDesc);
    expect(text).toContain('Agregar a carrito');
    expect(res.body).toContain(`href="/grupos/${encodeURIComponent(p.groupClas!)}"`);
    expect(res.body).toContain('<title>LBN-10001 | Labnova</title>');
    expect(res.body).toContain('<link rel="canonical" href="https://tienda.example.mx/productos/LBN-10001">');
    // The boot script starts the entry after the first paint, with the page's own chunks (those index.html
    // already loads are not repeated); nothing is fetched as a module from the head itself.
    const boot = /<script id="tienda-arranque" data-entry="([^"]*)" data-preload="([^"]*)"[^>]*>/.exec(
      res.body,
    );
    expect(boot?.[1]).toBe('/assets/index-1.js');
    expect(boot?.[2]).toBe('/assets/product-page-1.js /assets/kit-1.js');
    expect(res.body).not.toContain('<link rel="modulepreload"');
    expect(res.body).not.toContain('<script type="module"');
    // The browser hydrates from the very answer the HTML shows, under the key its hook reads.
    const product = queryState(res.body).queries.find((q) => q.queryKey[0] === 'product');
    expect(product?.queryKey).toEqual(['product', 'LBN-10001']);
    expect(product?.state.data).toEqual(p);
  });

  it('a product photo is preloaded from the head with the <img>’s srcset (same URLs: one request)', async () => {
    const [row] = await t.database.db
      .select({ code: products.code, hash: products.imageHash })
      .from(products)
      .where(isNotNull(products.imageHash))
      .limit(1);
    const res = await t.app.inject(`/productos/${encodeURIComponent(row!.code)}`);
    const photo = `/api/products/${encodeURIComponent(row!.code)}/image?v=${row!.hash}`;
    const head = res.body.slice(0, res.body.indexOf('</head>'));
    expect(head).toContain(
      `<link rel="preload" as="image" href="${photo}&amp;w=640" imagesrcset="${photo}&amp;w=160 160w`,
    );
    expect(res.body).toContain(`srcSet="${photo}&amp;w=160 160w`);
    const noPhoto = await t.app.inject('/productos/LBN-10001');
    expect(noPhoto.body.slice(0, noPhoto.body.indexOf('</head>'))).not.toContain('as="image"');
  });

  it('never older than the database: a new price and stock show in the next response', async () => {
    await t.database.db
      .update(products)
      .set({ stock: 0, priceCents: 98700 })
      .where(eq(products.code, 'LBN-10001'));
    const text = visibleText((await t.app.inject('/productos/LBN-10001')).body);
    expect(text).toContain('$987.00 MXN');
    expect(text).toContain('Sin inventario');
    expect(text).not.toContain('$1,234.56');
  });

  it('a group: heading, breadcrumb, 9 cards with name, brand, price and link, the paginator and the filters', async () => {
    const list = await listProducts(
      t.database.db,
      { brand: [], group: ['VID'], line: [], type: [], sort: 'code', page: 1, pageSize: 9 },
      { explicitSort: false },
    );
    expect(list.total).toBeGreaterThan(9);
    const res = await t.app.inject('/grupos/VID');
    expect(res.statusCode).toBe(200);
    const text = visibleText(res.body);
    expect(text).toContain('Inicio › Material de vidrio');
    expect(res.body).toMatch(/<h1[^>]*>Material de vidrio<\/h1>/);
    expect(text).toContain(`${list.total} productos`);
    const cards = res.body.match(/data-testid="product-card"/g) ?? [];
    expect(cards).toHaveLength(9);
    for (const card of list.items) {
      expect(text).toContain(card.name);
      expect(text).toContain(`Código: ${card.code}`);
      expect(text).toContain(formatPriceCard(card.priceCents));
      expect(res.body).toContain(`href="/productos/${encodeURIComponent(card.code)}"`);
      if (card.brand) expect(text).toContain(card.brand);
    }
    expect(res.body).toContain('aria-label="Paginación"');
    expect(text).toContain('Siguiente');
    expect(res.body).toContain('href="/grupos/VID?pagina=2"');
    expect(text).toContain('Subcategorías');
    expect(res.body).toContain('<title>Material de vidrio | Ciencia Occidente</title>');
  });

  it('a group page from its URL: the second page and a brand filter are the ones rendered', async () => {
    const res = await t.app.inject('/grupos/VID?pagina=2');
    const state = queryState(res.body).queries.find((q) => q.queryKey[0] === 'products');
    expect(state?.queryKey).toEqual(['products', 'group=VID&page=2']);
    const filtered = await t.app.inject('/grupos/VID?marca=Labnova');
    const filteredState = queryState(filtered.body).queries.find((q) => q.queryKey[0] === 'products');
    expect(filteredState?.queryKey).toEqual(['products', 'brand=Labnova&group=VID']);
    expect(visibleText(filtered.body)).toContain('Labnova ×');
  });

  it('a search: the term, the count and the matching cards; what comes from the URL is escaped', async () => {
    const res = await t.app.inject('/busqueda/matraz');
    expect(res.statusCode).toBe(200);
    const text = visibleText(res.body);
    expect(text).toContain('Resultados de búsqueda por MATRAZ');
    expect(text).toMatch(/Se encontraron \d+ resultados/);
    expect(text).toMatch(/Matraz/);
    const xss = await t.app.inject('/busqueda/%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(xss.statusCode).toBe(200);
    expect(xss.body).not.toContain('<script>alert');
    expect(visibleText(xss.body)).toContain('Sin resultados para «&lt;script&gt;alert(1)&lt;/script&gt;»');
  });

  it('a static page and the home page carry their Spanish texts', async () => {
    const branches = await t.app.inject('/sucursales');
    expect(branches.statusCode).toBe(200);
    const text = visibleText(branches.body);
    for (const b of shop.branches) expect(text).toContain(b.name);
    expect(branches.body).toContain('<title>Sucursales | Ciencia Occidente</title>');
    const home = visibleText((await t.app.inject('/')).body);
    expect(home).toContain('Enfocados en la excelencia');
    expect(home).toContain('Nuestras marcas');
    expect(home).toContain('Material de vidrio');
  });

  it('an unknown product and an unknown address answer 404 with the "Página no encontrada" page', async () => {
    for (const [url, heading] of [
      ['/productos/NO-EXISTE-999', 'Producto no encontrado'],
      ['/ruta/desconocida', 'Página no encontrada'],
      ['/grupos/NOPE', 'Categoría no encontrada'],
      ['/marcas/NoExiste', 'Marca no encontrada'],
    ] as const) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(visibleText(res.body), url).toContain('Página no encontrada');
      expect(res.body, url).toMatch(new RegExp(`<h1[^>]*>${heading}</h1>`));
      expect(res.body, url).toContain(`<title>${heading} | Ciencia Occidente</title>`);
      expect(res.body).not.toContain('application/ld+json');
    }
  });

  it('signed-in and client-rendered pages answer 200 with the shell and a placeholder', async () => {
    for (const url of [
      '/admin',
      '/admin/pedidos',
      '/cuenta',
      '/cuenta/perfil',
      '/carrito',
      '/orden',
      '/ingresar',
    ]) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('role="status"');
    }
    expect(visibleText((await t.app.inject('/carrito')).body)).toContain('Categorías');
  });

  it('the cart from its cookie: 2 lines with their names, quantities and the server’s prices and total', async () => {
    const rows = await t.database.db
      .select({ code: products.code, name: products.name })
      .from(products)
      .where(eq(products.active, true))
      .orderBy(products.code)
      .limit(2);
    const [a, b] = rows as [{ code: string; name: string }, { code: string; name: string }];
    await t.database.db
      .update(products)
      .set({ stock: 50, priceCents: 12345 })
      .where(eq(products.code, a.code));
    await t.database.db
      .update(products)
      .set({ stock: 50, priceCents: 50000 })
      .where(eq(products.code, b.code));
    const cookie = `${CART_COOKIE}=${encodeCartCookie([
      { code: a.code, quantity: 2 },
      { code: b.code, quantity: 3 },
    ])}`;
    const res = await t.app.inject({ url: '/carrito', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const text = visibleText(res.body);
    const quote = await quoteCart(t.database.db, [
      { code: a.code, quantity: 2 },
      { code: b.code, quantity: 3 },
    ]);
    expect(quote.subtotalCents).toBe(2 * 12345 + 3 * 50000);
    for (const name of [a.name, b.name]) expect(text).toContain(name);
    expect(text).toContain('(5 artículos)');
    expect(res.body).toMatch(/aria-label="Cantidad de [^"]*"[^>]*value="2"/);
    expect(res.body).toMatch(/aria-label="Cantidad de [^"]*"[^>]*value="3"/);
    expect(text).toContain(`${formatMoney(12345)} c/u`);
    expect(text).toContain(`Total de orden ${formatMoney(quote.totalCents)}`);
    expect(text).not.toContain('Su carrito está vacío');
    expect(res.headers.vary).toContain('Cookie');
    // Prices are the database's at the time of the request, never the cookie's nor an earlier render's.
    await t.database.db.update(products).set({ priceCents: 20000 }).where(eq(products.code, a.code));
    const later = visibleText((await t.app.inject({ url: '/carrito', headers: { cookie } })).body);
    expect(later).toContain(`${formatMoney(20000)} c/u`);
    expect(later).not.toContain(`${formatMoney(12345)} c/u`);
    // Another cart is another page (the render cache is keyed by the cart's content).
    const one = `${CART_COOKIE}=${encodeCartCookie([{ code: b.code, quantity: 1 }])}`;
    const other = visibleText((await t.app.inject({ url: '/carrito', headers: { cookie: one } })).body);
    expect(other).toContain('(1 artículo)');
    expect(other).not.toContain(a.name);
    // An empty cart cookie is an empty cart; a cookie this shop did not write leaves the cart to the browser.
    expect(
      visibleText((await t.app.inject({ url: '/carrito', headers: { cookie: `${CART_COOKIE}=` } })).body),
    ).toContain('Su carrito está vacío');
    const forged = await t.app.inject({ url: '/carrito', headers: { cookie: `${CART_COOKIE}=x*0|<b>*1` } });
    expect(forged.statusCode).toBe(200);
    expect(forged.body).toContain('role="status"');
  });

  it('a brand written in another case is redirected to its one address, keeping the query', async () => {
    const res = await t.app.inject('/marcas/labnova?linea=X');
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe('/marcas/Labnova?linea=X');
  });

  it('deep links in another case or without accents answer 301 to the one address (brand, group, product)', async () => {
    for (const [url, location] of [
      ['/marcas/polimerica', '/marcas/Polim%C3%A9rica'],
      ['/marcas/POLIMÉRICA?pagina=2', '/marcas/Polim%C3%A9rica?pagina=2'],
      ['/grupos/vid', '/grupos/VID'],
      ['/grupos/vid-mat?marca=Labnova', '/grupos/VID-MAT?marca=Labnova'],
      ['/productos/lbn-10001', '/productos/LBN-10001'],
    ] as const) {
      const res = await t.app.inject(encodeURI(url));
      expect(res.statusCode, url).toBe(301);
      expect(res.headers.location, url).toBe(location);
    }
    expect((await t.app.inject('/productos/lbn-99999')).statusCode).toBe(404);
  });

  it('a search with nothing to search for, and an address with a broken escape, answer the 404 page in HTML', async () => {
    for (const [url, heading] of [
      ['/busqueda/%20', 'Búsqueda vacía'],
      ['/busqueda/..%20', 'Búsqueda vacía'],
      ['/busqueda/%23', 'Búsqueda vacía'],
      ['/busqueda/%E0%A4%A', 'Página no encontrada'],
    ] as const) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.body, url).toMatch(new RegExp(`<h1[^>]*>${heading}</h1>`));
      expect(visibleText(res.body), url).not.toContain('Resultados de búsqueda');
    }
    // The API keeps answering its own errors in JSON.
    const api = await t.app.inject('/api/products/%E0%A4%A');
    expect(api.statusCode).toBe(400);
    expect(api.json().error.code).toBe('invalid_request');
  });

  it('past the last page a listing redirects (302) to its last page, keeping the filters', async () => {
    const first = queryState((await t.app.inject('/grupos/VID')).body).queries.find(
      (q) => q.queryKey[0] === 'products',
    )?.state.data as { pages: number };
    expect(first.pages).toBeGreaterThan(1);
    const res = await t.app.inject('/grupos/VID?marca=Labnova&pagina=999');
    expect(res.statusCode).toBe(302);
    const labnova = queryState((await t.app.inject('/grupos/VID?marca=Labnova')).body).queries.find(
      (q) => q.queryKey[0] === 'products',
    )?.state.data as { pages: number };
    expect(res.headers.location).toBe(
      labnova.pages > 1 ? `/grupos/VID?marca=Labnova&pagina=${labnova.pages}` : '/grupos/VID?marca=Labnova',
    );
    const search = await t.app.inject('/busqueda/matraz?pagina=500');
    expect(search.statusCode).toBe(302);
    expect(search.headers.location).toMatch(/^\/busqueda\/matraz(\?pagina=\d+)?$/);
    const brand = await t.app.inject('/marcas/Labnova?pagina=500');
    expect(brand.statusCode).toBe(302);
    // The last page itself is a page.
    expect((await t.app.inject(`/grupos/VID?pagina=${first.pages}`)).statusCode).toBe(200);
  });

  it('a product with only its datasheet shows no empty «Acerca de»; the returns policy names the company once', async () => {
    const [row] = await t.database.db.select({ code: products.code }).from(products).limit(1).offset(7);
    await t.database.db
      .update(products)
      .set({ longDescHtml: '', datasheetHash: 'ficha-e2e' })
      .where(eq(products.code, row!.code));
    const html = (await t.app.inject(`/productos/${encodeURIComponent(row!.code)}`)).body;
    expect(visibleText(html)).toContain('Ficha técnica');
    expect(visibleText(html)).not.toContain('Acerca de');
    const policy = visibleText((await t.app.inject('/politica_de_devoluciones')).body);
    expect(policy).toContain('S.A. de C.V.');
    expect(policy).not.toContain('C.V..');
  });

  it('one inline script, the boot script, allowed by its hash in the page’s CSP; the API’s CSP is unchanged', async () => {
    for (const url of ['/', '/grupos/VID', '/productos/LBN-10001', '/nope', '/carrito']) {
      const res = await t.app.inject(url);
      const scripts = [...res.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      const executable = scripts.filter(([, attrs]) => !/type="application\/(json|ld\+json)"/.test(attrs!));
      expect(
        executable.map(([, , text]) => text),
        url,
      ).toEqual([BOOT_SCRIPT]);
      const hash = `'sha256-${createHash('sha256').update(BOOT_SCRIPT).digest('base64')}'`;
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain(`script-src 'self' ${hash};`);
      expect(csp).not.toContain("unsafe-inline'; object");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    }
    const api = String((await t.app.inject('/api/groups')).headers['content-security-policy']);
    expect(api).toContain("script-src 'self';");
  });

  it('a name that tries to close the state’s <script> stays data: escaped in the markup and in the JSON', async () => {
    const name = 'Matraz </script><script>alert(1)</script> & <b>\u2028';
    await t.database.db.update(products).set({ name }).where(eq(products.code, 'LBN-10001'));
    const html = (await t.app.inject('/productos/LBN-10001')).body;
    expect(html).not.toContain('<script>alert(1)');
    expect(html.match(/<\/script>/g)).toHaveLength((html.match(/<script\b/g) ?? []).length);
    const product = queryState(html).queries.find((q) => q.queryKey[0] === 'product');
    expect((product!.state.data as { name: string }).name).toBe(name);
    // A line separator ends a line in a script: in the JSON it is written escaped too.
    expect(html.slice(html.indexOf(`id="${SSR_STATE_ID}"`))).not.toContain('\u2028');
    expect(visibleText(html)).toContain(
      'Matraz &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; & &lt;b&gt;',
    );
  });

  it('the CSS in the HTML is the stylesheet without utilities plus the utilities the page uses; the boot script loads it whole', async () => {
    const html = (await t.app.inject('/productos/LBN-10001')).body;
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain('<style>@layer theme;@layer base{h1{margin:0}}@layer utilities;</style>');
    expect(head).toContain('data-css="/assets/index-1.css"');
    const body = html.slice(html.indexOf('</head>'));
    expect(body).toContain(
      '<style>@layer utilities{.bg-slate-50{background:#f8fafc}.font-mono{font-family:monospace}}</style><div id="root">',
    );
    expect(html).not.toContain('nunca');
  });

  it('compressed as it streams when the browser accepts it', async () => {
    const res = await t.app.inject({ url: '/grupos/VID', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString('utf8')).toContain('Material de vidrio');
    // gzip, also where brotli is accepted: the page is spliced from pieces compressed apart (decision 019).
    expect(negotiateEncoding('gzip, deflate, br')).toBe('gzip');
    expect(negotiateEncoding('br;q=0, gzip')).toBe('gzip');
    expect(negotiateEncoding('br, gzip;q=0')).toBe('identity');
    expect(negotiateEncoding(undefined)).toBe('identity');
  });

  it('the same page twice is the same document; a sale or a new price shows at the next request', async () => {
    const get = async (url: string) => {
      const res = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
      return gunzipSync(res.rawPayload).toString('utf8');
    };
    const [row] = await t.database.db
      .select({ code: products.code })
      .from(products)
      .where(ne(products.code, 'LBN-10001'))
      .limit(1);
    const code = row!.code;
    const first = await get(`/productos/${code}`);
    expect(visibleText(first)).toMatch(/disponible|Sin inventario/);
    // Byte for byte: the query cache carries no time (the browser counts it fetched on arrival), so the same data
    // is the same text — the kept body's key (decision 043).
    expect(await get(`/productos/${code}`)).toBe(first);
    // The rendered body is kept by address and data: the stock and price read now decide what is sent.
    await t.database.db
      .update(products)
      .set({ stock: 3, priceCents: 4321000 })
      .where(eq(products.code, code));
    const after = await get(`/productos/${code}`);
    expect(visibleText(after)).toContain('3 disponibles');
    expect(visibleText(after)).toContain('$43,210.00 MXN');
    const product = queryState(after).queries.find((q) => q.queryKey[0] === 'product');
    expect(product?.state.data).toMatchObject({ stock: 3, priceCents: 4321000 });
    await t.database.db.update(products).set({ stock: 0 }).where(eq(products.code, code));
    expect(visibleText(await get(`/productos/${code}`))).toContain('Sin inventario');
    // Another address with the same data is its own page.
    expect(await get(`/productos/${code}?x=1`)).toContain(
      `Código: <span class="font-mono font-medium text-slate-800">${code}`,
    );
  });
});

describe('a rendered page is not kept alive by the server after its response', () => {
  it('no timer per page: rendering 20 product pages leaves the process with as many timers as before', async () => {
    const codes = (
      await t.database.db
        .select({ code: products.code })
        .from(products)
        .where(eq(products.active, true))
        .limit(20)
    ).map((p) => p.code);
    expect(codes).toHaveLength(20);
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    for (const code of codes) expect((await t.app.inject(`/productos/${code}`)).statusCode).toBe(200);
    // Each page's query cache (its product, the menu, …) must be collectable once the page is sent: a timer per
    // query (a finite gcTime) would hold every page of the last minutes in memory.
    expect(timers() - before).toBeLessThan(5);
  });
  it('a page leaves in at most two writes to the socket, the response’s end with the body, never alone', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const [row] = await t.database.db.select({ code: products.code }).from(products).limit(1);
    // Each write to a socket is a system call and, on loopback, the receiver's work too (decision 043).
    type Writes = Record<'_write' | '_writev', (...args: unknown[]) => void>;
    const writes = [
      vi.spyOn(Socket.prototype as unknown as Writes, '_write'),
      vi.spyOn(Socket.prototype as unknown as Writes, '_writev'),
    ];
    /** The bytes of each write of the shop's sockets (not the database's), in order. */
    const shopWrites = () =>
      writes
        .flatMap((spy) =>
          spy.mock.calls.map((args, i) => ({
            order: spy.mock.invocationCallOrder[i]!,
            server: (spy.mock.contexts[i] as { server?: unknown }).server,
            bytes: Buffer.concat(
              spy === writes[0]
                ? [Buffer.from(args[0] as Buffer)]
                : // Node's writev replaces each { chunk } of the list by its chunk when all are buffers.
                  (args[0] as ({ chunk: Buffer | string } | Buffer)[]).map((c) =>
                    Buffer.isBuffer(c) ? c : Buffer.from(c.chunk),
                  ),
            ),
          })),
        )
        .filter((w) => w.server)
        .sort((x, y) => x.order - y.order)
        .map((w) => w.bytes);
    try {
      for (const encoding of ['gzip', 'identity']) {
        const before = shopWrites().length;
        const res = await fetch(`${address}/productos/${row!.code}`, {
          headers: { 'accept-encoding': encoding },
        });
        expect(res.status).toBe(200);
        expect(await res.text()).toContain(row!.code);
        const sent = shopWrites().slice(before);
        expect(sent.length, encoding).toBeLessThanOrEqual(2);
        expect(sent[0]!.toString('latin1'), encoding).toMatch(/^HTTP\/1\.1 200 [\s\S]*\r\n\r\n[\s\S]{100}/);
        // The chunked encoding's end (0 CRLF CRLF) leaves with the last of the page.
        expect(sent.at(-1)!.toString('latin1').endsWith('\r\n0\r\n\r\n'), encoding).toBe(true);
        expect(sent.at(-1)!.length, encoding).toBeGreaterThan(100);
      }
    } finally {
      for (const spy of writes) spy.mockRestore();
    }
  });
});

describe('the route table is the one list of pages', () => {
  it('every page module exists and the public pages are server-rendered', async () => {
    for (const r of ROUTES) await expect(import(`@/client/${r.page}`)).resolves.toHaveProperty('Component');
    const catalogue = [
      '',
      'todas_las_marcas',
      'marcas/:brandName',
      'grupos/:groupName',
      'busqueda/:name',
      'productos/:code',
      '*',
    ];
    for (const path of catalogue) expect(ROUTES.find((r) => r.path === path)?.render, path).toBe('server');
    expect(ROUTES.filter((r) => r.staticPage && r.render === 'server')).toHaveLength(11);
  });

  it('the sitemap lists the table’s listed pages', async () => {
    const xml = (await t.app.inject('/sitemap.xml')).body;
    for (const r of ROUTES.filter((r) => r.sitemap))
      expect(xml).toContain(`<loc>https://tienda.example.mx/${r.path}</loc>`);
  });

  it('the stylesheet is written inline (the first paint waits for the HTML alone); an unknown file stays a link', () => {
    const html =
      '<head><link rel="stylesheet" crossorigin href="/assets/index-1.css"><link rel="stylesheet" href="/assets/gone.css"></head>';
    const out = inlineStylesheets(html, (href) =>
      href === '/assets/index-1.css' ? 'a{color:red}</style>' : null,
    );
    expect(out).toEqual({
      html: '<head><style>a{color:red}<\\/style></style><link rel="stylesheet" href="/assets/gone.css"></head>',
      styles: null,
    });
  });

  it('a Tailwind stylesheet: the head keeps all but the utilities, which each page gets as far as its markup uses them', () => {
    const css =
      '@layer theme{:root{--c:red}}@layer base{h1{margin:0}}@layer components;@layer utilities{.p-4{padding:1rem}' +
      '.text-red{color:var(--c)}.sm\\:block{display:block}@media (width>=40rem){.sm\\:flex{display:flex}}' +
      '.hover\\:underline:hover{text-decoration:underline}.\\[\\&\\>svg\\]\\:size-4>svg{width:1rem}' +
      ':where(.space-y-2>:not(:last-child)){margin-top:.5rem}.shadow{--tw-x:1px;box-shadow:var(--tw-x)}}' +
      '@property --tw-x{syntax:"*";inherits:false}';
    const { html, styles } = inlineStylesheets(
      '<head><link rel="stylesheet" href="/assets/i.css"></head>',
      () => css,
    );
    // Theme variables and @property rules go with the utilities that read them.
    expect(html).toBe(
      '<head><style>@layer theme;@layer base{h1{margin:0}}@layer components;@layer utilities;</style></head>',
    );
    expect(styles?.href).toBe('/assets/i.css');
    const used = classesIn(
      '<p class="p-4 sm:flex hover:underline"></p><span class="[&amp;&gt;svg]:size-4 x"></span>',
    );
    expect(utilitiesFor(styles!.split, used)).toBe(
      '@layer utilities{.p-4{padding:1rem}@media (width>=40rem){.sm\\:flex{display:flex}}' +
        '.hover\\:underline:hover{text-decoration:underline}.\\[\\&\\>svg\\]\\:size-4>svg{width:1rem}}',
    );
    expect(utilitiesFor(styles!.split, new Set(['text-red', 'shadow']))).toBe(
      '@layer theme{:root{--c:red}}@layer utilities{.text-red{color:var(--c)}.shadow{--tw-x:1px;box-shadow:var(--tw-x)}}' +
        '@property --tw-x{syntax:"*";inherits:false}',
    );
    expect(utilitiesFor(styles!.split, new Set(['space-y-2']))).toBe(
      '@layer utilities{:where(.space-y-2>:not(:last-child)){margin-top:.5rem}}',
    );
  });

  it('the template is cut at the head’s end and the root element', () => {
    const parts = splitTemplate(
      '<html><head><title>x</title><!--page-meta--><link></head><body><div id="root"></div></body></html>',
    );
    expect(parts).toEqual({
      head: '<html><head><link>',
      bodyOpen: '</head><body>',
      tail: '</body></html>',
      styles: null,
      entry: null,
      preload: [],
    });
    // The entry module and its modulepreloads leave the head: the boot script starts them after the paint.
    const built = splitTemplate(
      '<html><head><title>x</title>\n    <script type="module" crossorigin src="/assets/index-1.js"></script>\n' +
        '    <link rel="modulepreload" crossorigin href="/assets/framework-1.js">\n</head><body><div id="root"></div></body></html>',
    );
    expect(built).toMatchObject({
      head: '<html><head>',
      entry: '/assets/index-1.js',
      preload: ['/assets/framework-1.js'],
    });
  });
});
