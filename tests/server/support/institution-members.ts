import { and, eq } from 'drizzle-orm';
import { hashToken } from '../../../src/server/auth/session.ts';
import { institutionMembers, institutions, sessions } from '../../../src/server/db/schema.ts';
import type { InstitutionRole } from '../../../src/shared/institutions.ts';
import type { CheckoutTestApp, Shopper } from './checkout.ts';

/** Test support for institution accounts (decision 057): institutions and members as rows, a session buying for one. */

let counter = 0;
export async function createInstitution(
  t: CheckoutTestApp,
  values: Partial<typeof institutions.$inferInsert> = {},
): Promise<number> {
  counter += 1;
  const [row] = await t.db
    .insert(institutions)
    .values({
      razonSocial: `Universidad de Prueba ${counter}`,
      rfc: 'UPR250908EF9',
      regimenFiscal: '603',
      cp: '44100',
      costCentreLabel: 'Centro de costos',
      projectLabel: 'Proyecto CONAHCYT',
      ...values,
    })
    .returning({ id: institutions.id });
  return row!.id;
}

/** Makes `who` a member with `role` and limits (centavos, null = none), and their session buy for the institution. */
export async function addMember(
  t: CheckoutTestApp,
  institutionId: number,
  who: Shopper,
  role: InstitutionRole,
  limits: {
    approvalLimitCents?: number | null;
    orderLimitCents?: number | null;
    monthlyLimitCents?: number | null;
  } = {},
) {
  await t.db.insert(institutionMembers).values({ institutionId, userId: who.id, role, ...limits });
  await buyFor(t, who, institutionId);
}

/** The session of `who` buys for the institution (or, with null, for the person). */
export async function buyFor(t: CheckoutTestApp, who: Shopper, institutionId: number | null) {
  const token = who.cookie.split('=')[1] ?? '';
  await t.db
    .update(sessions)
    .set({ institutionId })
    .where(eq(sessions.tokenHash, hashToken(token)));
}

export async function setLimits(
  t: CheckoutTestApp,
  institutionId: number,
  who: Shopper,
  limits: {
    approvalLimitCents?: number | null;
    orderLimitCents?: number | null;
    monthlyLimitCents?: number | null;
  },
) {
  await t.db
    .update(institutionMembers)
    .set(limits)
    .where(and(eq(institutionMembers.institutionId, institutionId), eq(institutionMembers.userId, who.id)));
}
