import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../tests/server/support/test-db.ts';
import { buildApp } from '../app.ts';
import { ConfigError, loadConfig } from '../config.ts';
import type { Database } from '../db/client.ts';

// The client's address feeds the per-address sign-in limit: a client must not be able to pick it by
// sending its own X-Forwarded-For. Only as many proxies as TRUST_PROXY says are believed.

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

async function seenAddress(env: Record<string, string>, headers: Record<string, string>) {
  const app = await buildApp(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env }), { database });
  app.get('/__ip', async (request) => ({ ip: request.ip }));
  await app.ready();
  try {
    const res = await app.inject({ url: '/__ip', headers, remoteAddress: '10.0.0.5' });
    return (res.json() as { ip: string }).ip;
  } finally {
    await app.close();
  }
}

describe('TRUST_PROXY', () => {
  const spoofed = { 'x-forwarded-for': '6.6.6.6, 203.0.113.9' };

  it('ignores X-Forwarded-For by default outside production', async () => {
    expect(await seenAddress({}, spoofed)).toBe('10.0.0.5');
  });

  it('believes no proxy unless told, also in production (which refuses to start without TRUST_PROXY)', async () => {
    expect(await seenAddress({ NODE_ENV: 'production' }, spoofed)).toBe('10.0.0.5');
  });

  it('TRUST_PROXY=1 believes one proxy: the address it appended, not the one the client wrote', async () => {
    expect(await seenAddress({ NODE_ENV: 'production', TRUST_PROXY: '1' }, spoofed)).toBe('203.0.113.9');
    expect(await seenAddress({ TRUST_PROXY: '1' }, spoofed)).toBe('203.0.113.9');
  });

  it('can name the proxies, and then a request from elsewhere is taken at its socket address', async () => {
    expect(await seenAddress({ TRUST_PROXY: '10.0.0.0/8' }, spoofed)).toBe('203.0.113.9');
    expect(await seenAddress({ TRUST_PROXY: '192.168.1.1' }, spoofed)).toBe('10.0.0.5');
    expect(await seenAddress({ NODE_ENV: 'production', TRUST_PROXY: '0' }, spoofed)).toBe('10.0.0.5');
  });

  it('rejects a value that is neither a count nor addresses, naming the variable', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
  });
});
