import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import {
  canInstitution,
  INSTITUTION_ROLE_LABELS,
  type InstitutionAction,
  type InstitutionRole,
} from '../../shared/institutions.ts';
import { getSessionUser, hashToken, readSessionToken } from '../auth/session.ts';
import type { Db, Tx } from '../db/client.ts';
import { institutionMembers, institutions, sessions } from '../db/schema.ts';
import { forbidden, unauthorized } from '../http/errors.ts';

/**
 * Who a person is for an institution (issue 34, decision 057): the one place that reads a membership, so every
 * feature — requisitions, credit checkout, statements, shared lists — asks the same question the same way.
 */
export type Institution = typeof institutions.$inferSelect;
export type Membership = {
  institution: Institution;
  role: InstitutionRole;
  approvalLimitCents: number | null;
  orderLimitCents: number | null;
  monthlyLimitCents: number | null;
};

/** A live (not removed) membership of `userId` in `institutionId`, or null. */
export async function membershipOf(
  db: Db | Tx,
  userId: number,
  institutionId: number,
): Promise<Membership | null> {
  const [row] = await db
    .select({ institution: institutions, member: institutionMembers })
    .from(institutionMembers)
    .innerJoin(institutions, eq(institutions.id, institutionMembers.institutionId))
    .where(
      and(
        eq(institutionMembers.institutionId, institutionId),
        eq(institutionMembers.userId, userId),
        isNull(institutionMembers.removedAt),
      ),
    )
    .limit(1);
  if (!row) return null;
  return {
    institution: row.institution,
    role: row.member.role,
    approvalLimitCents: row.member.approvalLimitCents,
    orderLimitCents: row.member.orderLimitCents,
    monthlyLimitCents: row.member.monthlyLimitCents,
  };
}

/** Every institution a person belongs to (for the header's «Comprando para» chooser). */
export async function membershipsOf(db: Db | Tx, userId: number) {
  return db
    .select({
      institutionId: institutions.id,
      razonSocial: institutions.razonSocial,
      rfc: institutions.rfc,
      role: institutionMembers.role,
      verified: institutions.verifiedAt,
    })
    .from(institutionMembers)
    .innerJoin(institutions, eq(institutions.id, institutionMembers.institutionId))
    .where(and(eq(institutionMembers.userId, userId), isNull(institutionMembers.removedAt)))
    .orderBy(institutions.razonSocial);
}

/**
 * The institution the request's session is buying for, with the member's role, or null when the session buys for
 * the person themself (or the membership it chose was since removed: then it buys for the person again).
 */
export async function buyingFor(request: FastifyRequest): Promise<Membership | null> {
  const user = await getSessionUser(request);
  const token = readSessionToken(request);
  if (!user || !token) return null;
  const db = request.server.db;
  const [row] = await db
    .select({ institutionId: sessions.institutionId })
    .from(sessions)
    .where(eq(sessions.tokenHash, hashToken(token)))
    .limit(1);
  if (!row?.institutionId) return null;
  return membershipOf(db, user.id, row.institutionId);
}

/** Choose (or with null, stop) buying for an institution in this session; refused unless a live member. */
export async function chooseInstitution(
  request: FastifyRequest,
  institutionId: number | null,
): Promise<void> {
  const user = await getSessionUser(request);
  const token = readSessionToken(request);
  if (!user || !token) throw unauthorized();
  const db = request.server.db;
  if (institutionId !== null && !(await membershipOf(db, user.id, institutionId))) {
    throw forbidden('No pertenece a esa institución');
  }
  await db
    .update(sessions)
    .set({ institutionId })
    .where(eq(sessions.tokenHash, hashToken(token)));
}

/** Refuses with 403 and a Spanish message naming the role unless the membership's role may take the action. */
export function requireInstitution(membership: Membership | null, action: InstitutionAction): Membership {
  if (!membership) throw forbidden('Elija en el encabezado la institución para la que compra');
  if (!canInstitution(membership.role, action)) {
    throw forbidden(
      `Su papel en ${membership.institution.razonSocial} (${INSTITUTION_ROLE_LABELS[membership.role]}) no permite esta acción`,
    );
  }
  return membership;
}
