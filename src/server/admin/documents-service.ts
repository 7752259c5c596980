import { and, desc, eq, sql } from 'drizzle-orm';
import { lotKey } from '../../shared/lots.ts';
import type { ProductDocuments } from '../../shared/schemas/documents-admin.ts';
import { type Actor, writeAudit } from '../audit/log.ts';
import { safetySheetUrl, toPublicCertificate } from '../catalog/documents.ts';
import type { Db, Tx } from '../db/client.ts';
import { lotCertificates, productSafetySheets, products, users } from '../db/schema.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { safetyDocProblem } from './media-checks.ts';
import { contentHash } from './products-service.ts';

/**
 * Staff's side of the safety and quality documents (decision 028): the family's HDS and its certificates of
 * analysis per lot. Whatever presentation the editor is on, the documents are the family's (its base code).
 */

const PRODUCT_NOT_FOUND = 'Producto no encontrado';
const HDS = 'La hoja de datos de seguridad (HDS)';
const COA = 'El certificado de análisis';

const who = sql<string | null>`nullif(trim(${users.nombre} || ' ' || ${users.apellidoPat}), '')`;

/** The family of a product (active or not), its base row locked for the rest of the transaction. */
async function lockFamily(tx: Tx | Db, code: string): Promise<string> {
  const [row] = await tx
    .select({ code: products.code, familyCode: products.familyCode })
    .from(products)
    .where(eq(products.code, code));
  if (!row) throw notFound(PRODUCT_NOT_FOUND);
  const family = row.familyCode ?? row.code;
  await tx.select({ code: products.code }).from(products).where(eq(products.code, family)).for('update');
  return family;
}

async function familyOf(db: Db, code: string): Promise<string> {
  const [row] = await db
    .select({ code: products.code, familyCode: products.familyCode })
    .from(products)
    .where(eq(products.code, code));
  if (!row) throw notFound(PRODUCT_NOT_FOUND);
  return row.familyCode ?? row.code;
}

/** GET /api/admin/products/:code/documents */
export async function productDocuments(db: Db, code: string): Promise<ProductDocuments> {
  const family = await familyOf(db, code);
  const [[sheet], certificates] = await Promise.all([
    db
      .select({
        hash: productSafetySheets.hash,
        bytes: productSafetySheets.bytes,
        uploadedAt: productSafetySheets.uploadedAt,
        uploadedBy: who,
      })
      .from(productSafetySheets)
      .leftJoin(users, eq(users.id, productSafetySheets.uploadedBy))
      .where(eq(productSafetySheets.familyCode, family)),
    db
      .select({
        id: lotCertificates.id,
        lot: lotCertificates.lot,
        analysisDate: lotCertificates.analysisDate,
        expiryDate: lotCertificates.expiryDate,
        hash: lotCertificates.hash,
        bytes: lotCertificates.bytes,
        uploadedAt: lotCertificates.uploadedAt,
        uploadedBy: who,
      })
      .from(lotCertificates)
      .leftJoin(users, eq(users.id, lotCertificates.uploadedBy))
      .where(eq(lotCertificates.familyCode, family))
      .orderBy(desc(lotCertificates.uploadedAt), desc(lotCertificates.id)),
  ]);
  return {
    familyCode: family,
    hds: sheet
      ? {
          url: safetySheetUrl(code, sheet.hash),
          bytes: sheet.bytes,
          uploadedAt: sheet.uploadedAt.toISOString(),
          uploadedBy: sheet.uploadedBy,
        }
      : null,
    certificates: certificates.map((c) => ({
      ...toPublicCertificate(code, c),
      id: c.id,
      bytes: c.bytes,
      uploadedAt: c.uploadedAt.toISOString(),
      uploadedBy: c.uploadedBy,
    })),
  };
}

