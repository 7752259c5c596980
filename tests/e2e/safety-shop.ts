import { type ChildProcess, spawn } from 'node:child_process';
import { type Browser, type BrowserContext, test as base_, expect, type Page } from '@playwright/test';
import { BOOT_SCRIPT } from '../../src/server/spa/boot-script.ts';
import { PAYLOADS, SEARCH_PAYLOADS } from './safety-payloads.ts';

/**
 * Browser safety journeys in real Chromium (safety-xss*.spec.ts, safety-redirect.spec.ts), against the shop of
 * tests/e2e/safety-server.ts whose every displayed field carries an XSS payload (see there):
 *  - XSS: every page that shows those fields, as the shopper and as staff, with the CSP on and again
 *    with the CSP bypassed (so escaping and the sanitizer must hold on their own): no payload ever
 *    runs (`window.__xss` never set, no dialog), and no event-handler attribute, javascript: URL,
 *    srcdoc frame, object, refresh or base element ever reaches the DOM;
 *  - open redirect: /ingresar?redirect=… with foreign targets signs in and stays on the shop;
 *  - CSRF: HTML pages served from another local port post forms (and no-cors fetches) to the shop
 *    with the shopper's cookie; all refused, nothing changes.
 * The safety shop is started once per Playwright worker (a worker fixture), whichever of those files the
 * worker runs, so the journeys can be split over files that run in parallel without starting it again.
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

/** This worker's safety shop; set by the worker fixture before any test of these files runs. */
export let fx: Fixture;
export let base: string;

export const test = base_.extend<Record<never, never>, { safetyShop: Fixture }>({
  safetyShop: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const server: ChildProcess = spawn(
        process.execPath,
        ['--import', 'tsx', '--import', './scripts/quick-start.mjs', 'tests/e2e/safety-server.ts'],
        {
          env: { ...process.env, CLIENT_DIR: process.env.CLIENT_DIR ?? 'dist/client' },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      fx = await new Promise<Fixture>((resolve, reject) => {
        let out = '';
        server.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const line = /SAFETY_READY (.*)\n/.exec(out);
          if (line) resolve(JSON.parse(line[1]!) as Fixture);
        });
        server.once('exit', (code) => reject(new Error(`safety-server terminó (${code}): ${out}`)));
      });
      base = `http://127.0.0.1:${fx.port}`;
      await use(fx);
      if (server.exitCode === null) {
        const exited = new Promise((r) => server.once('exit', r));
        server.kill('SIGTERM');
        await exited;
      }
    },
    { scope: 'worker', auto: true, timeout: 180_000 },
  ],
});
export { expect };

export type Watch = { dialogs: string[]; external: string[] };

/** A context that records dialogs and blocks (and records) any request leaving the shop's origin. */
export async function watchedContext(
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
export function dangerousDom(bootScript: string): string[] {
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

export async function expectNothingRan(page: Page, label: string, watch: Watch) {
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

export async function visit(page: Page, watch: Watch, path: string) {
  await page.goto(`${base}${path}`, { waitUntil: 'load' });
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
  // Let lazy parts render and give any injected handler its chance (autofocus, onload, toggle).
  await page.mouse.move(200, 300);
  await page.mouse.move(640, 450);
  await page.waitForTimeout(150);
  await expectNothingRan(page, path, watch);
}

export const shopperPages = () => [
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

export const staffPages = () => [
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
