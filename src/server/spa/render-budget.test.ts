import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/server/support/test-app.ts';
import { loadConfig } from '../config.ts';
import { RenderBudget } from '../http/rate-limit.ts';

/**
 * Issue 37, item 14 (decision 053): every page address never seen before costs a whole server render; one
 * address may have a few per minute (3 here, 120 by default), then gets a Spanish 429 with Retry-After — while
 * the pages already kept are still served to it, to other addresses and to this machine without limit.
 */
let t: TestApp;
let clientDir: string;

beforeAll(async () => {
  clientDir = mkdtempSync(join(tmpdir(), 'renders-'));
  writeFileSync(
    join(clientDir, 'index.html'),
    '<!doctype html><html lang="es-MX"><head><title>x</title><!--page-meta--></head><body><div id="root"></div></body></html>',
  );
  t = await createTestApp({ seedProducts: 5, config: { clientDir, pageRendersPerMinute: 3 } });
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(clientDir, { recursive: true, force: true });
});

const get = (url: string, remoteAddress: string) => t.app.inject({ url, remoteAddress });

describe('server renders per address', () => {
  it('past its budget an address gets a Spanish 429 page with Retry-After for new pages, and still the kept ones', async () => {
    const a = '203.0.113.50';
    expect((await get('/', a)).statusCode).toBe(200); // render 1
    // The same page again is served from the kept body: not counted, however often.
    for (let i = 0; i < 5; i++) expect((await get('/', a)).statusCode).toBe(200);
    expect((await get('/?utm=1', a)).statusCode).toBe(200); // render 2
    expect((await get('/?utm=2', a)).statusCode).toBe(200); // render 3

    const refused = await get('/?utm=3', a);
    expect(refused.statusCode).toBe(429);
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(refused.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(refused.body).toContain('<html lang="es-MX">');
    expect(refused.body).toContain('<h1>Demasiadas solicitudes</h1>');
    expect(refused.body).toContain(`Espere ${wait} segundos y vuelva a intentarlo.`);
    // A made-up path is a render too (the 404 page of that address).
    expect((await get('/no-existe-esta-pagina-123', a)).statusCode).toBe(429);

    // What is kept is still served to that address.
    expect((await get('/', a)).statusCode).toBe(200);
    expect((await get('/?utm=1', a)).statusCode).toBe(200);
    // Another address, and this machine (health checks, benchmarks), are not affected.
    expect((await get('/?utm=3', '198.51.100.9')).statusCode).toBe(200);
    for (let i = 10; i < 16; i++) expect((await get(`/?utm=${i}`, '127.0.0.1')).statusCode).toBe(200);
    // The page another address had rendered is now kept: served to the first one too.
    expect((await get('/?utm=3', a)).statusCode).toBe(200);
  });

  it('the budget is a minute from the first render; 120 per minute unless configured; 0 turns it off', () => {
    let now = 1_000_000;
    const budget = new RenderBudget(2, () => now);
    budget.spend('192.0.2.1');
    budget.spend('192.0.2.1');
    expect(budget.retryAfter('192.0.2.1')).toBe(60);
    now += 45_500;
    expect(budget.retryAfter('192.0.2.1')).toBe(15);
    expect(budget.retryAfter('192.0.2.2')).toBe(0);
    now += 14_500;
    expect(budget.retryAfter('192.0.2.1')).toBe(0);
    budget.spend('192.0.2.1');
    expect(budget.retryAfter('192.0.2.1')).toBe(0);

    const off = new RenderBudget(0);
    for (let i = 0; i < 500; i++) off.spend('192.0.2.3');
    expect(off.retryAfter('192.0.2.3')).toBe(0);

    expect(loadConfig({ NODE_ENV: 'test' }).pageRendersPerMinute).toBe(120);
    expect(
      loadConfig({ NODE_ENV: 'test', RATE_LIMIT_PAGE_RENDERS_PER_MINUTE: '600' }).pageRendersPerMinute,
    ).toBe(600);
  });
});
