import { and, eq, gte, inArray, isNull, lt, notInArray, sql } from 'drizzle-orm';
import { mexicoCityDate, mexicoMonth } from '../../shared/mexico-time.ts';
import type { InstitutionView, InvitationView, MemberView } from '../../shared/schemas/institutions.ts';
import type { Db } from '../db/client.ts';
import { institutionInvitations, institutionMembers, orders, users } from '../db/schema.ts';
import type { Institution } from './membership.ts';
import { spentThisMonth } from './spending.ts';

/** How an institution, its members and its invitations are shown to members and staff alike. */

export const institutionView = (r: Institution): InstitutionView => ({
  id: r.id,
  razonSocial: r.razonSocial,
  rfc: r.rfc,
  regimenFiscal: r.regimenFiscal,
  cp: r.cp,
  usoCfdi: r.usoCfdi,
  billingEmail: r.billingEmail,
  requiresPurchaseOrder: r.requiresPurchaseOrder,
  costCentreLabel: r.costCentreLabel,
  projectLabel: r.projectLabel,
  creditLimitCents: r.creditLimitCents,
  creditDays: r.creditDays,
  verified: r.verifiedAt !== null,
  verifiedAt: r.verifiedAt?.toISOString() ?? null,
  createdAt: r.createdAt.toISOString(),
});

export async function membersOf(db: Db, institutionId: number): Promise<MemberView[]> {
  const rows = await db
    .select({ member: institutionMembers, user: users })
    .from(institutionMembers)
    .innerJoin(users, eq(users.id, institutionMembers.userId))
    .where(and(eq(institutionMembers.institutionId, institutionId), isNull(institutionMembers.removedAt)))
    .orderBy(users.nombre, users.apellidoPat);
  const spent = await spentThisMonth(
    db,
    institutionId,
    rows.map((r) => r.user.id),
  );
  return rows.map(({ member, user }) => ({
    userId: user.id,
    name: [user.nombre, user.apellidoPat, user.apellidoMat].filter(Boolean).join(' '),
    email: user.email,
    role: member.role,
    approvalLimitCents: member.approvalLimitCents,
    orderLimitCents: member.orderLimitCents,
    monthlyLimitCents: member.monthlyLimitCents,
    spentThisMonthCents: spent.get(user.id) ?? 0,
    since: member.createdAt.toISOString(),
  }));
}

type InvitationRow = typeof institutionInvitations.$inferSelect;
export const invitationStatus = (r: InvitationRow, now = new Date()): InvitationView['status'] =>
  r.acceptedAt ? 'accepted' : r.revokedAt ? 'revoked' : r.expiresAt <= now ? 'expired' : 'pending';

/** The institution's invitations not yet accepted (pending, expired or revoked), newest first. */
export async function invitationsOf(db: Db, institutionId: number): Promise<InvitationView[]> {
  const rows = await db
    .select()
    .from(institutionInvitations)
    .where(
      and(eq(institutionInvitations.institutionId, institutionId), isNull(institutionInvitations.acceptedAt)),
    )
    .orderBy(sql`${institutionInvitations.createdAt} desc`)
    .limit(50);
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    role: r.role,
    expiresAt: r.expiresAt.toISOString(),
    status: invitationStatus(r),
    createdAt: r.createdAt.toISOString(),
  }));
}