/** PUT /api/admin/products/:code/hds: a PDF that opens, up to 10 MB; replaces the family's sheet. */
export async function setSafetySheet(db: Db, actor: Actor, code: string, data: Buffer): Promise<string> {
  const problem = await safetyDocProblem(data, HDS);
  if (problem) throw badRequest(problem, { contentBase64: problem });
  const hash = contentHash(data);
  return db.transaction(async (tx) => {
    const family = await lockFamily(tx, code);
    const [before] = await tx
      .select({ hash: productSafetySheets.hash })
      .from(productSafetySheets)
      .where(eq(productSafetySheets.familyCode, family));
    const values = { data, hash, bytes: data.length, uploadedAt: new Date(), uploadedBy: actor.userId };
    await tx
      .insert(productSafetySheets)
      .values({ familyCode: family, ...values })
      .onConflictDoUpdate({ target: productSafetySheets.familyCode, set: values });
    await writeAudit(tx, actor, {
      action: 'product.hds',
      entityType: 'product',
      entityId: family,
      before: { hash: before?.hash ?? null },
      after: { hash, bytes: data.length },
    });
    return family;
  });
}

/** DELETE /api/admin/products/:code/hds */
export async function removeSafetySheet(db: Db, actor: Actor, code: string): Promise<string> {
  return db.transaction(async (tx) => {
    const family = await lockFamily(tx, code);
    const [gone] = await tx
      .delete(productSafetySheets)
      .where(eq(productSafetySheets.familyCode, family))
      .returning({ hash: productSafetySheets.hash });
    if (!gone) throw notFound('Este producto no tiene hoja de datos de seguridad (HDS)');
    await writeAudit(tx, actor, {
      action: 'product.hds_remove',
      entityType: 'product',
      entityId: family,
      before: { hash: gone.hash },
    });
    return family;
  });
}

/** POST /api/admin/products/:code/certificates: one PDF per lot of the family. */
export async function addCertificate(
  db: Db,
  actor: Actor,
  code: string,
  input: { lot: string; analysisDate: string | null; expiryDate: string | null; data: Buffer },
): Promise<string> {
  const problem = await safetyDocProblem(input.data, COA);
  if (problem) throw badRequest(problem, { contentBase64: problem });
  const hash = contentHash(input.data);
  return db.transaction(async (tx) => {
    const family = await lockFamily(tx, code);
    const [taken] = await tx
      .select({ lot: lotCertificates.lot })
      .from(lotCertificates)
      .where(
        and(
          eq(lotCertificates.familyCode, family),
          sql`upper(${lotCertificates.lot}) = ${lotKey(input.lot)}`,
        ),
      );
    if (taken)
      throw conflict(
        `Número de lote: el lote «${taken.lot}» ya tiene certificado en este producto; elimínelo antes de subir otro`,
        'duplicate_lot',
      );
    const [row] = await tx
      .insert(lotCertificates)
      .values({
        familyCode: family,
        lot: input.lot,
        data: input.data,
        hash,
        bytes: input.data.length,
        analysisDate: input.analysisDate,
        expiryDate: input.expiryDate,
        uploadedBy: actor.userId,
      })
      .returning({ id: lotCertificates.id });
    await writeAudit(tx, actor, {
      action: 'product.certificate',
      entityType: 'product',
      entityId: family,
      after: { id: row!.id, lot: input.lot, hash, bytes: input.data.length },
    });
    return family;
  });
}

/** DELETE /api/admin/products/:code/certificates/:id */
export async function removeCertificate(db: Db, actor: Actor, code: string, id: number): Promise<string> {
  return db.transaction(async (tx) => {
    const family = await lockFamily(tx, code);
    const [gone] = await tx
      .delete(lotCertificates)
      .where(and(eq(lotCertificates.id, id), eq(lotCertificates.familyCode, family)))
      .returning({ lot: lotCertificates.lot, hash: lotCertificates.hash });
    if (!gone) throw notFound('Certificado no encontrado');
    await writeAudit(tx, actor, {
      action: 'product.certificate_remove',
      entityType: 'product',
      entityId: family,
      before: { id, lot: gone.lot, hash: gone.hash },
    });
    return family;
  });
}
