import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.ts';
import { seedDemoCatalogue } from '../../../src/server/catalog/demo/seed.ts';
import { type AppConfig, loadConfig } from '../../../src/server/config.ts';
import type { Database } from '../../../src/server/db/client.ts';
import { registerWithCode, registration } from '../support/accounts.ts';
import { openTestDatabase } from '../support/test-db.ts';

/**
 * Security headers and session cookies, on the app built with the production configuration (HSTS,
 * `__Host-` cookies, Secure) and with the development one (neither): CSP without 'unsafe-inline' or
 * 'unsafe-eval' for scripts, frame-ancestors/object-src/base-uri 'none', nosniff, a referrer policy.
 */

const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  PUBLIC_URL: 'https://tienda.ejemplo.mx',
  // The offline simulators are what this machine has; both need an explicit yes in production.
  PAYMENTS_SANDBOX_IN_PRODUCTION: 'true',
  CFDI_SANDBOX_IN_PRODUCTION: 'true',
};

type Built = { app: FastifyInstance; database: Database };
let production: Built;
let development: Built;
let clientDir: string;

async function build(env: Record<string, string>): Promise<Built> {
  const database = await openTestDatabase();
  await seedDemoCatalogue(database.db, { products: 3 });
  const config: AppConfig = { ...loadConfig(env), clientDir };
  const app = await buildApp(config, { database });
  await app.ready();
  return { app, database };
}

beforeAll(async () => {
  clientDir = mkdtempSync(join(tmpdir(), 'tienda-safety-client-'));
  writeFileSync(
    join(clientDir, 'index.html'),
    '<!doctype html><html lang="es-MX"><head><title>x</title><!--page-meta--></head><body><div id="root"></div><script type="module" src="/assets/app.js"></script></body></html>',
  );
  production = await build(PRODUCTION_ENV);
  development = await build({
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://127.0.0.1:3000',
  });
}, 240_000);

afterAll(async () => {
  for (const b of [production, development]) {
    await b?.app.close();
    await b?.database.close();
  }
  rmSync(clientDir, { recursive: true, force: true });
});

/** The CSP header as a map of directive → sources. */
function csp(res: LightMyRequestResponse): Map<string, string[]> {
  const header = String(res.headers['content-security-policy'] ?? '');
  return new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

const PAGES = ['/', '/productos/LBN-10001', '/carrito', '/ingresar', '/no-existe'];
const API = ['/api/groups', '/api/auth/session', '/api/orders', '/api/no-existe'];

function expectStrictHeaders(res: LightMyRequestResponse, label: string) {
  const policy = csp(res);
  expect(policy.size, `${label}: Content-Security-Policy`).toBeGreaterThan(0);
  const scripts = policy.get('script-src') ?? policy.get('default-src') ?? [];
  expect(scripts, `${label}: script-src`).toContain("'self'");
  expect(scripts, label).not.toContain("'unsafe-inline'");
  expect(scripts, label).not.toContain("'unsafe-eval'");
  expect(
    scripts.some((s) => s === '*' || s === 'data:' || s === 'http:' || s === 'https:'),
    label,
  ).toBe(false);
  expect(policy.get('frame-ancestors'), label).toEqual(["'none'"]);
  expect(policy.get('object-src'), label).toEqual(["'none'"]);
  expect(policy.get('base-uri'), label).toEqual(["'none'"]);
  expect(policy.get('form-action'), label).toEqual(["'self'"]);
  expect(res.headers['x-content-type-options'], label).toBe('nosniff');
  expect(res.headers['referrer-policy'], label).toMatch(
    /^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/,
  );
  expect(res.headers['x-powered-by'], label).toBeUndefined();
  expect(res.headers['cross-origin-opener-policy'], label).toBe('same-origin');
  // Issue 23: no powerful browser feature for the shop or anything it embeds.
  const permissions = String(res.headers['permissions-policy'] ?? '');
  for (const feature of ['camera', 'microphone', 'geolocation', 'usb']) {
    expect(permissions, `${label}: Permissions-Policy ${feature}`).toContain(`${feature}=()`);
  }
  // X-Frame-Options says the same as frame-ancestors 'none' (DENY), never SAMEORIGIN.
  expect(res.headers['x-frame-options'], label).toBe('DENY');
}

describe('headers in production', () => {
  it('pages, API answers and errors carry the strict CSP, nosniff, a referrer policy and HSTS', async () => {
    for (const url of [...PAGES, ...API]) {
      const res = await production.app.inject({ url, headers: { 'x-forwarded-proto': 'https' } });
      expectStrictHeaders(res, url);
      const hsts = String(res.headers['strict-transport-security'] ?? '');
      expect(Number(/max-age=(\d+)/.exec(hsts)?.[1]), `${url}: HSTS`).toBeGreaterThanOrEqual(31_536_000);
      expect(hsts).toContain('includeSubDomains');
      expect(csp(res).has('upgrade-insecure-requests'), url).toBe(true);
    }
  });

  it('the session cookie is __Host-, Secure, HttpOnly, SameSite=Lax, Path=/ and has no Domain', async () => {
    const body = registration();
    const res = await registerWithCode(production.app, body, {
      'x-forwarded-proto': 'https',
      origin: 'https://tienda.ejemplo.mx',
    });
    expect(res.statusCode).toBe(200);
    const cookies = [res.headers['set-cookie']].flat().filter(Boolean) as string[];
    expect(cookies).toHaveLength(1);
    const [nameValue, ...attributes] = cookies[0]!.split(';').map((p) => p.trim());
    expect(nameValue).toMatch(/^__Host-sid=[A-Za-z0-9_-]{43}$/);
    const attrs = attributes.map((a) => a.toLowerCase());
    expect(attrs).toContain('secure');
    expect(attrs).toContain('httponly');
    expect(attrs).toContain('samesite=lax');
    expect(attrs).toContain('path=/');
    expect(attrs.some((a) => a.startsWith('domain='))).toBe(false);

    // Sign-out clears it with the same attributes (a browser keeps a cookie it cannot match).
    const cookie = nameValue!;
    const out = await production.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie, 'x-forwarded-proto': 'https' },
    });
    const cleared = String([out.headers['set-cookie']].flat()[0]);
    expect(cleared).toMatch(/^__Host-sid=;/);
    expect(cleared.toLowerCase()).toContain('secure');
    expect(cleared.toLowerCase()).toContain('path=/');
  });

  it('a plain "sid" cookie (set over http, or by a sibling subdomain) is not a session in production', async () => {
    const body = registration();
    const res = await registerWithCode(production.app, body);
    const token = String([res.headers['set-cookie']].flat()[0]).split(';')[0]!.split('=')[1];
    const asPlain = await production.app.inject({
      url: '/api/auth/session',
      headers: { cookie: `sid=${token}` },
    });
    expect(asPlain.json()).toEqual({ user: null });
    const asHost = await production.app.inject({
      url: '/api/auth/session',
      headers: { cookie: `__Host-sid=${token}` },
    });
    expect(asHost.json().user.email).toBe(body.username);
  });

  it('no CORS: a foreign Origin gets no Access-Control-Allow-* headers, and preflights are not granted', async () => {
    for (const url of ['/api/auth/session', '/api/orders', '/api/groups']) {
      const res = await production.app.inject({ url, headers: { origin: 'https://evil.example' } });
      expect(res.headers['access-control-allow-origin'], url).toBeUndefined();
      expect(res.headers['access-control-allow-credentials'], url).toBeUndefined();
      const preflight = await production.app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'PUT' },
      });
      expect(preflight.headers['access-control-allow-origin'], url).toBeUndefined();
      expect(preflight.headers['access-control-allow-methods'], url).toBeUndefined();
    }
  });

  it('answers with personal data are not cached', async () => {
    for (const url of ['/api/auth/session', '/api/orders']) {
      const res = await production.app.inject({ url });
      if (res.statusCode === 200) expect(res.headers['cache-control'], url).toMatch(/no-store/);
    }
  });

  it('development tools are absent in production (/dev/correo, and /api/docs unless API_DOCS=true)', async () => {
    for (const url of [
      '/dev/correo',
      '/dev/correo.json',
      '/dev/correo/1',
      '/api/docs/',
      '/api/openapi.json',
    ]) {
      const res = await production.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
    }
    expect((await development.app.inject({ url: '/api/openapi.json' })).statusCode).toBe(200);
  });
});

