import { randomBytes } from 'node:crypto';
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
      | 'status'
      | 'chargeId'
      | 'errorCode'
      | 'errorMessage'
      | 'redirectUrl'
      | 'refundedCents'
      | 'orderRef'
      | 'method'
      | 'cardType'
      | 'instructions'
    >
  >,
): Promise<void> {
  await db
    .update(payments)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(payments.id, id));
}

/**
 * The order a charge belongs to: by our payment records (the charge id, else our reference — the order_id we
 * sent), else, for attempts made before references existed, by the bare order number the charge carries.
 */
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
  if (!orderId) return null;
  const [byRef] = await db
    .select({ number: payments.orderNumber })
    .from(payments)
    .where(eq(payments.orderRef, orderId))
    .limit(1);
  if (byRef) return byRef.number;
  if (/^\d{1,9}$/.test(orderId)) {
    const [byOrder] = await db
      .select({ number: orders.number })
      .from(orders)
      .where(eq(orders.number, Number(orderId)));
    if (byOrder) return byOrder.number;
  }
  return null;
}

/**
 * Our reference for a charge attempt (the order_id sent to the gateway): the order number and a random suffix,
 * so that two databases on one Openpay merchant (a reset, staging and production) never send the same one.
 */
export function newOrderRef(orderNumber: number): string {
  return `${orderNumber}-${randomBytes(6)
    .toString('base64url')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '0')}`;
}

/**
 * A new charge attempt, before the gateway is called (in the order's creating transaction, or before the
 * 3-D Secure retry), with its own reference.
 */
export async function recordPaymentAttempt(
  db: Db,
  attempt: { orderNumber: number; gateway: string; amountCents: number },
): Promise<PaymentRecord> {
  const [row] = await db
    .insert(payments)
    .values({ ...attempt, orderRef: newOrderRef(attempt.orderNumber), status: 'in_progress' })
    .returning();
  return row!;
}
