import { and, eq, gt, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import {
  CREDIT_NO_LINE,
  CREDIT_NOT_VERIFIED,
  creditOnHold,
  creditOptionLabel,
  creditShortBy,
} from '../../shared/credit.ts';
import type { Db, Tx } from '../db/client.ts';
import { institutions, invoices, orderLedger, orders } from '../db/schema.ts';
import { conflict } from '../http/errors.ts';

/**
 * An institution's credit line (issue 34, decision 060): the limit and terms staff granted, what it owes now (the
 * open balance: the receivables of its orders on credit, read from their ledgers), what is left, and whether the
 * account is on hold (an invoice PPD past its due date with a balance). Checkout asks `refuseCredit` inside the
 * order's transaction, under the institution's row lock, so two orders at once cannot both spend the same credit.
 */
export type CreditLine = {
  institutionId: number;
  limitCents: number;
  days: number;
  openCents: number;
  availableCents: number;
  overdueCount: number;
  overdueCents: number;
  onHold: boolean;
};

/** Orders whose sale is not (or no longer) a debt: never confirmed, or undone. */
const NOT_OWED = ['cancelled', 'payment_failed'] as const;

/**
 * What each order on credit of the institution still owes, from its ledger (ledger.ts balancesFrom's receivable:
 * the invoice PPD once issued, else the sale, minus payments applied and live credit notes).
 */
export async function receivablesOf(db: Db | Tx, institutionId: number) {
  const rows = await db
    .select({
      orderNumber: orders.number,
      sale: sql<number>`coalesce(sum(${orderLedger.amountCents}) filter (where ${orderLedger.kind} = 'credit_sale'), 0)::bigint`,
      invoiced: sql<number>`coalesce(sum(${orderLedger.amountCents}) filter (where ${orderLedger.kind} = 'invoice'), 0)::bigint - coalesce(sum(${orderLedger.amountCents}) filter (where ${orderLedger.kind} = 'invoice_cancelled'), 0)::bigint`,
      paid: sql<number>`coalesce(sum(${orderLedger.amountCents}) filter (where ${orderLedger.kind} = 'credit_payment'), 0)::bigint`,
      credited: sql<number>`coalesce(sum(${orderLedger.amountCents}) filter (where ${orderLedger.kind} = 'credit_note' and (${orderLedger.detail} ->> 'global') is null), 0)::bigint - coalesce(sum(${orderLedger.amountCents}) filter (where ${orderLedger.kind} = 'credit_note_cancelled' and (${orderLedger.detail} ->> 'global') is null), 0)::bigint`,
    })
    .from(orders)
    .innerJoin(orderLedger, eq(orderLedger.orderNumber, orders.number))
    .where(
      and(
        eq(orders.institutionId, institutionId),
        eq(orders.paymentMethod, 'credit'),
        sql`${orders.status} not in ${NOT_OWED}`,
      ),
    )
    .groupBy(orders.number);
  return rows.map((r) => {
    const owedOn = Number(r.invoiced) > 0 ? Number(r.invoiced) : Number(r.sale);
    return {
      orderNumber: r.orderNumber,
      receivableCents: Math.max(0, owedOn - Number(r.paid) - Number(r.credited)),
    };
  });
}

/** Invoices PPD of the institution past their due date that still have a balance. */
export async function overdueOf(db: Db | Tx, institutionId: number, now: Date) {
  const open = new Map(
    (await receivablesOf(db, institutionId)).map((r) => [r.orderNumber, r.receivableCents]),
  );
  const numbers = [...open.entries()].filter(([, cents]) => cents > 0).map(([n]) => n);
  if (numbers.length === 0) return [];
  const rows = await db
    .select({ orderNumber: invoices.orderNumber, dueAt: invoices.dueAt })
    .from(invoices)
    .where(
      and(
        inArray(invoices.orderNumber, numbers),
        eq(invoices.kind, 'I'),
        eq(invoices.status, 'issued'),
        eq(invoices.metodoPago, 'PPD'),
        isNotNull(invoices.dueAt),
        lt(invoices.dueAt, now),
      ),
    );
  return rows.map((r) => ({ ...r, balanceCents: open.get(r.orderNumber) ?? 0 }));
}

export async function creditLineOf(
  db: Db | Tx,
  institutionId: number,
  now: Date,
): Promise<CreditLine | null> {
  const [inst] = await db.select().from(institutions).where(eq(institutions.id, institutionId));
  if (!inst || inst.creditLimitCents === null || inst.creditDays === null) return null;
  const openCents = (await receivablesOf(db, institutionId)).reduce((s, r) => s + r.receivableCents, 0);
  const overdue = await overdueOf(db, institutionId, now);
  const overdueCents = overdue.reduce((s, r) => s + r.balanceCents, 0);
  return {
    institutionId,
    limitCents: inst.creditLimitCents,
    days: inst.creditDays,
    openCents,
    availableCents: Math.max(0, inst.creditLimitCents - openCents),
    overdueCount: overdue.length,
    overdueCents,
    onHold: overdue.length > 0,
  };
}

/** What checkout says about paying this total on credit: offered, or why not (the server's word). */
export type CreditOffer =
  | { offered: true; label: string; days: number; availableCents: number }
  | { offered: false; reason: string; availableCents: number | null };

export function creditOfferFor(
  inst: { verifiedAt: Date | null },
  line: CreditLine | null,
  totalCents: number,
): CreditOffer {
  if (!line) return { offered: false, reason: CREDIT_NO_LINE, availableCents: null };
  if (!inst.verifiedAt) return { offered: false, reason: CREDIT_NOT_VERIFIED, availableCents: null };
  if (line.onHold)
    return {
      offered: false,
      reason: creditOnHold(line.overdueCount, line.overdueCents),
      availableCents: line.availableCents,
    };
  if (totalCents > line.availableCents)
    return {
      offered: false,
      reason: creditShortBy(totalCents - line.availableCents, line.availableCents),
      availableCents: line.availableCents,
    };
  return {
    offered: true,
    label: creditOptionLabel(line.days),
    days: line.days,
    availableCents: line.availableCents,
  };
}

/**
 * Inside the order's transaction: locks the institution's row (every credit decision of one institution waits for
 * the one before to commit, whose 'credit_sale' then counts) and refuses with 409 and the reason when the order
 * does not fit. Nothing is written when it refuses.
 */
export async function refuseCredit(tx: Tx, institutionId: number, totalCents: number, now: Date) {
  const [inst] = await tx
    .select({ id: institutions.id, verifiedAt: institutions.verifiedAt })
    .from(institutions)
    .where(eq(institutions.id, institutionId))
    .for('update');
  if (!inst) throw conflict(CREDIT_NO_LINE, 'credit_unavailable');
  const offer = creditOfferFor(inst, await creditLineOf(tx, institutionId, now), totalCents);
  if (!offer.offered) throw conflict(offer.reason, 'credit_refused');
}

/** Institutions with a balance (the receivables view): ids with any credit order still owed. */
export async function institutionsWithCredit(db: Db) {
  return db
    .select({ id: institutions.id, razonSocial: institutions.razonSocial, rfc: institutions.rfc })
    .from(institutions)
    .where(gt(sql`coalesce(${institutions.creditLimitCents}, -1)`, -1))
    .orderBy(institutions.razonSocial);
}
