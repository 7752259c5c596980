import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { BOOT_SCRIPT } from '../../src/server/spa/boot-script.ts';
import { PAYLOADS, SEARCH_PAYLOADS } from './safety-payloads.ts';

/**
 * Browser safety journeys in real Chromium, against the shop of tests/e2e/safety-server.ts whose every
 * displayed field carries an XSS payload (see there):
 *  - XSS: every page that shows those fields, as the shopper and as staff, with the CSP on and again
 *    with the CSP bypassed (so escaping and the sanitizer must hold on their own): no payload ever
 *    runs (`window.__xss` never set, no dialog), and no event-handler attribute, javascript: URL,
 *    srcdoc frame, object, refresh or base element ever reaches the DOM;
 *  - open redirect: /ingresar?redirect=… with foreign targets signs in and stays on the shop;
 *  - CSRF: HTML pages served from another local port post forms (and no-cors fetches) to the shop
 *    with the shopper's cookie; all refused, nothing changes.
 */

type Fixture = {
  port: number;
  cookie: string;
  staffCookie: string;
  email: string;
  password: string;
  userId: number;
  codes: string[];
  brand: string;
  group: string;
  orders: number[];
  mails: number[];
};

let fx: Fixture;
let base: string;
let server: ChildProcess | undefined;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = spawn(process.execPath, ['--import', 'tsx', 'tests/e2e/safety-server.ts'], {
    env: { ...process.env, CLIENT_DIR: process.env.CLIENT_DIR ?? 'dist/client' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  fx = await new Promise<Fixture>((resolve, reject) => {
    let out = '';
    server!.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = /SAFETY_READY (.*)\n/.exec(out);
      if (line) resolve(JSON.parse(line[1]!) as Fixture);
    });
    server!.once('exit', (code) => reject(new Error(`safety-server terminó (${code}): ${out}`)));
  });
  base = `http://127.0.0.1:${fx.port}`;
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server!.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
});

type Watch = { dialogs: string[]; external: string[] };

/** A context that records dialogs and blocks (and records) any request leaving the shop's origin. */
async function watchedContext(
  browser: Browser,
  options: { cookie?: string; bypassCSP?: boolean } = {},
): Promise<{ context: BrowserContext; watch: Watch }> {
  const context = await browser.newContext({ bypassCSP: options.bypassCSP ?? false, locale: 'es-MX' });
  const watch: Watch = { dialogs: [], external: [] };
  if (options.cookie) {
    const [name, value] = options.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: base, httpOnly: true, sameSite: 'Lax' }]);
  }
  await context.route(
    (url) => url.origin !== base && url.protocol !== 'data:' && url.protocol !== 'blob:',
    async (route) => {
      watch.external.push(route.request().url());
      await route.abort();
    },
  );
  context.on('page', (page) => {
    page.on('dialog', (dialog) => {
      watch.dialogs.push(dialog.message());
      void dialog.dismiss().catch(() => {});
    });
  });
  return { context, watch };
}

/** What in the DOM could run code: on* attributes, javascript: URLs, srcdoc, object/embed, refresh, base. */
/** What in the page could run; `bootScript` is the one inline script the server sends (allowed by its hash). */
function dangerousDom(bootScript: string): string[] {
  const found: string[] = [];
  for (const el of Array.from(document.querySelectorAll('*'))) {
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      // Browsers drop whitespace and control characters from URLs ('java\tscript:' is 'javascript:').
      const value = [...attr.value]
        .filter((c) => c.charCodeAt(0) > 32)
        .join('')
        .toLowerCase();
      if (name.startsWith('on')) found.push(`${el.tagName} ${name}`);
      if (
        ['href', 'src', 'action', 'formaction', 'data', 'xlink:href'].includes(name) &&
        value.startsWith('javascript:')
      )
        found.push(`${el.tagName} ${name}=${attr.value.slice(0, 40)}`);
      if (name === 'srcdoc') found.push(`${el.tagName} srcdoc`);
    }
    const tag = el.tagName.toLowerCase();
    if (tag === 'object' || tag === 'embed') found.push(tag);
    if (tag === 'meta' && el.getAttribute('http-equiv')?.toLowerCase() === 'refresh')
      found.push('meta refresh');
    if (tag === 'base') found.push('base');
    // A data block (JSON-LD, the server's query cache as JSON) never runs: only a script that would is dangerous.
    const dataBlock = ['application/ld+json', 'application/json'].includes(el.getAttribute('type') ?? '');
    if (tag === 'script' && !el.getAttribute('src') && !dataBlock && el.textContent !== bootScript)
      found.push(`inline script ${el.textContent?.slice(0, 40)}`);
  }
  return found;
}

async function expectNothingRan(page: Page, label: string, watch: Watch) {
  for (const frame of page.frames()) {
    const flag = await frame
      .evaluate(() => (window as unknown as { __xss?: unknown }).__xss)
      .catch(() => undefined);
    expect(flag, `${label}: window.__xss`).toBeUndefined();
    const dom = await frame.evaluate(dangerousDom, BOOT_SCRIPT).catch(() => [] as string[]);
    expect(dom, `${label}: DOM peligroso`).toEqual([]);
  }
  expect(watch.dialogs, `${label}: diálogos`).toEqual([]);
}

