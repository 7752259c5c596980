import { and, asc, count, desc, eq, ne } from 'drizzle-orm';
import type { FiscalProfile, InvoiceRequest } from '../../shared/schemas/invoice.ts';
import type { Db } from '../db/client.ts';
import { fiscalProfiles } from '../db/schema.ts';
import { conflict, notFound } from '../http/errors.ts';

/** Saved fiscal profiles (issue 20): the buyer's own only; validated by the invoice form's schema in the route. */

export const MAX_FISCAL_PROFILES = 10;
export const PROFILE_NOT_FOUND = 'Datos fiscales no encontrados';

type ProfileInput = InvoiceRequest & { email?: string | undefined; isDefault?: boolean | undefined };
type Row = typeof fiscalProfiles.$inferSelect;

const view = (r: Row): FiscalProfile => ({
  id: r.id,
  rfc: r.rfc,
  nombreFiscal: r.nombreFiscal,
  regimenFiscal: r.regimenFiscal,
  cp: r.cp,
  usoCfdi: r.usoCfdi,
  email: r.email,
  rfcConfirmado: r.rfcConfirmado,
  isDefault: r.isDefault,
});

const fields = (input: ProfileInput) => ({
  rfc: input.rfc,
  nombreFiscal: input.nombreFiscal,
  regimenFiscal: input.regimenFiscal,
  cp: input.cp,
  usoCfdi: input.usoCfdi,
  email: input.email ?? '',
  rfcConfirmado: input.rfcConfirmado === true,
});

export async function listFiscalProfiles(db: Db, userId: number): Promise<FiscalProfile[]> {
  const rows = await db
    .select()
    .from(fiscalProfiles)
    .where(eq(fiscalProfiles.userId, userId))
    .orderBy(desc(fiscalProfiles.isDefault), asc(fiscalProfiles.id));
  return rows.map(view);
}

export async function getFiscalProfile(db: Db, userId: number, id: number): Promise<FiscalProfile> {
  const [row] = await db
    .select()
    .from(fiscalProfiles)
    .where(and(eq(fiscalProfiles.id, id), eq(fiscalProfiles.userId, userId)));
  if (!row) throw notFound(PROFILE_NOT_FOUND);
  return view(row);
}

/** The first profile is the default; marking one default unmarks the others, in one transaction. */
export async function saveFiscalProfile(db: Db, userId: number, input: ProfileInput, id?: number) {
  return db.transaction(async (tx) => {
    const mine = await tx
      .select({ id: fiscalProfiles.id })
      .from(fiscalProfiles)
      .where(eq(fiscalProfiles.userId, userId))
      .for('update');
    if (id !== undefined && !mine.some((p) => p.id === id)) throw notFound(PROFILE_NOT_FOUND);
    if (id === undefined && mine.length >= MAX_FISCAL_PROFILES)
      throw conflict(`Puede guardar hasta ${MAX_FISCAL_PROFILES} perfiles fiscales`, 'too_many_profiles');
    const isDefault =
      input.isDefault === true || mine.length === 0 || (id !== undefined && mine.length === 1);
    let saved: Row | undefined;
    if (id === undefined) {
      [saved] = await tx
        .insert(fiscalProfiles)
        .values({ userId, ...fields(input), isDefault })
        .returning();
    } else {
      [saved] = await tx
        .update(fiscalProfiles)
        .set({ ...fields(input), ...(isDefault ? { isDefault } : {}), updatedAt: new Date() })
        .where(eq(fiscalProfiles.id, id))
        .returning();
    }
    if (isDefault)
      await tx
        .update(fiscalProfiles)
        .set({ isDefault: false })
        .where(and(eq(fiscalProfiles.userId, userId), ne(fiscalProfiles.id, saved!.id)));
    return view({ ...saved!, isDefault: isDefault || saved!.isDefault });
  });
}

export async function deleteFiscalProfile(db: Db, userId: number, id: number) {
  const deleted = await db
    .delete(fiscalProfiles)
    .where(and(eq(fiscalProfiles.id, id), eq(fiscalProfiles.userId, userId)))
    .returning({ id: fiscalProfiles.id, isDefault: fiscalProfiles.isDefault });
  if (deleted.length === 0) throw notFound(PROFILE_NOT_FOUND);
  if (deleted[0]!.isDefault) {
    const [next] = await db
      .select({ id: fiscalProfiles.id })
      .from(fiscalProfiles)
      .where(eq(fiscalProfiles.userId, userId))
      .orderBy(asc(fiscalProfiles.id))
      .limit(1);
    if (next) await db.update(fiscalProfiles).set({ isDefault: true }).where(eq(fiscalProfiles.id, next.id));
  }
}

export async function countFiscalProfiles(db: Db, userId: number) {
  const [row] = await db.select({ n: count() }).from(fiscalProfiles).where(eq(fiscalProfiles.userId, userId));
  return row?.n ?? 0;
}