describe('development tools answer only on this machine', () => {
  it('/dev/correo from another address is refused in Spanish, even with X-Forwarded-For: 127.0.0.1', async () => {
    for (const url of ['/dev/correo', '/dev/correo.json', '/dev/correo/1']) {
      const local = await development.app.inject({ url: '/dev/correo.json', remoteAddress: '127.0.0.1' });
      expect(local.statusCode, url).toBe(200);
      for (const headers of [{}, { 'x-forwarded-for': '127.0.0.1' }]) {
        const res = await development.app.inject({ url, remoteAddress: '192.168.1.50', headers });
        expect(res.statusCode, url).toBe(403);
        expect(res.body, url).toContain('solo responde a solicitudes desde esta misma máquina');
        expect(res.body, url).not.toContain('@');
      }
    }
  });

  it('development listens on 127.0.0.1 unless HOST says otherwise; production on every interface', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'test' }).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ NODE_ENV: 'production' }).host).toBe('0.0.0.0');
  });
});

describe('headers in development', () => {
  it('the same CSP and headers, but no HSTS (the shop is served over plain http locally)', async () => {
    for (const url of [...PAGES, ...API]) {
      const res = await development.app.inject({ url });
      expectStrictHeaders(res, url);
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
      expect(csp(res).has('upgrade-insecure-requests'), url).toBe(false);
    }
  });

  it('the session cookie is HttpOnly and SameSite=Lax without Secure (http://localhost)', async () => {
    const res = await registerWithCode(development.app, registration());
    const cookie = String([res.headers['set-cookie']].flat()[0]);
    expect(cookie).toMatch(/^sid=[A-Za-z0-9_-]{43};/);
    expect(cookie.toLowerCase()).toContain('httponly');
    expect(cookie.toLowerCase()).toContain('samesite=lax');
    expect(cookie.toLowerCase()).not.toContain('secure');
  });
});

describe('page paths with junk (the server renders each page’s metadata from the path)', () => {
  it('never answer 5xx', async () => {
    const junk = [
      '%00',
      'a%00b',
      '%ff',
      '%E0%A4%A',
      '..%2f..%2fetc%2fpasswd',
      encodeURIComponent('<script>x</script>'),
      'a'.repeat(3000),
      '%C0%AF',
      encodeURIComponent("' or 1=1 --"),
    ];
    for (const page of ['productos', 'marcas', 'grupos', 'busqueda', 'resumen', 'factura']) {
      for (const j of junk) {
        const res = await development.app.inject({ url: `/${page}/${j}` });
        expect(res.statusCode, `/${page}/${j.slice(0, 30)}`).toBeLessThan(500);
        expect(res.body).not.toContain('<script>x</script>');
      }
    }
  });
});
