import { and, asc, eq, gte, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { orderLines, products, stockMovements } from '../db/schema.ts';
import { conflict } from '../http/errors.ts';

export type StockReason = 'order_reserve' | 'order_release' | 'order_cancel';

/**
 * Takes stock for an order inside its transaction. Rows are updated in code order (two orders never
 * wait on each other in opposite orders), and `stock >= q` makes the decrement atomic: stock can
 * never go negative. Each change is a ledger row. Throws 409 naming the product when one runs short.
 */
export async function reserveStock(
  tx: Tx,
  orderNumber: number,
  lines: readonly { code: string; name: string; quantity: number }[],
): Promise<void> {
  const sorted = [...lines].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  for (const line of sorted) {
    const taken = await tx
      .update(products)
      .set({ stock: sql`${products.stock} - ${line.quantity}`, updatedAt: sql`now()` })
      .where(and(eq(products.code, line.code), eq(products.active, true), gte(products.stock, line.quantity)))
      .returning({ stock: products.stock });
    if (taken.length === 0) {
      const [row] = await tx
        .select({ stock: products.stock, active: products.active })
        .from(products)
        .where(eq(products.code, line.code));
      if (!row?.active) throw conflict(`${line.name} ya no está disponible`, 'unavailable');
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
  }
}

/** Puts an order's stock back (payment failed, reservation expired, order cancelled), with ledger rows. */
export async function returnStock(tx: Tx, orderNumber: number, reason: StockReason): Promise<void> {
  const lines = await tx
    .select({ code: orderLines.productCode, quantity: orderLines.quantity })
    .from(orderLines)
    .where(eq(orderLines.orderNumber, orderNumber))
    .orderBy(asc(orderLines.productCode));
  for (const line of lines) {
    await tx
      .update(products)
      .set({ stock: sql`${products.stock} + ${line.quantity}`, updatedAt: sql`now()` })
      .where(eq(products.code, line.code));
    await tx
      .insert(stockMovements)
      .values({ productCode: line.code, delta: line.quantity, reason, orderNumber });
  }
}
