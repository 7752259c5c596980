import { z } from 'zod';
import { ConfigError } from '../config-error.ts';
import { invoicingEnvShape } from './env.ts';

const envObject = z.object(invoicingEnvShape);
type InvoicingEnv = z.infer<typeof envObject> & { NODE_ENV: 'development' | 'production' | 'test' };

export type InvoicingConfig = {
  pac:
    | { kind: 'sandbox' }
    | { kind: 'sw'; url: string; user?: string; password?: string; token?: string; satStatusUrl?: string };
  /**
   * The shop's CSD files; absent = the SAT's public test CSD of EKU9003173C9 together with the SAT
   * test issuer (development, tests, sandbox).
   */
  csd?: { certificatePath: string; privateKeyPath: string; password: string };
  /** CFDI_SANDBOX_IN_PRODUCTION: the sandbox PAC may run with NODE_ENV=production. */
  sandboxInProduction: boolean;
  /** CFDI_CP_CATALOGUE_PATH: SAT's c_CodigoPostal (compact form); absent = the one shipped in the repo. */
  postalCodesFile?: string;
  /** CFDI_PENDING_STALE_MS: when an unfinished invoice request counts as dead (default 2 minutes). */
  pendingStaleMs?: number;
  /** CFDI_FAILPOINT (chaos tests): die right after the PAC stamped. Refused with NODE_ENV=production (config.ts). */
  failpoint?: 'after-stamp';
};

/**
 * Checked when the server starts (not in loadConfig, so migrations and scripts still run): production
 * stamps real invoices with the shop's own CSD, never the sandbox by accident.
 */
export function assertInvoicingAllowed(config: { env: string; invoicing: InvoicingConfig }): void {
  if (config.env !== 'production') return;
  const { pac, csd, sandboxInProduction } = config.invoicing;
  if (pac.kind === 'sandbox' && !sandboxInProduction) {
    throw fail(
      'CFDI_PAC: el PAC de prueba (sandbox) no timbra facturas reales con NODE_ENV=production; configure CFDI_PAC=sw o CFDI_SANDBOX_IN_PRODUCTION=true',
    );
  }
  if (pac.kind === 'sw' && !csd) {
    throw fail('CFDI_CSD_CER_PATH: con CFDI_PAC=sw en producción se requiere el CSD de la tienda');
  }
}

const fail = (line: string) => new ConfigError(`Configuración inválida — ${line}`);

export function invoicingConfig(env: InvoicingEnv): InvoicingConfig {
  const csdVars = ['CFDI_CSD_CER_PATH', 'CFDI_CSD_KEY_PATH', 'CFDI_CSD_PASSWORD'] as const;
  const given = csdVars.filter((k) => env[k]);
  if (given.length > 0 && given.length < csdVars.length) {
    throw fail(
      `${csdVars.filter((k) => !env[k]).join(', ')}: se configuran juntas CFDI_CSD_CER_PATH, CFDI_CSD_KEY_PATH y CFDI_CSD_PASSWORD`,
    );
  }
  const csd =
    given.length === csdVars.length
      ? {
          certificatePath: env.CFDI_CSD_CER_PATH!,
          privateKeyPath: env.CFDI_CSD_KEY_PATH!,
          password: env.CFDI_CSD_PASSWORD!,
        }
      : undefined;

  const sandboxInProduction = env.CFDI_SANDBOX_IN_PRODUCTION === 'true';
  const postal = {
    ...(env.CFDI_CP_CATALOGUE_PATH ? { postalCodesFile: env.CFDI_CP_CATALOGUE_PATH } : {}),
    ...(env.CFDI_PENDING_STALE_MS ? { pendingStaleMs: Number(env.CFDI_PENDING_STALE_MS) } : {}),
    ...(env.CFDI_FAILPOINT ? { failpoint: env.CFDI_FAILPOINT } : {}),
  };
  if (env.CFDI_PAC === 'sandbox') {
    return { pac: { kind: 'sandbox' }, sandboxInProduction, ...postal, ...(csd ? { csd } : {}) };
  }

  if (!env.CFDI_PAC_TOKEN && !(env.CFDI_PAC_USER && env.CFDI_PAC_PASSWORD)) {
    throw fail('CFDI_PAC_USER: con CFDI_PAC=sw configure CFDI_PAC_TOKEN o CFDI_PAC_USER y CFDI_PAC_PASSWORD');
  }
  return {
    sandboxInProduction,
    ...postal,
    pac: {
      kind: 'sw',
      url: (env.CFDI_PAC_URL ?? 'https://services.test.sw.com.mx').replace(/\/$/, ''),
      ...(env.CFDI_PAC_USER ? { user: env.CFDI_PAC_USER } : {}),
      ...(env.CFDI_PAC_PASSWORD ? { password: env.CFDI_PAC_PASSWORD } : {}),
      ...(env.CFDI_PAC_TOKEN ? { token: env.CFDI_PAC_TOKEN } : {}),
      ...(env.CFDI_SAT_STATUS_URL ? { satStatusUrl: env.CFDI_SAT_STATUS_URL } : {}),
    },
    ...(csd ? { csd } : {}),
  };
}
