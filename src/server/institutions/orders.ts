import { desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { institutionOrdersSchema } from '../../shared/schemas/institutions.ts';
import { ORDER_STATUS_LABELS } from '../../shared/schemas/orders.ts';
import type { Db } from '../db/client.ts';
import { orders, users } from '../db/schema.ts';

/** The institution's orders, every member's (for 'orders.read_all'), newest first: who bought, what, for how much. */
export async function institutionOrders(
  db: Db,
  institutionId: number,
): Promise<z.infer<typeof institutionOrdersSchema>> {
  const rows = await db
    .select({
      number: orders.number,
      createdAt: orders.createdAt,
      status: orders.status,
      purchaseOrder: orders.purchaseOrder,
      totalCents: orders.totalCents,
      buyer: sql<string>`trim(${users.nombre} || ' ' || ${users.apellidoPat})`,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.institutionId, institutionId))
    .orderBy(desc(orders.createdAt))
    .limit(200);
  return {
    orders: rows.map((r) => ({
      number: r.number,
      date: r.createdAt.toISOString(),
      buyer: r.buyer,
      status: ORDER_STATUS_LABELS[r.status],
      purchaseOrder: r.purchaseOrder,
      totalCents: r.totalCents,
    })),
  };
}
