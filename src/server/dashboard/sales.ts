import { sql } from 'drizzle-orm';
import { MEXICO_CITY_ZONE } from '../../shared/mexico-time.ts';
import { ORDER_PAYMENT_METHOD_LABELS, type OrderPaymentMethod } from '../../shared/payment-methods.ts';
import { DASHBOARD_PERIODS, type Dashboard, type DashboardPeriod } from '../../shared/schemas/dashboard.ts';
import type { Db } from '../db/client.ts';
import { aYearBefore, dashboardWindows, PERIOD_DAYS, SERIES_DAYS, type Window } from './windows.ts';

/**
 * What the dashboard calls sales, read from the orders' ledger (decision 045: the money's one truth):
 * - a sale is money in — a 'charge' (card, SPEI, cash at a store; its method is the ledger row's) — or an order
 *   placed on an institution's credit line, a 'credit_sale' (method 'credit'; the transfers that later pay it are
 *   not sales again). It counts on the Mexico City day its row was written: the day the money came in (or the
 *   credit order was placed), not the day the order was created;
 * - what went back is counted on the day the shop decided it: every 'refund_due' (card refund, payout or transfer
 *   owed — promised or already paid) less the 'refund_failed' that undid one; cancellations after payment, partial
 *   refunds, returns and late payments sent back all arrive this way;
 * - net = gross − given back, per day. Orders = the sale rows (one per order sold: an order is charged once; a late
 *   payment after its order expired is a sale, given back).
 * By category, product and institution are the gross of the orders with a sale in the last 30 days (their lines'
 * price × quantity, IVA included, without shipping): a refund is money, not lines, so it is not spread over them.
 */

const SALE_KINDS = sql`('charge', 'credit_sale')`;

type Bucket = { y: number; day: string; kind: string; method: string | null; cents: number; orders: number };

const iso = (d: Date) => d.toISOString();

async function buckets(db: Db, current: Window, lastYear: Window): Promise<Bucket[]> {
  // Two range scans of order_ledger_sales_idx (migration 0035), one per year.
  // Grouped by the date itself (not its text): a hash of dates, no sort by the locale's string order.
  const range = (y: number, w: Window) => sql`
    select ${y}::int as y, day::text as day, kind, method, sum(amount_cents)::bigint as cents, count(*)::int as orders
    from (select (created_at at time zone ${MEXICO_CITY_ZONE})::date as day, kind, method, amount_cents
          from order_ledger
          where kind in ('charge', 'credit_sale', 'refund_due', 'refund_failed')
            and created_at >= ${iso(w.from)}::timestamptz and created_at < ${iso(w.to)}::timestamptz) m
    group by day, kind, method`;
  const { rows } = await db.execute<Record<string, unknown>>(
    sql`${range(0, current)} union all ${range(1, lastYear)}`,
  );
  return rows.map((r) => ({
    y: Number(r.y),
    day: String(r.day),
    kind: String(r.kind),
    method: (r.method as string | null) ?? null,
    cents: Number(r.cents),
    orders: Number(r.orders),
  }));
}

const methodOf = (b: Bucket): OrderPaymentMethod =>
  b.kind === 'credit_sale' ? 'credit' : ((b.method ?? 'card') as OrderPaymentMethod);
const isSale = (b: Bucket) => b.kind === 'charge' || b.kind === 'credit_sale';
const givenBack = (b: Bucket) =>
  b.kind === 'refund_due' ? b.cents : b.kind === 'refund_failed' ? -b.cents : 0;

function figures(list: Bucket[]) {
  const grossCents = list.filter(isSale).reduce((s, b) => s + b.cents, 0);
  const givenBackCents = list.reduce((s, b) => s + givenBack(b), 0);
  const orders = list.filter(isSale).reduce((s, b) => s + b.orders, 0);
  return { grossCents, givenBackCents, netCents: grossCents - givenBackCents, orders };
}

