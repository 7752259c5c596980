import { eq } from 'drizzle-orm';
import { shop } from '../../shared/shop.ts';
import type { AppConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { type invoices, type orders, sandboxCfdiStamps } from '../db/schema.ts';
import { instrumented } from '../metrics/adapters.ts';
import { type Csd, loadCsd, TEST_CSD } from './csd.ts';
import { SandboxPac, type SandboxStampStore } from './pac/sandbox.ts';
import { SwSapienPac } from './pac/sw-sapien.ts';
import type { Pac } from './pac/types.ts';
import { loadPostalCatalogue, type PostalCatalogue } from './postal-codes.ts';

/**
 * What every invoicing flow runs with: the database, the PAC, the issuer and its CSD, the clock. The flows live
 * one per file beside this one (issue, replace, cancel, credit notes, follow-up, downloads, global).
 */

/** The SAT's test issuer that owns the public test CSD (development, tests, sandbox). */
export const TEST_ISSUER = {
  rfc: 'EKU9003173C9',
  nombre: 'ESCUELA KEMPER URGATE',
  regimenFiscal: '601',
  lugarExpedicion: '86035',
} as const;

export type Issuer = { rfc: string; nombre: string; regimenFiscal: string; lugarExpedicion: string };

export type InvoicingContext = {
  db: Db;
  publicUrl: string;
  pac: Pac;
  csd: Csd;
  issuer: Issuer;
  now: () => Date;
  /** SAT's c_CodigoPostal; an empty one checks nothing. */
  postalCodes: PostalCatalogue;
  /** A 'pending' invoice older than this was left by a request that died; the next request recovers it. */
  pendingStaleMs: number;
  /** Chaos tests only: die at this point (config.ts refuses it in production). */
  failpoint?: 'after-stamp' | undefined;
  log?: { error: (obj: object, msg: string) => void; warn?: (obj: object, msg: string) => void };
};

/** Builds the invoicing context from configuration; throws (at start) on a bad CSD. */
export function createInvoicingContext(
  config: AppConfig,
  db: Db,
  overrides: Partial<Pick<InvoicingContext, 'pac' | 'now' | 'log' | 'pendingStaleMs'>> = {},
): InvoicingContext {
  // The production guard (assertInvoicingAllowed) runs in main.ts at start, beside the payments one, so tests
  // can build a production app to check headers and cookies.
  const own = config.invoicing.csd;
  const csd = loadCsd(own ?? TEST_CSD);
  const issuer: Issuer = own
    ? {
        rfc: shop.invoicing.issuer.rfc,
        nombre: shop.invoicing.issuer.name,
        regimenFiscal: shop.invoicing.issuer.regimenFiscal,
        lugarExpedicion: shop.invoicing.issuer.postalCode,
      }
    : TEST_ISSUER;
  if (csd.rfc !== issuer.rfc) {
    throw new Error(
      `El CSD configurado es del RFC ${csd.rfc}, pero el emisor de config/shop.json (invoicing.issuer) es ${issuer.rfc}`,
    );
  }
  const pacConfig = config.invoicing.pac;
  const made =
    overrides.pac ??
    (pacConfig.kind === 'sw'
      ? new SwSapienPac({
          url: pacConfig.url,
          user: pacConfig.user,
          password: pacConfig.password,
          token: pacConfig.token,
          satStatusUrl: pacConfig.satStatusUrl,
          csd,
        })
      : new SandboxPac(csd, undefined, dbStampStore(db)));
  // Every flow reaches the PAC through its context: timed for /metrics here.
  const pac = instrumented(`pac_${made.name}`, made);
  const postalCodes = loadPostalCatalogue(config.invoicing.postalCodesFile);
  if (postalCodes.size === 0) {
    overrides.log?.warn?.(
      {},
      'el catálogo c_CodigoPostal del SAT está vacío: el CP del receptor no se compara con él (npm run sat:postal-codes)',
    );
  }
  return {
    db,
    publicUrl: config.publicUrl,
    pac,
    csd,
    issuer,
    postalCodes,
    pendingStaleMs: overrides.pendingStaleMs ?? config.invoicing.pendingStaleMs ?? STALE_PENDING_MS,
    ...(config.invoicing.failpoint ? { failpoint: config.invoicing.failpoint } : {}),
    now: overrides.now ?? (() => new Date()),
    ...(overrides.log ? { log: overrides.log } : {}),
  };
}

/** The sandbox PAC's stamps in the shop's database, so that it answers the same stamp after a crash. */
function dbStampStore(db: Db): SandboxStampStore {
  const read = async (key: string) => {
    const [row] = await db.select().from(sandboxCfdiStamps).where(eq(sandboxCfdiStamps.key, key)).limit(1);
    return row?.stamp;
  };
  return {
    get: read,
    put: async (key, stamp) => {
      await db.insert(sandboxCfdiStamps).values({ key, stamp }).onConflictDoNothing();
      return (await read(key)) ?? stamp;
    },
  };
}

/** A 'pending' row older than this belongs to a request that died mid-way (CFDI_PENDING_STALE_MS). */
export const STALE_PENDING_MS = 2 * 60 * 1000;

export type OrderRow = typeof orders.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;

/** When a 'pending' row counts as left behind by a request that died (crash, timeout). */
export const staleBefore = (ctx: InvoicingContext) => new Date(ctx.now().getTime() - ctx.pendingStaleMs);
