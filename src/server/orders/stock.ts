import { and, asc, eq, gte, sql } from 'drizzle-orm';
import { type LeadTime, leadTimeOf } from '../../shared/backorder.ts';
import type { Tx } from '../db/client.ts';
import { orderLines, products, stockMovements } from '../db/schema.ts';
import { conflict } from '../http/errors.ts';

export type StockReason = 'order_reserve' | 'order_release' | 'order_cancel';
// Issue 35 adds 'goods_received' and 'backorder_fill' (src/server/shipments/receiving.ts).

/** Of one line: the units stock did not cover ('sobre pedido', decision 029) and their lead time. */
export type Reserved = { backordered: number; lead: LeadTime | null };

/**
 * Takes stock for an order inside its transaction. Rows are updated in code order (two orders never
 * wait on each other in opposite orders), and `stock >= q` makes the decrement atomic: stock can
 * never go negative. Each change is a ledger row. Throws 409 naming the product when one runs short —
 * unless it is 'sobre pedido' (decision 029): then, under the row's lock, what stock there is is taken
 * (min(q, stock), a ledger row for exactly that) and the rest is returned as backordered, never lost.
 */
export async function reserveStock(
  tx: Tx,
  orderNumber: number,
  lines: readonly { code: string; name: string; quantity: number }[],
): Promise<Map<string, Reserved>> {
  const reserved = new Map<string, Reserved>();
  const sorted = [...lines].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  for (const line of sorted) {
    const taken = await tx
      .update(products)
      .set({ stock: sql`${products.stock} - ${line.quantity}`, updatedAt: sql`now()` })
      .where(and(eq(products.code, line.code), eq(products.active, true), gte(products.stock, line.quantity)))
      .returning({ stock: products.stock });
    if (taken.length === 0) {
      const [row] = await tx
        .select({
          stock: products.stock,
          active: products.active,
          backorderable: products.backorderable,
          leadMinDays: products.leadMinDays,
          leadMaxDays: products.leadMaxDays,
        })
        .from(products)
        .where(eq(products.code, line.code));
      if (!row?.active) throw conflict(`${line.name} ya no está disponible`, 'unavailable');
      // Not 'sobre pedido': refused exactly as always, without waiting on the row. Flagged: under the row's lock.
      if (leadTimeOf(row)) {
        reserved.set(line.code, await takeWhatThereIs(tx, orderNumber, line));
        continue;
      }
      const left = row.stock;
      throw conflict(
        left > 0
          ? `Sin existencia suficiente de ${line.name}: solo hay ${left} ${left === 1 ? 'disponible' : 'disponibles'}`
          : `Sin existencia de ${line.name}`,
        'out_of_stock',
      );
    }
    await tx
      .insert(stockMovements)
      .values({ productCode: line.code, delta: -line.quantity, reason: 'order_reserve', orderNumber });
    reserved.set(line.code, { backordered: 0, lead: null });
  }
  return reserved;
}

/**
 * A 'sobre pedido' line short of stock: its row locked (the stock read then is the stock), min(q, stock) taken
 * with a ledger row, the rest backordered. The flag is read again under the lock: staff may have just cleared it.
 */
async function takeWhatThereIs(
  tx: Tx,
  orderNumber: number,
  line: { code: string; name: string; quantity: number },
): Promise<Reserved> {
  const [row] = await tx
    .select({
      stock: products.stock,
      active: products.active,
      backorderable: products.backorderable,
      leadMinDays: products.leadMinDays,
      leadMaxDays: products.leadMaxDays,
    })
    .from(products)
    .where(eq(products.code, line.code))
    .for('update');
  if (!row?.active) throw conflict(`${line.name} ya no está disponible`, 'unavailable');
  const lead = leadTimeOf(row);
  if (!lead && row.stock < line.quantity)
    throw conflict(
      `Sin existencia suficiente de ${line.name}: solo hay ${row.stock} disponibles`,
      'out_of_stock',
    );
  const now = Math.max(0, Math.min(row.stock, line.quantity));
  if (now > 0) {
    await tx
      .update(products)
      .set({ stock: sql`${products.stock} - ${now}`, updatedAt: sql`now()` })
      .where(eq(products.code, line.code));
    await tx
      .insert(stockMovements)
      .values({ productCode: line.code, delta: -now, reason: 'order_reserve', orderNumber });
  }
  return { backordered: line.quantity - now, lead };
}

/**
 * Puts an order's stock back (payment failed, reservation expired, order cancelled), with ledger rows: only what
 * was taken from stock — a line's backordered units ('sobre pedido') never came out of it.
 */
export async function returnStock(tx: Tx, orderNumber: number, reason: StockReason): Promise<void> {
  const lines = await tx
    .select({
      code: orderLines.productCode,
      // Received backorders (issue 35) were filled from stock too, so they go back with the rest.
      quantity: sql<number>`(${orderLines.quantity} - ${orderLines.backorderedQuantity} + ${orderLines.receivedQuantity})::int`,
    })
    .from(orderLines)
    .where(eq(orderLines.orderNumber, orderNumber))
    .orderBy(asc(orderLines.productCode));
  for (const line of lines) {
    if (line.quantity <= 0) continue;
    await tx
      .update(products)
      .set({ stock: sql`${products.stock} + ${line.quantity}`, updatedAt: sql`now()` })
      .where(eq(products.code, line.code));
    await tx
      .insert(stockMovements)
      .values({ productCode: line.code, delta: line.quantity, reason, orderNumber });
  }
}
