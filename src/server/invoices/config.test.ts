import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { assertInvoicingAllowed } from './config.ts';
import { createInvoicingContext, TEST_ISSUER } from './context.ts';
import { TEST_CSD } from './csd.ts';

const base = { NODE_ENV: 'test', LOG_LEVEL: 'silent' };

describe('invoicing configuration', () => {
  it('defaults to the sandbox PAC with the SAT test CSD and test issuer', () => {
    const config = loadConfig(base);
    expect(config.invoicing).toEqual({ pac: { kind: 'sandbox' }, sandboxInProduction: false });
    const ctx = createInvoicingContext(config, {} as Db);
    expect(ctx.pac.name).toBe('sandbox');
    expect(ctx.issuer).toEqual(TEST_ISSUER);
    expect(ctx.csd.rfc).toBe('EKU9003173C9');
  });

  it('refuses to start the sandbox PAC in production unless explicitly allowed (scripts still load the config)', () => {
    const prod = loadConfig({ NODE_ENV: 'production' });
    expect(() => assertInvoicingAllowed(prod)).toThrow(ConfigError);
    // The guard belongs to the server's start (main.ts); building the app itself stays possible for tests.
    expect(() => createInvoicingContext(prod, {} as Db)).not.toThrow();
    const allowed = loadConfig({ NODE_ENV: 'production', CFDI_SANDBOX_IN_PRODUCTION: 'true' });
    expect(() => assertInvoicingAllowed(allowed)).not.toThrow();
  });

  it('needs SW credentials, all three CSD variables together, and the shop’s CSD in production', () => {
    expect(() => loadConfig({ ...base, CFDI_PAC: 'sw' })).toThrow(/CFDI_PAC_USER/);
    expect(() => loadConfig({ ...base, CFDI_PAC: 'finkok' })).toThrow(/CFDI_PAC: debe ser sandbox o sw/);
    expect(() => loadConfig({ ...base, CFDI_CSD_CER_PATH: '/x.cer' })).toThrow(
      /CFDI_CSD_KEY_PATH, CFDI_CSD_PASSWORD: se configuran juntas/,
    );
    expect(() =>
      assertInvoicingAllowed(loadConfig({ NODE_ENV: 'production', CFDI_PAC: 'sw', CFDI_PAC_TOKEN: 't' })),
    ).toThrow(/se requiere el CSD de la tienda/);
    const sw = loadConfig({ ...base, CFDI_PAC: 'sw', CFDI_PAC_USER: 'u', CFDI_PAC_PASSWORD: 'p' });
    expect(sw.invoicing.pac).toEqual({
      kind: 'sw',
      url: 'https://services.test.sw.com.mx',
      user: 'u',
      password: 'p',
    });
    expect(() => assertInvoicingAllowed(sw)).not.toThrow();
  });

  it('refuses a CSD whose RFC is not the issuer of config/shop.json', () => {
    const config = loadConfig({
      ...base,
      CFDI_CSD_CER_PATH: TEST_CSD.certificatePath,
      CFDI_CSD_KEY_PATH: TEST_CSD.privateKeyPath,
      CFDI_CSD_PASSWORD: TEST_CSD.password,
    });
    expect(() => createInvoicingContext(config, {} as Db)).toThrow(
      /El CSD configurado es del RFC EKU9003173C9, pero el emisor de config\/shop.json \(invoicing.issuer\) es SCO090415QX1/,
    );
  });
});
