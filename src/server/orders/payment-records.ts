import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { orders, payments } from '../db/schema.ts';

/**
 * The order's payment attempts (table `payments`): one row per charge attempt, whose status follows the
 * gateway's. The order's transitions update them in their own transaction; the checkout records the
 * attempts and the gateway's intermediate answers (3-D Secure pending, unknown).
 */
export type PaymentRecord = typeof payments.$inferSelect;

export async function latestPayment(db: Db, number: number): Promise<PaymentRecord | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(eq(payments.orderNumber, number))
    .orderBy(desc(payments.id))
    .limit(1);
  return row;
}

/** The charge that paid the order (what a cancellation refunds). */
export async function completedPayment(db: Db, number: number): Promise<PaymentRecord | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.orderNumber, number), eq(payments.status, 'completed')))
    .orderBy(desc(payments.id))
    .limit(1);
  return row;
}

export async function updatePayment(
  db: Db,
  id: number,
  changes: Partial<
    Pick<
      PaymentRecord,
      'status' | 'chargeId' | 'errorCode' | 'errorMessage' | 'redirectUrl' | 'refundedCents'
    >
  >,
): Promise<void> {
  await db
    .update(payments)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(payments.id, id));
}

/** The order a charge belongs to: by our payment records, else by the order number the charge carries. */
export async function orderOfCharge(
  db: Db,
  chargeId: string,
  orderId: string | null,
): Promise<number | null> {
  const [byCharge] = await db
    .select({ number: payments.orderNumber })
    .from(payments)
    .where(eq(payments.chargeId, chargeId))
    .orderBy(desc(payments.id))
    .limit(1);
  if (byCharge) return byCharge.number;
  if (orderId && /^\d{1,9}$/.test(orderId)) {
    const [byOrder] = await db
      .select({ number: orders.number })
      .from(orders)
      .where(eq(orders.number, Number(orderId)));
    if (byOrder) return byOrder.number;
  }
  return null;
}

/** A new charge attempt, before the gateway is called (in the order's creating transaction). */
export async function recordPaymentAttempt(
  db: Db,
  attempt: { orderNumber: number; gateway: string; amountCents: number },
): Promise<void> {
  await db.insert(payments).values({ ...attempt, status: 'in_progress' });
}
