import { and, asc, count, eq } from 'drizzle-orm';
import type { InstitutionAddress } from '../../shared/schemas/institutions.ts';
import type { Actor } from '../audit/log.ts';
import type { Db } from '../db/client.ts';
import { institutionAddresses, institutions } from '../db/schema.ts';
import { conflict, notFound } from '../http/errors.ts';
import { writeInstitutionAudit } from './audit.ts';

/**
 * The institution's shared addresses (campuses, laboratories, the central store): checked by the same schema as a
 * person's saved address (institutionAddressSchema is shippingAddressSchema with a required name), managed by members
 * with 'addresses.manage', read by every member and offered at checkout when buying for the institution.
 */
export const MAX_INSTITUTION_ADDRESSES = 50;
export const INSTITUTION_ADDRESS_NOT_FOUND = 'Dirección no encontrada';

type Row = typeof institutionAddresses.$inferSelect;
const view = ({ institutionId: _i, createdAt: _c, updatedAt: _u, ...address }: Row): InstitutionAddress =>
  address;

export type InstitutionAddressFields = Omit<InstitutionAddress, 'id'>;

export async function listInstitutionAddresses(db: Db, institutionId: number): Promise<InstitutionAddress[]> {
  const rows = await db
    .select()
    .from(institutionAddresses)
    .where(eq(institutionAddresses.institutionId, institutionId))
    .orderBy(asc(institutionAddresses.alias), asc(institutionAddresses.id));
  return rows.map(view);
}

/** One of the institution's addresses (another institution's id reads as not found). */
export async function institutionAddress(
  db: Db,
  institutionId: number,
  id: number,
): Promise<InstitutionAddress> {
  const [row] = await db
    .select()
    .from(institutionAddresses)
    .where(and(eq(institutionAddresses.institutionId, institutionId), eq(institutionAddresses.id, id)));
  if (!row) throw notFound(INSTITUTION_ADDRESS_NOT_FOUND);
  return view(row);
}

export async function saveInstitutionAddress(
  db: Db,
  actor: Actor,
  institutionId: number,
  input: InstitutionAddressFields,
  id?: number,
): Promise<InstitutionAddress> {
  return db.transaction(async (tx) => {
    // The institution's row is the lock that keeps the cap under parallel requests.
    await tx
      .select({ id: institutions.id })
      .from(institutions)
      .where(eq(institutions.id, institutionId))
      .for('update');
    let saved: Row | undefined;
    if (id === undefined) {
      const [n] = await tx
        .select({ n: count() })
        .from(institutionAddresses)
        .where(eq(institutionAddresses.institutionId, institutionId));
      if ((n?.n ?? 0) >= MAX_INSTITUTION_ADDRESSES)
        throw conflict(
          `La institución puede guardar hasta ${MAX_INSTITUTION_ADDRESSES} direcciones; elimine una que ya no use`,
          'too_many_addresses',
        );
      [saved] = await tx
        .insert(institutionAddresses)
        .values({ institutionId, ...input })
        .returning();
    } else {
      [saved] = await tx
        .update(institutionAddresses)
        .set({ ...input, updatedAt: new Date() })
        .where(and(eq(institutionAddresses.institutionId, institutionId), eq(institutionAddresses.id, id)))
        .returning();
      if (!saved) throw notFound(INSTITUTION_ADDRESS_NOT_FOUND);
    }
    const address = view(saved!);
    await writeInstitutionAudit(
      tx,
      actor,
      institutionId,
      id === undefined ? 'institution.address_create' : 'institution.address_update',
      { after: address },
    );
    return address;
  });
}

export async function deleteInstitutionAddress(db: Db, actor: Actor, institutionId: number, id: number) {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(institutionAddresses)
      .where(and(eq(institutionAddresses.institutionId, institutionId), eq(institutionAddresses.id, id)))
      .returning();
    if (!row) throw notFound(INSTITUTION_ADDRESS_NOT_FOUND);
    await writeInstitutionAudit(tx, actor, institutionId, 'institution.address_delete', {
      before: view(row),
    });
  });
}
