import { eq } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { orders } from '../db/schema.ts';

export type Order = typeof orders.$inferSelect;

/**
 * Takes the order's row lock until the transaction ends and answers the row as it is now. Every change of an
 * order's state starts here, so two changes of one order (a shopper's and a staff member's cancellation, a
 * cancellation and a shipment, a payment confirmation and an expiry) run one after the other and the second
 * sees what the first did. Whatever else must exclude an order's transitions (an invoice being issued, a
 * quotation turned into this order) takes the same lock.
 */
export async function lockOrder(tx: Tx, number: number): Promise<Order | undefined> {
  const [order] = await tx.select().from(orders).where(eq(orders.number, number)).for('update');
  return order;
}
