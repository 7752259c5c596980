import { and, count, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { AdminQuotationDetail, AdminQuotationList } from '../../shared/schemas/quotations.ts';
import type { Db } from '../db/client.ts';
import { orders, quotations, users } from '../db/schema.ts';
import { consumedByOrderSql } from '../quotations/rules.ts';
import { detailOf, findQuotation, revisionsOf, summariesOf } from '../quotations/service.ts';

/** The back office's views of quotations (read only: every change goes through src/server/quotations). */

const LIST_LIMIT = 200;

/**
 * GET /api/admin/quotations: the latest quotations and the conversion rate: quotations that became an order
 * that was paid (or is still being paid) over all quotations issued.
 */
export async function listAdminQuotations(db: Db): Promise<AdminQuotationList> {
  const rows = await db
    .select({
      q: quotations,
      customerName: sql<string>`trim(${users.nombre} || ' ' || ${users.apellidoPat} || ' ' || ${users.apellidoMat})`,
      email: users.email,
    })
    .from(quotations)
    .innerJoin(users, eq(users.id, quotations.userId))
    .orderBy(desc(quotations.createdAt), desc(quotations.id))
    .limit(LIST_LIMIT);
  const summaries = await summariesOf(
    db,
    rows.map((r) => r.q),
  );
  const [issued] = await db.select({ n: count() }).from(quotations);
  const [converted] = await db
    .select({ n: count() })
    .from(quotations)
    .innerJoin(orders, eq(orders.number, quotations.orderNumber))
    .where(and(isNotNull(quotations.orderNumber), consumedByOrderSql));
  const n = issued?.n ?? 0;
  const c = converted?.n ?? 0;
  return {
    items: summaries.map(({ summary }, i) => ({
      ...summary,
      customerName: rows[i]!.customerName,
      email: rows[i]!.email,
      institution: rows[i]!.q.institution,
    })),
    stats: { issued: n, converted: c, ratePercent: n === 0 ? 0 : Math.round((c / n) * 1000) / 10 },
  };
}

export async function getAdminQuotation(db: Db, folio: string): Promise<AdminQuotationDetail> {
  const q = await findQuotation(db, null, folio);
  const [owner] = await db.select({ email: users.email }).from(users).where(eq(users.id, q.userId));
  const revisions = await revisionsOf(db, q.id);
  return {
    ...(await detailOf(db, q)),
    email: owner?.email ?? '',
    revisions: revisions.map((r) => ({
      revision: r.revision,
      reason: r.reason,
      createdAt: r.createdAt.toISOString(),
      validUntil: r.validUntil.toISOString(),
      totalCents: r.totalCents,
      by: r.by ?? 'Cliente',
    })),
  };
}
