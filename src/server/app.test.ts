import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/server/support/test-app.ts';
import { loadConfig } from './config.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seedProducts: 60 });
});
afterAll(() => t.close());

describe('health', () => {
  it('answers /healthz and /readyz with the database kind', async () => {
    expect((await t.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json().database).toBe(t.database.kind);
  });

  it('reports 503 on /readyz when the database is gone', async () => {
    const original = t.database.ping;
    t.database.ping = () => Promise.reject(new Error('down'));
    try {
      const res = await t.app.inject('/readyz');
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toBe('Base de datos no disponible');
    } finally {
      t.database.ping = original;
    }
  });
});

describe('GET /api/groups', () => {
  it('returns the category tree: top-level groups with their sub-groups', async () => {
    const res = await t.app.inject('/api/groups');
    expect(res.statusCode).toBe(200);
    const { groups } = res.json() as {
      groups: { clas: string; name: string; subgroups: { clas: string }[] }[];
    };
    expect(groups.map((g) => g.name)).toContain('Material de vidrio');
    expect(groups.length).toBeGreaterThanOrEqual(8);
    for (const g of groups) {
      expect(g.subgroups.length).toBeGreaterThanOrEqual(3);
      expect(g.subgroups.length).toBeLessThanOrEqual(6);
      for (const s of g.subgroups) expect(s.clas.startsWith(`${g.clas}-`)).toBe(true);
    }
  });
});

describe('OpenAPI', () => {
  it('publishes an OpenAPI 3 document generated from the route schemas', async () => {
    const res = await t.app.inject('/api/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths).toHaveProperty('/api/groups');
  });

  it('serves the interactive docs at /api/docs', async () => {
    const res = await t.app.inject('/api/docs/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });

  it('API_DOCS=false turns /api/docs and /api/openapi.json off (404)', async () => {
    expect(loadConfig({}).apiDocs).toBe(true);
    expect(loadConfig({ API_DOCS: 'false' }).apiDocs).toBe(false);
    const off = await createTestApp({ config: { apiDocs: false } });
    try {
      for (const url of ['/api/docs/', '/api/docs', '/api/openapi.json']) {
        expect((await off.app.inject(url)).statusCode, url).toBe(404);
      }
      expect((await off.app.inject('/api/groups')).statusCode).toBe(200);
    } finally {
      await off.close();
    }
  });
});

describe('errors', () => {
  it('answers unknown API paths with a Spanish JSON 404', async () => {
    const res = await t.app.inject('/api/no-existe');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 'not_found', message: 'Recurso no encontrado' } });
  });

  it('sets security headers with a CSP that forbids inline scripts and framing', async () => {
    const res = await t.app.inject('/healthz');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
