import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/**
 * The work waiting in the database, one definition read by /metrics (the operator's gauges) and by the dashboard
 * (staff's figures): mails in mail_outbox, CFDIs waiting for the PAC (being stamped, asked at purchase, a
 * cancellation 'en proceso' before the SAT), SPEI/cash orders awaiting payment, refunds owed or in progress
 * (orders/refunds.ts `openRefunds` lists the same rows). Each with how many, their money (where there is any)
 * and since when the oldest has waited; for the orders awaiting payment also the soonest deadline.
 */
export type QueueRow = {
  queue:
    | 'mail_outbox_pending'
    | 'mail_outbox_failed'
    | 'invoices_waiting'
    | 'orders_awaiting_payment'
    | 'refunds_open';
  kind: string | null;
  n: number;
  cents: number | null;
  oldest: Date | null;
  firstDue: Date | null;
};

const QUEUES = sql`
  select 'mail_outbox_pending' as queue, null as kind, count(*)::int as n, null::bigint as cents,
      min(created_at) as oldest, null::timestamptz as first_due
    from mail_outbox where status = 'pending'
  union all select 'mail_outbox_failed', null, count(*)::int, null, min(created_at), null
    from mail_outbox where status = 'failed'
  union all select 'invoices_waiting', 'stamping', count(*)::int, sum(total_cents), min(created_at), null
    from invoices where status = 'pending'
  union all select 'invoices_waiting', 'at_purchase', count(*)::int, sum(o.total_cents), min(r.created_at), null
    from purchase_invoice_requests r join orders o on o.number = r.order_number where r.status = 'waiting'
  union all select 'invoices_waiting', 'cancellation', count(*)::int, sum(total_cents), min(cancel_requested_at), null
    from invoices where cancel_status = 'pending'
  union all select 'orders_awaiting_payment', payment_method, count(*)::int, sum(total_cents), min(created_at),
      min(payment_due_at)
    from orders where status = 'pending_payment' and payment_method in ('spei', 'cash') group by payment_method
  union all select 'refunds_open', state, count(*)::int, sum(amount_cents), min(created_at), null
    from order_refunds where state in ('owed', 'in_progress') group by state`;

const asDate = (v: unknown) => (v == null ? null : v instanceof Date ? v : new Date(String(v)));

export async function waitingQueues(db: Db): Promise<QueueRow[]> {
  const { rows } = await db.execute<Record<string, unknown>>(QUEUES);
  return rows.map((r) => ({
    queue: r.queue as QueueRow['queue'],
    kind: (r.kind as string | null) ?? null,
    n: Number(r.n),
    cents: r.cents == null ? null : Number(r.cents),
    oldest: asDate(r.oldest),
    firstDue: asDate(r.first_due),
  }));
}
