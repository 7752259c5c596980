import { sql } from 'drizzle-orm';
import type { Dashboard } from '../../shared/schemas/dashboard.ts';
import { ORDER_STATUS_LABELS, type OrderStatus } from '../../shared/schemas/orders.ts';
import { listMisses } from '../catalog/vocabulary.ts';
import type { Db } from '../db/client.ts';
import { consumedByOrderSql } from '../quotations/rules.ts';
import { type QueueRow, waitingQueues } from './queues.ts';
import { linesSold, salesFigures, topInstitutions } from './sales.ts';
import { dashboardWindows, SERIES_DAYS } from './windows.ts';

/**
 * The admin's home (issue 36, decision 065): every figure an SQL aggregate, every day a Mexico City day. `now` is
 * the request's instant (tests pin it). Sales: sales.ts; the waiting work: queues.ts (shared with /metrics).
 */

/**
 * Statuses that wait on someone, and since when each order has waited: the buyer's payment (since the order was
 * placed), staff's preparation (since it was paid or confirmed on credit), the carrier's delivery (since shipped).
 */
const WAITING: readonly OrderStatus[] = [
  'pending_payment',
  'paid',
  'on_credit',
  'preparing',
  'partially_shipped',
  'shipped',
];
const waitingSince = sql`case status when 'pending_payment' then created_at
  when 'shipped' then coalesce(shipped_at, paid_at, created_at) else coalesce(paid_at, created_at) end`;

export async function ordersByStatus(db: Db, from30: Date, now: Date): Promise<Dashboard['orders']> {
  const waitingList = sql.join(
    WAITING.map((s) => sql`${s}`),
    sql`, `,
  );
  const [counts, oldest] = await Promise.all([
    db.execute<{ status: OrderStatus; total: number; last30: number }>(sql`
      select status, count(*)::int as total,
        count(*) filter (where created_at >= ${from30.toISOString()}::timestamptz
          and created_at < ${now.toISOString()}::timestamptz)::int as last30
      from orders group by status`),
    db.execute<{ status: OrderStatus; number: number; since: unknown }>(sql`
      select distinct on (status) status, number, ${waitingSince} as since
      from orders where status in (${waitingList}) order by status, ${waitingSince}, number`),
  ]);
  const byStatus = new Map(counts.rows.map((r) => [r.status, r]));
  const first = new Map(oldest.rows.map((r) => [r.status, r]));
  return (Object.keys(ORDER_STATUS_LABELS) as OrderStatus[]).map((status) => {
    const w = first.get(status);
    return {
      status,
      label: ORDER_STATUS_LABELS[status],
      total: Number(byStatus.get(status)?.total ?? 0),
      last30: Number(byStatus.get(status)?.last30 ?? 0),
      waiting: w ? { since: new Date(String(w.since)).toISOString(), number: Number(w.number) } : null,
    };
  });
}

/**
 * Quotations issued in the last 30 days and, of those, the ones converted by now (the same rule as their state
 * 'convertida'), with the value of their current revision.
 */
export async function quotationConversion(db: Db, from30: Date, now: Date): Promise<Dashboard['quotations']> {
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    select count(*)::int as issued, count(*) filter (where converted)::int as converted,
      coalesce(sum(total), 0)::bigint as issued_cents,
      coalesce(sum(total) filter (where converted), 0)::bigint as converted_cents
    from (
      select r.total_cents as total, (orders.number is not null and ${consumedByOrderSql}) as converted
      from quotations q
      join quotation_revisions r on r.quotation_id = q.id and r.revision = q.revision
      left join orders on orders.number = q.order_number
      where q.created_at >= ${from30.toISOString()}::timestamptz and q.created_at < ${now.toISOString()}::timestamptz
    ) x`);
  const r = rows[0]!;
  const issued = Number(r.issued);
  const converted = Number(r.converted);
  return {
    issued,
    converted,
    ratePercent: issued === 0 ? 0 : Math.round((converted / issued) * 1000) / 10,
    issuedCents: Number(r.issued_cents),
    convertedCents: Number(r.converted_cents),
  };
}

const isoOrNull = (d: Date | null | undefined) => d?.toISOString() ?? null;
const minDate = (list: (Date | null)[]) =>
  list.reduce<Date | null>((m, d) => (d && (!m || d < m) ? d : m), null);

function waitingWork(rows: QueueRow[]): Dashboard['waiting'] {
  const of = (queue: QueueRow['queue']) => rows.filter((r) => r.queue === queue);
  const sum = (list: QueueRow[], pick: (r: QueueRow) => number) => list.reduce((s, r) => s + pick(r), 0);
  const payments = of('orders_awaiting_payment');
  const refunds = of('refunds_open');
  const invoices = of('invoices_waiting');
  const invoicesOf = (kind: string) =>
    sum(
      invoices.filter((r) => r.kind === kind),
      (r) => r.n,
    );
  return {
    delayedPayments: {
      n: sum(payments, (r) => r.n),
      cents: sum(payments, (r) => r.cents ?? 0),
      firstDue: isoOrNull(minDate(payments.map((r) => r.firstDue))),
    },
    refundsOwed: {
      n: sum(refunds, (r) => r.n),
      cents: sum(refunds, (r) => r.cents ?? 0),
      oldest: isoOrNull(minDate(refunds.map((r) => r.oldest))),
    },
    invoicesAtPac: {
      n: sum(invoices, (r) => r.n),
      stamping: invoicesOf('stamping'),
      atPurchase: invoicesOf('at_purchase'),
      cancellation: invoicesOf('cancellation'),
      oldest: isoOrNull(minDate(invoices.map((r) => r.oldest))),
    },
  };
}

/** The whole dashboard: its queries run side by side (one connection on PGlite, the pool on PostgreSQL). */
export async function dashboard(db: Db, now = new Date()): Promise<Dashboard> {
  const { today, window } = dashboardWindows(now);
  const from30 = window(SERIES_DAYS).current.from;
  const [sales, lines, institutions, orders, quotations, misses, queues] = await Promise.all([
    salesFigures(db, now),
    linesSold(db, now),
    topInstitutions(db, now),
    ordersByStatus(db, from30, now),
    quotationConversion(db, from30, now),
    listMisses(db, SERIES_DAYS, { limit: 10, today }),
    waitingQueues(db),
  ]);
  return {
    generatedAt: now.toISOString(),
    today,
    sales: { ...sales, byCategory: lines.byCategory },
    orders,
    quotations,
    topProducts: lines.topProducts,
    topInstitutions: institutions,
    searchMisses: misses.map((m) => ({ term: m.term, results: m.results, searches: m.searches })),
    waiting: waitingWork(queues),
  };
}
