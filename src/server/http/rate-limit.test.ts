import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/server/support/test-app.ts';

// A card tester or a scraper from one address is slowed down; other shoppers are not affected.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ config: { rateLimit: { perMinute: 8, sensitivePerMinute: 3 } } });
});
afterAll(() => t.close());

const order = (remoteAddress: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/orders',
    remoteAddress,
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    payload: { items: [{ code: 'X', quantity: 1 }], cardToken: 'tok', deviceSessionId: 'd' },
  });

describe('rate limits', () => {
  it('stops repeated order attempts from one address with a Spanish 429 and Retry-After', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await order('203.0.113.7')).statusCode);
    expect(statuses).not.toContain(429);
    // The fourth within the minute: the tight limit of orders (3 here), well below the general one (8).
    const blocked = await order('203.0.113.7');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.json().error.message).toBe('Demasiados intentos. Intente de nuevo más tarde.');
    // Another shopper is served.
    expect((await order('198.51.100.20')).statusCode).not.toBe(429);
  });

  it('limits every API request per address, but not pages, and not this machine', async () => {
    const get = (url: string, remoteAddress: string) => t.app.inject({ url, remoteAddress });
    const statuses = [];
    for (let i = 0; i < 9; i++) statuses.push((await get('/api/groups', '192.0.2.44')).statusCode);
    expect(statuses.slice(0, 8).every((s) => s === 200)).toBe(true);
    expect(statuses[8]).toBe(429);
    expect((await get('/healthz', '192.0.2.44')).statusCode).toBe(200);
    for (let i = 0; i < 12; i++) expect((await get('/api/groups', '127.0.0.1')).statusCode).toBe(200);
  });
});