/** Sales per period against last year, the 30 days' series and by method. */
export async function salesFigures(db: Db, now: Date): Promise<Omit<Dashboard['sales'], 'byCategory'>> {
  const { firstDay, window, days } = dashboardWindows(now);
  const thirty = window(SERIES_DAYS);
  const all = await buckets(db, thirty.current, thirty.lastYear);
  const current = all.filter((b) => b.y === 0);
  const lastYear = all.filter((b) => b.y === 1);
  const periods = (Object.keys(DASHBOARD_PERIODS) as DashboardPeriod[]).map((period) => {
    const from = firstDay(PERIOD_DAYS[period]);
    return {
      period,
      from,
      current: figures(current.filter((b) => b.day >= from)),
      lastYear: figures(lastYear.filter((b) => b.day >= aYearBefore(from))),
    };
  });
  const daily = days.map((day) => {
    const lastYearDay = aYearBefore(day);
    return {
      day,
      lastYearDay,
      netCents: figures(current.filter((b) => b.day === day)).netCents,
      lastYearNetCents: figures(lastYear.filter((b) => b.day === lastYearDay)).netCents,
    };
  });
  const methods = new Map<OrderPaymentMethod, { grossCents: number; lastYearGrossCents: number }>();
  for (const b of all.filter(isSale)) {
    const m = methods.get(methodOf(b)) ?? { grossCents: 0, lastYearGrossCents: 0 };
    if (b.y === 0) m.grossCents += b.cents;
    else m.lastYearGrossCents += b.cents;
    methods.set(methodOf(b), m);
  }
  const byMethod = [...methods]
    .map(([method, m]) => ({ method, label: ORDER_PAYMENT_METHOD_LABELS[method] ?? method, ...m }))
    .sort((a, b) => b.grossCents - a.grossCents || b.lastYearGrossCents - a.lastYearGrossCents);
  return { periods, daily, byMethod };
}

/** The orders with a sale in the window (see above). */
const soldIn = (w: Window) => sql`
  select order_number, sum(amount_cents)::bigint as cents from order_ledger
  where kind in ${SALE_KINDS} and created_at >= ${iso(w.from)}::timestamptz and created_at < ${iso(w.to)}::timestamptz
  group by order_number`;

/**
 * What the last 30 days' sales were made of, in one pass over their lines: by top-level category (a subgroup counts
 * for its group) and the ten best-selling products.
 */
export async function linesSold(db: Db, now: Date) {
  const w = dashboardWindows(now).window(SERIES_DAYS).current;
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    with sold as (${soldIn(w)}),
    per_product as (
      select ol.product_code collate "C" as code, max(ol.description) as description, sum(ol.quantity)::int as units,
        sum(ol.unit_price_cents * ol.quantity)::bigint as cents
      from sold join order_lines ol on ol.order_number = sold.order_number
      -- Order numbers grow with time: the bound lets the lines be read as one range of order_lines_sold_idx.
      where ol.order_number between (select min(order_number) from sold) and (select max(order_number) from sold)
      -- Grouped byte-wise ("C"): a code is an identifier, and the locale's comparisons made this sort the cost.
      group by 1),
    per_category as (
      select coalesce(top.clas, g.clas) as clas, coalesce(top.name, g.name) as name, sum(pp.cents)::bigint as cents
      from per_product pp
      left join products p on p.code = (pp.code collate "default")
      left join groups g on g.clas = p.group_clas
      left join groups top on top.clas = g.parent_clas
      group by 1, 2)
    (select 'category' as what, clas as code, name, null::int as units, cents from per_category)
    union all
    (select 'product', code, description, units, cents from per_product order by cents desc, code limit 10)`);
  const byCategory = rows
    .filter((r) => r.what === 'category')
    .map((r) => ({
      clas: (r.code as string | null) ?? null,
      name: (r.name as string | null) ?? 'Sin categoría',
      cents: Number(r.cents),
    }))
    .sort((a, b) => b.cents - a.cents || a.name.localeCompare(b.name, 'es'));
  const topProducts = rows
    .filter((r) => r.what === 'product')
    .map((r) => ({
      code: String(r.code),
      description: String(r.name),
      units: Number(r.units),
      cents: Number(r.cents),
    }))
    .sort((a, b) => b.cents - a.cents || a.code.localeCompare(b.code));
  return { byCategory, topProducts };
}

/** The ten institutions that bought most in the last 30 days (gross, IVA included). */
export async function topInstitutions(db: Db, now: Date): Promise<Dashboard['topInstitutions']> {
  const w = dashboardWindows(now).window(SERIES_DAYS).current;
  const { rows } = await db.execute<{ id: number; name: string; orders: number; cents: string }>(sql`
    with sold as (${soldIn(w)})
    select i.id, i.razon_social as name, count(*)::int as orders, sum(sold.cents)::bigint as cents
    from sold join orders o on o.number = sold.order_number join institutions i on i.id = o.institution_id
    -- As for the lines: the orders sold are one range of order numbers (a primary-key range, not every order of
    -- every institution).
    where o.number between (select min(order_number) from sold) and (select max(order_number) from sold)
    group by i.id, i.razon_social order by 4 desc, 2 limit 10`);
  return rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    orders: Number(r.orders),
    cents: Number(r.cents),
  }));
}
