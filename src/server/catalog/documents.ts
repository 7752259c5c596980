import { and, desc, eq, sql } from 'drizzle-orm';
import { lotKey } from '../../shared/lots.ts';
import type { PublicCertificate } from '../../shared/schemas/documents.ts';
import type { Db } from '../db/client.ts';
import { lotCertificates, productSafetySheets, products } from '../db/schema.ts';

/**
 * The safety and quality documents a shopper reads on a product page (decision 028): the family's HDS and its
 * certificates of analysis per lot. Both live under the family's base code; any presentation's page and URL
 * reach them through its own code.
 */

/** How many lots the product page lists (newest first); older ones are found with the lot search. */
export const LISTED_LOTS = 12;

const enc = encodeURIComponent;
export const safetySheetUrl = (code: string, hash: string) => `/api/products/${enc(code)}/hds.pdf?v=${hash}`;
export const certificateUrl = (code: string, lot: string, hash: string) =>
  `/api/products/${enc(code)}/certificate.pdf?lot=${enc(lot)}&v=${hash}`;

/** The family (base code) of an active product, or null when there is no such product. */
export async function activeFamilyOf(db: Db, code: string): Promise<string | null> {
  const [row] = await db
    .select({ code: products.code, familyCode: products.familyCode })
    .from(products)
    .where(and(eq(products.code, code), eq(products.active, true)))
    .limit(1);
  return row ? (row.familyCode ?? row.code) : null;
}

type CertificateRow = { lot: string; analysisDate: string | null; expiryDate: string | null; hash: string };
export const toPublicCertificate = (code: string, r: CertificateRow): PublicCertificate => ({
  lot: r.lot,
  analysisDate: r.analysisDate,
  expiryDate: r.expiryDate,
  url: certificateUrl(code, r.lot, r.hash),
});

const certificateColumns = {
  lot: lotCertificates.lot,
  analysisDate: lotCertificates.analysisDate,
  expiryDate: lotCertificates.expiryDate,
  hash: lotCertificates.hash,
};

/** What the product page of `code` (a presentation of `familyCode`) shows of the family's documents. */
export async function documentsForPage(
  db: Db,
  code: string,
  familyCode: string,
): Promise<{ safetySheetUrl: string | null; certificates: PublicCertificate[]; certificateCount: number }> {
  const [[sheet], certificates, [counted]] = await Promise.all([
    db
      .select({ hash: productSafetySheets.hash })
      .from(productSafetySheets)
      .where(eq(productSafetySheets.familyCode, familyCode)),
    db
      .select(certificateColumns)
      .from(lotCertificates)
      .where(eq(lotCertificates.familyCode, familyCode))
      .orderBy(desc(lotCertificates.uploadedAt), desc(lotCertificates.id))
      .limit(LISTED_LOTS),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(lotCertificates)
      .where(eq(lotCertificates.familyCode, familyCode)),
  ]);
  return {
    safetySheetUrl: sheet ? safetySheetUrl(code, sheet.hash) : null,
    certificates: certificates.map((c) => toPublicCertificate(code, c)),
    certificateCount: counted?.n ?? 0,
  };
}

/** The HDS bytes of an active product's family, or null. */
export async function getSafetySheet(
  db: Db,
  familyCode: string,
): Promise<{ data: Buffer; hash: string } | null> {
  const [row] = await db
    .select({ data: productSafetySheets.data, hash: productSafetySheets.hash })
    .from(productSafetySheets)
    .where(eq(productSafetySheets.familyCode, familyCode));
  return row ?? null;
}

const lotMatches = (familyCode: string, lot: string) =>
  and(eq(lotCertificates.familyCode, familyCode), sql`upper(${lotCertificates.lot}) = ${lotKey(lot)}`);

/** The family's certificate of this lot (letter case aside), without its bytes; null when there is none. */
export async function findCertificate(
  db: Db,
  familyCode: string,
  lot: string,
): Promise<CertificateRow | null> {
  const [row] = await db.select(certificateColumns).from(lotCertificates).where(lotMatches(familyCode, lot));
  return row ?? null;
}

export async function getCertificateBytes(
  db: Db,
  familyCode: string,
  lot: string,
): Promise<{ data: Buffer; hash: string; lot: string } | null> {
  const [row] = await db
    .select({ data: lotCertificates.data, hash: lotCertificates.hash, lot: lotCertificates.lot })
    .from(lotCertificates)
    .where(lotMatches(familyCode, lot));
  return row ?? null;
}
