import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { isDatabaseUnavailable, UNAVAILABLE_MESSAGE } from './errors.ts';

// While PostgreSQL is down (restart, failover, network), shoppers get 503 'not available right now' with
// Retry-After, not 500 'internal error' (scripts/chaos.ts shows it under load with a real stop/start).

describe('database outage', () => {
  let database: Database;
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    // Nothing listens on port 1: every connection attempt is refused, as with a stopped PostgreSQL.
    database = await openDatabase({
      databaseUrl: 'postgres://postgres@127.0.0.1:1/tienda',
      maxConnections: 2,
    });
    app = await buildApp(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }), { database });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('answers catalogue and account requests with 503 and a Spanish message', async () => {
    for (const url of ['/api/products?group=VID', '/api/products/CRX-10000', '/api/brands']) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json().error).toEqual({ code: 'unavailable', message: UNAVAILABLE_MESSAGE });
    }
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: { username: 'ana@example.com', password: 'una contraseña larga' },
    });
    expect(login.statusCode).toBe(503);
  });

  it('tells outages from failed queries', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    // Drizzle wraps the driver's error.
    expect(
      isDatabaseUnavailable(Object.assign(new Error('Failed query: select 1'), { cause: refused })),
    ).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
  });
});
