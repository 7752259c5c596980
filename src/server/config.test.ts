import { describe, expect, it } from 'vitest';
import { shop } from '../shared/shop.ts';
import { shopConfigSchema } from '../shared/shop-schema.ts';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 3000, dataDir: './data', env: 'development', databaseUrl: undefined });
    expect(c.publicUrl).toBe('http://localhost:3000');
  });

  it('names the variable when PORT is not a number', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT/);
  });

  it('names the variable when DATABASE_URL is malformed', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/db' }).databaseUrl).toContain(
      'postgres://',
    );
  });
});

describe('config/shop.json', () => {
  it('is complete: three branches, contacts and the shipping rule', () => {
    expect(shopConfigSchema.safeParse(shop).success).toBe(true);
  });
});
