import { and, eq, isNull } from 'drizzle-orm';
import { canInstitution, INSTITUTION_ACTIONS } from '../../shared/institutions.ts';
import type { MembershipView, MyInstitutions } from '../../shared/schemas/institutions.ts';
import type { Db } from '../db/client.ts';
import { institutionMembers, institutions } from '../db/schema.ts';
import type { Membership } from './membership.ts';
import { institutionView } from './views.ts';

/** A person's memberships as the header's chooser and «Mis instituciones» show them. */

export const membershipView = (m: Membership): MembershipView => ({
  institution: institutionView(m.institution),
  role: m.role,
  actions: INSTITUTION_ACTIONS.filter((a) => canInstitution(m.role, a)),
  orderLimitCents: m.orderLimitCents,
  monthlyLimitCents: m.monthlyLimitCents,
  approvalLimitCents: m.approvalLimitCents,
});

export async function myInstitutions(
  db: Db,
  userId: number,
  active: Membership | null,
): Promise<MyInstitutions> {
  const rows = await db
    .select({ institution: institutions, member: institutionMembers })
    .from(institutionMembers)
    .innerJoin(institutions, eq(institutions.id, institutionMembers.institutionId))
    .where(and(eq(institutionMembers.userId, userId), isNull(institutionMembers.removedAt)))
    .orderBy(institutions.razonSocial);
  return {
    memberships: rows.map(({ institution, member }) =>
      membershipView({
        institution,
        role: member.role,
        approvalLimitCents: member.approvalLimitCents,
        orderLimitCents: member.orderLimitCents,
        monthlyLimitCents: member.monthlyLimitCents,
      }),
    ),
    activeId: active?.institution.id ?? null,
  };
}
