import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { conflict } from '../http/errors.ts';
import { rows } from './sql.ts';

export type StockReason = 'order_reserve' | 'order_release' | 'order_cancel';

/**
 * Takes stock for an order inside its transaction. Rows are updated in code order (two orders never
 * wait on each other in opposite orders), and `stock >= q` makes the decrement atomic: stock can
 * never go negative. Each change is a ledger row. Throws 409 naming the product when one runs short.
 */
export async function reserveStock(
  tx: Db,
  orderNumber: number,
  lines: readonly { code: string; name: string; quantity: number }[],
): Promise<void> {
  const sorted = [...lines].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  for (const line of sorted) {
    const result = await rows<unknown>(
      tx,
      sql`
      update products set stock = stock - ${line.quantity}, updated_at = now()
      where code = ${line.code} and active and stock >= ${line.quantity}
      returning stock`,
    );
    if (result.length === 0) {
      const [row] = await rows<{ stock: number; active: boolean }>(
        tx,
        sql`select stock, active from products where code = ${line.code}`,
      );
      if (!row?.active) throw conflict(`${line.name} ya no está disponible`, 'unavailable');
      const left = Number(row.stock);
      throw conflict(
        left > 0
          ? `Sin existencia suficiente de ${line.name}: solo hay ${left} ${left === 1 ? 'disponible' : 'disponibles'}`
          : `Sin existencia de ${line.name}`,
        'out_of_stock',
      );
    }
    await tx.execute(sql`
      insert into stock_movements (product_code, delta, reason, order_number)
      values (${line.code}, ${-line.quantity}, 'order_reserve', ${orderNumber})`);
  }
}

/** Puts an order's stock back (payment failed, reservation expired, order cancelled), with ledger rows. */
export async function returnStock(tx: Db, orderNumber: number, reason: StockReason): Promise<void> {
  const lines = await rows<{ product_code: string; quantity: number }>(
    tx,
    sql`
      select product_code, quantity from order_lines where order_number = ${orderNumber} order by product_code`,
  );
  for (const line of lines) {
    await tx.execute(sql`
      update products set stock = stock + ${line.quantity}, updated_at = now() where code = ${line.product_code}`);
    await tx.execute(sql`
      insert into stock_movements (product_code, delta, reason, order_number)
      values (${line.product_code}, ${Number(line.quantity)}, ${reason}, ${orderNumber})`);
  }
}