async function visit(page: Page, watch: Watch, path: string) {
  await page.goto(`${base}${path}`, { waitUntil: 'load' });
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
  // Let lazy parts render and give any injected handler its chance (autofocus, onload, toggle).
  await page.mouse.move(200, 300);
  await page.mouse.move(640, 450);
  await page.waitForTimeout(150);
  await expectNothingRan(page, path, watch);
}

const shopperPages = () => [
  '/',
  '/todas_las_marcas',
  `/marcas/${encodeURIComponent(fx.brand)}`,
  `/grupos/${encodeURIComponent(fx.group)}`,
  ...fx.codes.slice(0, 6).map((c) => `/productos/${encodeURIComponent(c)}`),
  ...SEARCH_PAYLOADS.map((p) => `/busqueda/${encodeURIComponent(p)}`),
  `/productos/${encodeURIComponent(PAYLOADS[1]!)}`,
  `/marcas/${encodeURIComponent(PAYLOADS[0]!)}`,
  '/carrito',
  '/envio',
  '/orden',
  '/cuenta',
  '/historial',
  ...fx.orders.map((n) => `/resumen/${n}`),
  ...fx.orders.map((n) => `/factura/${n}`),
  '/dev/correo',
  ...fx.mails.map((id) => `/dev/correo/${id}`),
];

const staffPages = () => [
  '/admin',
  '/admin/pedidos',
  ...fx.orders.map((n) => `/admin/pedidos/${n}`),
  '/admin/productos',
  ...fx.codes.slice(0, 4).map((c) => `/admin/productos/${encodeURIComponent(c)}`),
  '/admin/facturas',
  '/admin/clientes',
  `/admin/clientes/${fx.userId}`,
  '/admin/bitacora',
];

test('the detector sees a payload that does run (control)', async ({ browser }) => {
  const { context, watch } = await watchedContext(browser, { bypassCSP: true });
  const page = await context.newPage();
  await page.setContent(`<p>x</p>${PAYLOADS[1]}`);
  await page.waitForFunction(() => (window as unknown as { __xss?: unknown }).__xss === 1);
  expect(await page.evaluate(dangerousDom, BOOT_SCRIPT)).toContain('IMG onerror');
  expect(watch.dialogs).toEqual(['1']);
  await context.close();
});

for (const bypassCSP of [false, true]) {
  const mode = bypassCSP ? 'sin CSP (el escape y el saneador solos)' : 'con la CSP';
  test.describe(`XSS ${mode}`, () => {
    test('the shopper’s pages never run a payload', async ({ browser }) => {
      test.setTimeout(240_000);
      const { context, watch } = await watchedContext(browser, { cookie: fx.cookie, bypassCSP });
      const page = await context.newPage();
      for (const path of shopperPages()) await visit(page, watch, path);

      // Interactions that show more stored text: the receipt dialog, the header search.
      await visit(page, watch, '/historial');
      const receipt = page.getByRole('button', { name: 'Ver recibo' }).first();
      if (await receipt.isVisible()) {
        await receipt.click();
        await page.waitForTimeout(300);
        await expectNothingRan(page, 'recibo', watch);
      }
      await visit(page, watch, '/');
      for (const term of SEARCH_PAYLOADS.slice(0, 3)) {
        const box = page.getByPlaceholder('Buscar por nombre, código o CAS…').first();
        await box.fill(term);
        await box.press('Enter');
        await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
        await expectNothingRan(page, `búsqueda ${term}`, watch);
      }
      // The stored payloads really are on the pages (as text), so the test looks at the right thing.
      await visit(page, watch, `/productos/${encodeURIComponent(fx.codes[0]!)}`);
      await expect(page.getByRole('heading', { level: 1 })).toContainText(`Matraz 0 ${PAYLOADS[0]}`);
      expect(watch.external, 'peticiones fuera de la tienda').toEqual([]);
      await context.close();
    });

    test('the back office never runs a payload', async ({ browser }) => {
      test.setTimeout(180_000);
      const { context, watch } = await watchedContext(browser, { cookie: fx.staffCookie, bypassCSP });
      const page = await context.newPage();
      for (const path of staffPages()) await visit(page, watch, path);
      expect(watch.external, 'peticiones fuera de la tienda').toEqual([]);
      await context.close();
    });
  });
}

