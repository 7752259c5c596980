import { createHash } from 'node:crypto';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { type CheckoutAnswer, idempotencyKeys } from '../db/schema.ts';

export type { CheckoutAnswer };

/** How long a request holds its key before a retry may take over (a crashed or stuck request). */
const LEASE = sql`now() + interval '2 minutes'`;

export type Claim =
  | { kind: 'new' }
  | { kind: 'resume'; orderNumber: number | null }
  | { kind: 'replay'; answer: CheckoutAnswer }
  | { kind: 'mismatch' }
  | { kind: 'busy' };

export function requestHash(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('hex');
}

const keyOf = (userId: number, key: string) =>
  and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));
const leaseOver = or(isNull(idempotencyKeys.lockedUntil), lt(idempotencyKeys.lockedUntil, sql`now()`))!;

/**
 * Stripe's contract for one user's key: the first request takes it; the same key and body later
 * replays the stored answer; another body is a mismatch; while the first is still running, others
 * are told it is busy. A lease that ran out (the process died) can be taken over to resume.
 */
export async function claimKey(db: Db, userId: number, key: string, hash: string): Promise<Claim> {
  const inserted = await db
    .insert(idempotencyKeys)
    .values({ userId, key, requestHash: hash, state: 'in_progress', lockedUntil: LEASE })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted.length > 0) return { kind: 'new' };

  const [row] = await db
    .select({
      requestHash: idempotencyKeys.requestHash,
      state: idempotencyKeys.state,
      answer: idempotencyKeys.answer,
      orderNumber: idempotencyKeys.orderNumber,
      expired: sql<boolean>`${leaseOver}`,
    })
    .from(idempotencyKeys)
    .where(keyOf(userId, key));
  if (!row) return { kind: 'busy' };
  if (row.requestHash !== hash) return { kind: 'mismatch' };
  if (row.state === 'done' && row.answer) return { kind: 'replay', answer: row.answer };
  if (!row.expired) return { kind: 'busy' };
  const taken = await db
    .update(idempotencyKeys)
    .set({ lockedUntil: LEASE, updatedAt: sql`now()` })
    .where(and(keyOf(userId, key), eq(idempotencyKeys.state, 'in_progress'), leaseOver))
    .returning({ key: idempotencyKeys.key });
  if (taken.length === 0) return { kind: 'busy' };
  return { kind: 'resume', orderNumber: row.orderNumber };
}

export async function attachOrder(db: Db, userId: number, key: string, orderNumber: number) {
  await db.update(idempotencyKeys).set({ orderNumber, updatedAt: sql`now()` }).where(keyOf(userId, key));
}

/** The final answer: replayed from now on. */
export async function completeKey(db: Db, userId: number, key: string, answer: CheckoutAnswer) {
  await db
    .update(idempotencyKeys)
    .set({ state: 'done', answer, lockedUntil: null, updatedAt: sql`now()` })
    .where(keyOf(userId, key));
}

/** No final answer yet (the gateway's result is unknown): a retry with the same key may resume now. */
export async function releaseKey(db: Db, userId: number, key: string) {
  await db
    .update(idempotencyKeys)
    .set({ lockedUntil: sql`now()`, updatedAt: sql`now()` })
    .where(and(keyOf(userId, key), eq(idempotencyKeys.state, 'in_progress')));
}
