import { and, eq, isNull } from 'drizzle-orm';
import type { InstitutionRole } from '../../shared/institutions.ts';
import type { Actor } from '../audit/log.ts';
import type { Db, Tx } from '../db/client.ts';
import { institutionMembers, users } from '../db/schema.ts';
import { conflict, notFound } from '../http/errors.ts';
import { writeInstitutionAudit } from './audit.ts';

/**
 * The administrador's changes to members: role and limits, and removal (the row stays with removedAt, so the audit
 * trail still names the person). An institution always keeps one administrador: the last one can be neither removed
 * nor given another role. The institution's live members are locked first, so two administradores removing each
 * other at once leave one.
 */
export const MEMBER_NOT_FOUND = 'Miembro no encontrado';
export const LAST_ADMINISTRADOR =
  'La institución debe conservar al menos un administrador: nombre a otro administrador antes';

export type MemberChange = {
  role: InstitutionRole;
  approvalLimit: number | null;
  orderLimit: number | null;
  monthlyLimit: number | null;
};

async function lockMembers(tx: Tx, institutionId: number, userId: number) {
  const live = await tx
    .select({ member: institutionMembers, email: users.email })
    .from(institutionMembers)
    .innerJoin(users, eq(users.id, institutionMembers.userId))
    .where(and(eq(institutionMembers.institutionId, institutionId), isNull(institutionMembers.removedAt)))
    .for('update', { of: institutionMembers });
  const target = live.find((m) => m.member.userId === userId);
  if (!target) throw notFound(MEMBER_NOT_FOUND);
  const administradores = live.filter((m) => m.member.role === 'administrador').length;
  return { target, lastAdministrador: target.member.role === 'administrador' && administradores === 1 };
}

const limitsOf = (m: typeof institutionMembers.$inferSelect) => ({
  role: m.role,
  approvalLimitCents: m.approvalLimitCents,
  orderLimitCents: m.orderLimitCents,
  monthlyLimitCents: m.monthlyLimitCents,
});

export async function updateMember(
  db: Db,
  actor: Actor,
  institutionId: number,
  userId: number,
  change: MemberChange,
) {
  await db.transaction(async (tx) => {
    const { target, lastAdministrador } = await lockMembers(tx, institutionId, userId);
    if (lastAdministrador && change.role !== 'administrador')
      throw conflict(LAST_ADMINISTRADOR, 'last_administrador');
    const after = {
      role: change.role,
      approvalLimitCents: change.approvalLimit,
      orderLimitCents: change.orderLimit,
      monthlyLimitCents: change.monthlyLimit,
    };
    await tx
      .update(institutionMembers)
      .set(after)
      .where(and(eq(institutionMembers.institutionId, institutionId), eq(institutionMembers.userId, userId)));
    await writeInstitutionAudit(tx, actor, institutionId, 'institution.member_update', {
      before: { email: target.email, ...limitsOf(target.member) },
      after: { email: target.email, ...after },
    });
  });
}

export async function removeMember(db: Db, actor: Actor, institutionId: number, userId: number) {
  await db.transaction(async (tx) => {
    const { target, lastAdministrador } = await lockMembers(tx, institutionId, userId);
    if (lastAdministrador) throw conflict(LAST_ADMINISTRADOR, 'last_administrador');
    await tx
      .update(institutionMembers)
      .set({ removedAt: new Date() })
      .where(and(eq(institutionMembers.institutionId, institutionId), eq(institutionMembers.userId, userId)));
    await writeInstitutionAudit(tx, actor, institutionId, 'institution.member_remove', {
      before: { email: target.email, ...limitsOf(target.member) },
    });
  });
}
