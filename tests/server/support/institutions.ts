import { and, eq } from 'drizzle-orm';
import { institutionMembers, institutions } from '../../../src/server/db/schema.ts';
import type { InstitutionRole } from '../../../src/shared/institutions.ts';
import type { CheckoutTestApp, Shopper } from './checkout.ts';

/** Test support for institution accounts (issue 34): institutions and members written directly, as staff would leave them. */

export const FISCAL = {
  nombreFiscal: 'Universidad Tecnológica del Occidente',
  rfc: 'LQB150101AB3',
  regimenFiscal: '601',
  usoCfdi: 'G03',
  cp: '44100',
};

let n = 0;
export async function createInstitution(
  t: CheckoutTestApp,
  overrides: Partial<typeof institutions.$inferInsert> = {},
) {
  n += 1;
  const [row] = await t.db
    .insert(institutions)
    .values({
      razonSocial: `Instituto de Pruebas ${n}`,
      rfc: FISCAL.rfc,
      regimenFiscal: '601',
      cp: '44100',
      ...overrides,
    })
    .returning();
  return row!;
}

export async function addMember(
  t: CheckoutTestApp,
  institutionId: number,
  who: Shopper,
  role: InstitutionRole,
  limits: { orderLimitCents?: number | null; monthlyLimitCents?: number | null } = {},
) {
  await t.db.insert(institutionMembers).values({ institutionId, userId: who.id, role, ...limits });
}

export async function memberRow(t: CheckoutTestApp, institutionId: number, userId: number) {
  const [row] = await t.db
    .select()
    .from(institutionMembers)
    .where(and(eq(institutionMembers.institutionId, institutionId), eq(institutionMembers.userId, userId)));
  return row;
}

/** The session of `who` buys for `institutionId` (through the header's route). */
export async function buyFor(t: CheckoutTestApp, who: Shopper, institutionId: number | null) {
  return t.app.inject({
    method: 'PUT',
    url: '/api/institutions/active',
    headers: { cookie: who.cookie },
    payload: { institutionId },
  });
}
