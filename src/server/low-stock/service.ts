import { eq, sql } from 'drizzle-orm';
import { daysOfStockLeft, RUN_OUT_HORIZON_DAYS, SALES_WINDOW_DAYS } from '../../shared/low-stock.ts';
import type { LowStockItem, LowStockList } from '../../shared/schemas/low-stock.ts';
import { type Actor, writeAudit } from '../audit/log.ts';
import type { Db } from '../db/client.ts';
import { products } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';

/**
 * 'Por agotarse' (issue 36, decision 066). A presentation (a products row, decision 021) is listed when its stock
 * is at or below its reorder point (its own, else REORDER_POINT_DEFAULT), or when at the pace of the last 90 days'
 * sales it runs out within RUN_OUT_HORIZON_DAYS. Sales: the units of orders paid (or confirmed on credit) in the
 * window, less the backordered units the buyer gave up; a cancelled or unpaid order sold nothing. One SQL query,
 * aggregated by the database; the order is days left, soonest first, then 'sin ventas' by stock.
 */

/** Orders whose units count as sold: paid or on credit and not cancelled (a refund does not undo the demand). */
const SOLD_STATUSES = sql`('paid', 'on_credit', 'preparing', 'partially_shipped', 'shipped', 'delivered')`;

type Row = {
  code: string;
  name: string;
  presentation_label: string | null;
  stock: number;
  reorder_point: number | null;
  sold: number;
  backorderable: boolean;
};

/** Sorts a list: fewest days left first; 'sin ventas' after every projection, least stock first; then the code. */
export function byDaysLeft(a: LowStockItem, b: LowStockItem): number {
  const da = a.daysLeft ?? Number.POSITIVE_INFINITY;
  const db = b.daysLeft ?? Number.POSITIVE_INFINITY;
  if (da !== db) return da - db;
  if (a.stock !== b.stock) return a.stock - b.stock;
  return a.code < b.code ? -1 : a.code > b.code ? 1 : 0;
}

export async function lowStock(db: Db, defaultPoint: number, now = new Date()): Promise<LowStockList> {
  const since = new Date(now.getTime() - SALES_WINDOW_DAYS * 86_400_000);
  const { rows } = await db.execute<Row>(sql`
    with sold as (
      select l.product_code, sum(l.quantity - l.cancelled_quantity)::int as units
      from order_lines l join orders o on o.number = l.order_number
      where o.status in ${SOLD_STATUSES} and o.cancelled_at is null
        and coalesce(o.paid_at, o.created_at) >= ${since.toISOString()}
        and coalesce(o.paid_at, o.created_at) <= ${now.toISOString()}
      group by l.product_code
    )
    select p.code, p.name, p.presentation_label, p.stock, p.reorder_point, p.backorderable,
           coalesce(s.units, 0)::int as sold
    from products p left join sold s on s.product_code = p.code
    where p.active
      and (p.stock <= coalesce(p.reorder_point, ${defaultPoint})
           or (s.units > 0 and p.stock::bigint * ${SALES_WINDOW_DAYS} < ${RUN_OUT_HORIZON_DAYS}::bigint * s.units))`);
  const items = rows.map((r): LowStockItem => {
    const stock = Number(r.stock);
    const sold = Math.max(0, Number(r.sold));
    const point = r.reorder_point ?? defaultPoint;
    return {
      code: r.code,
      name: r.name,
      presentationLabel: r.presentation_label,
      stock,
      reorderPoint: r.reorder_point,
      effectiveReorderPoint: point,
      soldLast90Days: sold,
      daysLeft: daysOfStockLeft(stock, sold),
      reason: stock <= point ? 'reorder_point' : 'projected',
      backorderable: r.backorderable,
    };
  });
  items.sort(byDaysLeft);
  return { items, defaultReorderPoint: defaultPoint, horizonDays: RUN_OUT_HORIZON_DAYS };
}

/** Staff set a presentation's reorder point (null: back to the default); audited with before and after. */
export async function setReorderPoint(
  db: Db,
  actor: Actor,
  code: string,
  reorderPoint: number | null,
): Promise<{ code: string; reorderPoint: number | null }> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ code: products.code, reorderPoint: products.reorderPoint })
      .from(products)
      .where(eq(products.code, code))
      .for('update');
    if (!before) throw notFound('Producto no encontrado');
    if (before.reorderPoint === reorderPoint) return before;
    await tx.update(products).set({ reorderPoint, updatedAt: sql`now()` }).where(eq(products.code, code));
    await writeAudit(tx, actor, {
      action: 'stock.reorder_point',
      entityType: 'product',
      entityId: code,
      before: { reorderPoint: before.reorderPoint },
      after: { reorderPoint },
    });
    return { code, reorderPoint };
  });
}