test.describe('open redirect', () => {
  const targets = [
    '//evil.example/',
    'https://evil.example/',
    '/\\evil.example/',
    '\\\\evil.example/',
    'javascript:window.__xss=1',
    'JaVaScRiPt:window.__xss=1',
    '/%2F%2Fevil.example',
    '%2F%2Fevil.example',
    '/\t/evil.example',
    ' //evil.example',
    'http:evil.example',
    'data:text/html,<script>window.__xss=1</script>',
    // Issue 23: dot segments that normalise to a protocol-relative '//host' after validation.
    '/..//evil.example/',
    '/.//evil.example/',
    '/%2e%2e//evil.example/',
    '/a/..//evil.example/',
    '/.\\/evil.example/',
  ];

  test('signing in with a foreign redirect target stays on the shop', async ({ browser }) => {
    test.setTimeout(180_000);
    for (const target of targets) {
      const { context, watch } = await watchedContext(browser);
      const page = await context.newPage();
      await page.goto(`${base}/ingresar?redirect=${encodeURIComponent(target)}`);
      await page.getByLabel('Correo electrónico').fill(fx.email);
      await page.getByLabel('Contraseña', { exact: true }).fill(fx.password);
      await page.getByRole('button', { name: 'Ingresar' }).click();
      await page.waitForURL((url) => !url.pathname.startsWith('/ingresar'), { timeout: 15_000 });
      await page.waitForLoadState('load');
      const url = new URL(page.url());
      expect(url.origin, target).toBe(base);
      expect(url.pathname.startsWith('//'), target).toBe(false);
      expect(watch.external, `${target}: peticiones fuera de la tienda`).toEqual([]);
      await expectNothingRan(page, target, watch);
      await context.close();
    }
  });

  test('a same-site target is honoured (positive control)', async ({ browser }) => {
    const { context } = await watchedContext(browser);
    const page = await context.newPage();
    await page.goto(`${base}/ingresar?redirect=${encodeURIComponent('/historial')}`);
    await page.getByLabel('Correo electrónico').fill(fx.email);
    await page.getByLabel('Contraseña', { exact: true }).fill(fx.password);
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await page.waitForURL(`${base}/historial`);
    await context.close();
  });
});

test.describe('cross-site request forgery from another local port', () => {
  let evil: Server;
  let evilOrigin: string;
  let html = '';

  test.beforeAll(async () => {
    evil = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
    });
    await new Promise<void>((r) => evil.listen(0, '127.0.0.1', () => r()));
    evilOrigin = `http://127.0.0.1:${(evil.address() as AddressInfo).port}`;
  });
  test.afterAll(async () => {
    await new Promise((r) => evil.close(r));
  });

  test('forms and no-cors fetches posted from another origin are refused; the order, cart and session stay', async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ locale: 'es-MX' });
    const [name, value] = fx.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: base, httpOnly: true, sameSite: 'Lax' }]);
    const page = await context.newPage();
    const api = context.request;
    const order = fx.orders[2]!;
    const invoiced = fx.orders[0]!;
    const state = async () => ({
      order: (await (await api.get(`${base}/api/orders/${order}`)).json()).status,
      invoice: (await (await api.get(`${base}/api/orders/${invoiced}/invoice`)).json()).status,
      cart: await (await api.get(`${base}/api/cart`)).text(),
      session: (await (await api.get(`${base}/api/auth/session`)).json()).user?.email,
    });
    const before = await state();
    expect(before.session).toBe(fx.email);
    expect(before.order).toBe('paid');

    const attacks = [
      // A plain form: application/x-www-form-urlencoded, with the victim's cookie (same site: ports do not count).
      `<form id="f" method="post" action="${base}/api/orders/${order}/cancel"><input name="x" value="1"></form>`,
      `<form id="f" method="post" action="${base}/api/orders/${invoiced}/invoice/cancel"></form>`,
      `<form id="f" method="post" action="${base}/api/auth/logout"></form>`,
      // text/plain can smuggle something that looks like JSON.
      `<form id="f" method="post" enctype="text/plain" action="${base}/api/cart/merge"><input name='{"items":[{"code":"${fx.codes[7]}","quantity":9}],"x":"' value='"}'></form>`,
      `<form id="f" method="post" enctype="multipart/form-data" action="${base}/api/orders/${order}/cancel"><input name="a" value="b"></form>`,
    ];
    for (const form of attacks) {
      html = `<!doctype html><html><body>${form}<script>document.getElementById('f').submit()</script></body></html>`;
      const answer = page.waitForResponse((r) => r.url().startsWith(base) && r.request().method() === 'POST');
      await page.goto(`${evilOrigin}/`);
      const res = await answer;
      expect([403, 415], `${form.slice(0, 80)} → ${res.status()}`).toContain(res.status());
      await page.waitForLoadState('load');
    }
    // fetch() without CORS: the browser sends it (opaque answer) with the cookie; the shop must refuse it.
    html = `<!doctype html><html><body><script>
      const opts = { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' } };
      Promise.all([
        fetch('${base}/api/orders/${order}/cancel', opts),
        fetch('${base}/api/cart/merge', { ...opts, body: JSON.stringify({ items: [{ code: '${fx.codes[8]}', quantity: 5 }] }) }),
        fetch('${base}/api/auth/logout', opts),
      ]).finally(() => { document.title = 'listo'; });
    </script></body></html>`;
    await page.goto(`${evilOrigin}/`);
    await expect(page).toHaveTitle('listo');

    expect(await state()).toEqual(before);
    await context.close();
  });
});
