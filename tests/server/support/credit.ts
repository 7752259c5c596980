import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { institutionMembers, institutions, invoices, sessions } from '../../../src/server/db/schema.ts';
import { JOBS } from '../../../src/server/jobs.ts';
import type { InstitutionRole } from '../../../src/shared/institutions.ts';
import { type CheckoutTestApp, placeOrderRequest, type Shopper } from './checkout.ts';

/** Institutions and members for the credit tests, written straight into the database (decision 057's tables). */
export async function createInstitution(
  t: CheckoutTestApp,
  options: {
    limitCents?: number | null;
    days?: number | null;
    verified?: boolean;
    billingEmail?: string;
  } = {},
) {
  const tag = randomUUID().slice(0, 6).toUpperCase();
  const [row] = await t.db
    .insert(institutions)
    .values({
      razonSocial: `Universidad de Guadalajara ${tag}`,
      rfc: 'UGU250101AB1',
      regimenFiscal: '603',
      cp: '44100',
      usoCfdi: 'G03',
      billingEmail: options.billingEmail ?? `cxp.${tag.toLowerCase()}@udg.example.mx`,
      creditLimitCents: options.limitCents === undefined ? 1_000_000 : options.limitCents,
      creditDays: options.days === undefined ? 30 : options.days,
      verifiedAt: options.verified === false ? null : new Date(),
    })
    .returning();
  return row!;
}

/** Makes `shopper` a member with `role` and has their session buy for the institution. */
export async function joinAndBuyFor(
  t: CheckoutTestApp,
  shopper: Shopper,
  institutionId: number,
  role: InstitutionRole = 'comprador',
) {
  await t.db.insert(institutionMembers).values({ institutionId, userId: shopper.id, role });
  await t.db.update(sessions).set({ institutionId }).where(eq(sessions.userId, shopper.id));
}

export function placeOnCredit(
  t: CheckoutTestApp,
  shopper: Shopper,
  items: { code: string; quantity: number }[],
) {
  return placeOrderRequest(t, shopper, { items, paymentMethod: 'credit' });
}

export async function orderRow(t: CheckoutTestApp, number: number) {
  const { rows } = await t.db.execute<{
    status: string;
    payment_method: string;
    institution_id: number | null;
  }>(sql`select status, payment_method, institution_id from orders where number = ${number}`);
  return rows[0]!;
}

/**
 * Staff prepare and ship an order bought on credit, and the 'facturas-a-credito' job issues its invoice PPD
 * (decision 060): the invoice row, issued.
 */
export async function shipAndInvoiceOnCredit(t: CheckoutTestApp, staff: Shopper, number: number) {
  const ship = { trackingGuide: 'EST-7788123', deliveryProvider: 'Estafeta', deliveryDate: '2099-01-15' };
  for (const [step, payload] of [
    ['prepare', undefined],
    ['ship', ship],
  ] as const) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${number}/${step}`,
      headers: { cookie: staff.cookie },
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  const outcome = await t.app.jobs.runOnce(JOBS.creditInvoices);
  expect(outcome, t.app.jobs.states().find((s) => s.name === JOBS.creditInvoices)?.lastError ?? '').toBe(
    'done',
  );
  const [invoice] = await t.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderNumber, number), eq(invoices.kind, 'I')));
  expect(invoice?.status).toBe('issued');
  return invoice!;
}
