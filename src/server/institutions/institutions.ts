import { count, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { AdminInstitutionDetail, InstitutionView } from '../../shared/schemas/institutions.ts';
import { INSTITUTION_NOT_FOUND } from '../../shared/schemas/institutions.ts';
import type { Actor } from '../audit/log.ts';
import type { Db, Tx } from '../db/client.ts';
import { institutionMembers, institutions } from '../db/schema.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { type PostalCatalogue, postalCodeMessage } from '../invoices/postal-codes.ts';
import { writeInstitutionAudit } from './audit.ts';
import { institutionView, invitationsOf, membersOf } from './views.ts';

/**
 * Institutions as staff keep them (decision 058): created from a fiscal identity checked by the invoice form's own
 * rules (and the SAT's postal-code catalogue, as an invoice is), verified once staff have seen the Constancia de
 * Situación Fiscal, with terms (credit line, purchase-order rule, field labels) only staff set.
 */

export type FiscalIdentity = {
  nombreFiscal: string;
  rfc: string;
  regimenFiscal: string;
  cp: string;
  usoCfdi: string;
  billingEmail: string;
};

export type Terms = {
  creditLimit: number | null;
  creditDays: number | null;
  requiresPurchaseOrder: boolean;
  costCentreLabel: string;
  projectLabel: string;
  billingEmail: string;
};
export type Settings = Omit<Terms, 'creditLimit' | 'creditDays'>;

/** The exact check an invoice makes of the receptor's postal code (an empty catalogue checks nothing). */
export function checkPostalCode(postalCodes: PostalCatalogue, cp: string) {
  if (postalCodes.size > 0 && !postalCodes.has(cp)) {
    const message = postalCodeMessage(cp);
    throw badRequest(message, { cp: message });
  }
}

export async function createInstitution(
  tx: Tx,
  actor: Actor,
  input: FiscalIdentity,
): Promise<InstitutionView> {
  const [row] = await tx
    .insert(institutions)
    .values({
      razonSocial: input.nombreFiscal,
      rfc: input.rfc,
      regimenFiscal: input.regimenFiscal,
      cp: input.cp,
      usoCfdi: input.usoCfdi,
      billingEmail: input.billingEmail,
      createdBy: actor.userId,
    })
    .returning();
  const view = institutionView(row!);
  await writeInstitutionAudit(tx, actor, row!.id, 'institution.create', { after: view });
  return view;
}

export async function institutionById(db: Db, id: number) {
  const [row] = await db.select().from(institutions).where(eq(institutions.id, id));
  if (!row) throw notFound(INSTITUTION_NOT_FOUND);
  return row;
}

/** Staff's list: newest first, searched by razón social or RFC. */
export async function listInstitutions(
  db: Db,
  q: string | undefined,
  page: { limit: number; offset: number },
) {
  const term = q?.trim();
  const where: SQL | undefined = term
    ? or(ilike(institutions.razonSocial, `%${term}%`), ilike(institutions.rfc, `%${term.toUpperCase()}%`))
    : undefined;
  const [total] = await db.select({ n: count() }).from(institutions).where(where);
  const rows = await db
    .select({
      institution: institutions,
      members: sql<number>`(select count(*)::int from ${institutionMembers} m where m.institution_id = ${institutions.id} and m.removed_at is null)`,
    })
    .from(institutions)
    .where(where)
    .orderBy(desc(institutions.createdAt), desc(institutions.id))
    .limit(page.limit)
    .offset(page.offset);
  return {
    items: rows.map((r) => ({ ...institutionView(r.institution), members: Number(r.members) })),
    total: total?.n ?? 0,
  };
}

export async function institutionDetail(db: Db, id: number): Promise<AdminInstitutionDetail> {
  const row = await institutionById(db, id);
  return {
    institution: institutionView(row),
    members: await membersOf(db, id),
    invitations: await invitationsOf(db, id),
  };
}

async function change(
  db: Db,
  actor: Actor,
  id: number,
  action: string,
  set: (before: typeof institutions.$inferSelect) => Partial<typeof institutions.$inferInsert>,
): Promise<InstitutionView> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(institutions).where(eq(institutions.id, id)).for('update');
    if (!before) throw notFound(INSTITUTION_NOT_FOUND);
    const [after] = await tx
      .update(institutions)
      .set({ ...set(before), updatedAt: new Date() })
      .where(eq(institutions.id, id))
      .returning();
    const [was, is] = [institutionView(before), institutionView(after!)];
    await writeInstitutionAudit(tx, actor, id, action, { before: was, after: is });
    return is;
  });
}

/** Staff checked the Constancia de Situación Fiscal: verified once (a second call changes nothing but is harmless). */
export const verifyInstitution = (db: Db, actor: Actor, id: number) =>
  change(db, actor, id, 'institution.verify', (before) =>
    before.verifiedAt ? {} : { verifiedAt: new Date(), verifiedBy: actor.userId },
  );

export const setTerms = (db: Db, actor: Actor, id: number, terms: Terms) =>
  change(db, actor, id, 'institution.terms', () => ({
    creditLimitCents: terms.creditLimit,
    creditDays: terms.creditDays,
    requiresPurchaseOrder: terms.requiresPurchaseOrder,
    costCentreLabel: terms.costCentreLabel,
    projectLabel: terms.projectLabel,
    billingEmail: terms.billingEmail,
  }));

/** The administrador's own rules: purchase order, field labels, billing mailbox — never the credit line. */
export const setSettings = (db: Db, actor: Actor, id: number, settings: Settings) =>
  change(db, actor, id, 'institution.settings', () => ({
    requiresPurchaseOrder: settings.requiresPurchaseOrder,
    costCentreLabel: settings.costCentreLabel,
    projectLabel: settings.projectLabel,
    billingEmail: settings.billingEmail,
  }));
