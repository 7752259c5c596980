import { z } from 'zod';

/** Environment variables of invoicing (merged into the app's envSchema; listed in the README). */
export const invoicingEnvShape = {
  /** Stamping: the built-in sandbox PAC (default) or SW sapien's REST API. */
  CFDI_PAC: z.enum(['sandbox', 'sw'], { error: 'debe ser sandbox o sw' }).default('sandbox'),
  CFDI_SANDBOX_IN_PRODUCTION: z.enum(['true', 'false']).default('false'),
  /** SW sapien: https://services.test.sw.com.mx (pruebas, default) or https://services.sw.com.mx. */
  CFDI_PAC_URL: z.url('debe ser una URL http(s)://…').optional(),
  CFDI_PAC_USER: z.string().min(1).optional(),
  CFDI_PAC_PASSWORD: z.string().min(1).optional(),
  /** A long-lived SW token instead of user/password. */
  CFDI_PAC_TOKEN: z.string().min(1).optional(),
  /**
   * SAT's CFDI status service (ConsultaCFDIService) for following up cancellations 'en proceso' with SW; default
   * SAT's test service with SW's test environment, production otherwise.
   */
  CFDI_SAT_STATUS_URL: z.url('debe ser una URL http(s)://…').optional(),
  /** The shop's own CSD (SAT's .cer/.key, DER or PEM) and the key's password. */
  CFDI_CSD_CER_PATH: z.string().min(1).optional(),
  CFDI_CSD_KEY_PATH: z.string().min(1).optional(),
  CFDI_CSD_PASSWORD: z.string().min(1).optional(),
  /** SAT's c_CodigoPostal in compact form; default src/server/invoices/catalogs/c_CodigoPostal.txt. */
  CFDI_CP_CATALOGUE_PATH: z.string().min(1).optional(),
  /** Milliseconds after which an unfinished invoice request is taken as dead and recovered (default 120000). */
  CFDI_PENDING_STALE_MS: z
    .string()
    .regex(/^\d{3,9}$/, 'debe ser un número de milisegundos')
    .optional(),
  /** Chaos tests only (scripts/chaos.ts): 'after-stamp' kills the process right after the PAC stamped. */
  CFDI_FAILPOINT: z.enum(['after-stamp'], { error: 'debe ser after-stamp' }).optional(),
};
