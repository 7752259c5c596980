import { describe, expect, it } from 'vitest';
import { shop } from '../shared/shop.ts';
import { shopConfigSchema } from '../shared/shop-schema.ts';
import { assertProductionSettings, ConfigError, loadConfig, TEST_ONLY_VARIABLES } from './config.ts';

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

describe('production refuses the defaults a newcomer falls into (issue 23)', () => {
  const complete = {
    NODE_ENV: 'production',
    TRUST_PROXY: '0',
    SMTP_URL: 'smtp://correo.example.mx:587',
    PUBLIC_URL: 'https://tienda.example.mx',
  };
  const check = (env: Record<string, string>) => () => assertProductionSettings(loadConfig(env), env);

  it.each(['TRUST_PROXY', 'SMTP_URL', 'PUBLIC_URL'])('without %s: one Spanish line naming it', (name) => {
    const env: Record<string, string> = { ...complete };
    delete env[name];
    expect(check(env)).toThrow(ConfigError);
    let message = '';
    try {
      check(env)();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(
      new RegExp(`^Configuración inválida — ${name}: es obligatoria con NODE_ENV=production`),
    );
    expect(message).not.toContain('\n');
  });

  it('an empty value counts as missing; all three given starts', () => {
    expect(check({ ...complete, TRUST_PROXY: '' })).toThrow(/TRUST_PROXY/);
    expect(check(complete)).not.toThrow();
    expect(check({ ...complete, TRUST_PROXY: '1' })).not.toThrow();
  });

  it('development needs none of them', () => {
    expect(check({})).not.toThrow();
  });

  it('SEED_DEMO is false by default in production, true elsewhere, and can be set', () => {
    expect(loadConfig(complete).seedDemo).toBe(false);
    expect(loadConfig({ ...complete, SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(loadConfig({}).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });

  it('TRUST_PROXY believes nobody unless given', () => {
    expect(loadConfig(complete).trustProxy).toBe(0);
    expect(loadConfig({ NODE_ENV: 'production' }).trustProxy).toBe(0);
  });
});

describe('production refuses test-only switches and hides the API docs (issue 38)', () => {
  const complete = {
    NODE_ENV: 'production',
    TRUST_PROXY: '0',
    SMTP_URL: 'smtp://correo.example.mx:587',
    PUBLIC_URL: 'https://tienda.example.mx',
  };
  const refusal = (env: Record<string, string>) => {
    try {
      assertProductionSettings(loadConfig(env), env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    return null;
  };

  it.each([
    ['OPENPAY_API_URL', 'http://127.0.0.1:3599'],
    ['CFDI_FAILPOINT', 'after-stamp'],
  ])('%s set: the start is refused with one line naming it, in Spanish and English', (name, value) => {
    const message = refusal({ ...complete, [name]: value });
    expect(message).toMatch(
      new RegExp(
        `^Configuración inválida — ${name}: solo para pruebas, no se permite con NODE_ENV=production`,
      ),
    );
    expect(message).toContain('test-only setting, refused with NODE_ENV=production');
    expect(message).not.toContain('\n');
  });

  it('the test-only switches are allowed outside production', () => {
    for (const name of Object.keys(TEST_ONLY_VARIABLES)) {
      const env = { [name]: name === 'CFDI_FAILPOINT' ? 'after-stamp' : 'http://127.0.0.1:3599' };
      expect(refusal({ ...env, NODE_ENV: 'test' })).toBeNull();
      expect(refusal({ ...env, NODE_ENV: 'development' })).toBeNull();
    }
    expect(refusal(complete)).toBeNull();
  });

  it('/api/docs is off by default in production, on elsewhere; API_DOCS decides when set', () => {
    expect(loadConfig(complete).apiDocs).toBe(false);
    expect(loadConfig({ ...complete, API_DOCS: 'true' }).apiDocs).toBe(true);
    expect(loadConfig({}).apiDocs).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).apiDocs).toBe(true);
    expect(loadConfig({ API_DOCS: 'false' }).apiDocs).toBe(false);
  });
});

describe('config/shop.json', () => {
  it('is complete: three branches, contacts and the shipping rule', () => {
    expect(shopConfigSchema.safeParse(shop).success).toBe(true);
  });
});
