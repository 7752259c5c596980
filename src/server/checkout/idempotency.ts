import { createHash } from 'node:crypto';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { heartbeat, leaseEnd } from '../db/lease.ts';
import { type CheckoutAnswer, idempotencyKeys, orders } from '../db/schema.ts';

export type { CheckoutAnswer };

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
 * are told it is busy. The holder renews its lease while it works (holdKey); a lease that ran out means the
 * process died, and a retry takes the key over within seconds (db/lease.ts) to resume. A holder that was only
 * stalled is harmless: the resumed request asks the gateway by order_id before charging, and the gateway refuses
 * a second charge for one order_id.
 */
export async function claimKey(db: Db, userId: number, key: string, hash: string): Promise<Claim> {
  const inserted = await db
    .insert(idempotencyKeys)
    .values({ userId, key, requestHash: hash, state: 'in_progress', lockedUntil: leaseEnd() })
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
    .set({ lockedUntil: leaseEnd(), updatedAt: sql`now()` })
    .where(and(keyOf(userId, key), eq(idempotencyKeys.state, 'in_progress'), leaseOver))
    .returning({ key: idempotencyKeys.key });
  if (taken.length === 0) return { kind: 'busy' };
  return { kind: 'resume', orderNumber: row.orderNumber };
}

/** Keeps the key's lease while its request works; call the answer when it has answered (or failed). */
export function holdKey(db: Db, userId: number, key: string): () => void {
  return heartbeat(() =>
    db
      .update(idempotencyKeys)
      .set({ lockedUntil: leaseEnd() })
      .where(
        and(
          keyOf(userId, key),
          eq(idempotencyKeys.state, 'in_progress'),
          // Not a lease already given back (releaseKey) or run out (a retry may own it now).
          gt(idempotencyKeys.lockedUntil, sql`now()`),
        ),
      ),
  );
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

/**
 * Whether a live request holds the key of this order (its lease not run out): its charge may be with the gateway
 * right now, so nobody else releases the order — that request settles it, or, if it dies, the order is released
 * only after asking the gateway (settle.ts releaseUnpaid). In a transaction, the key's row stays locked until it
 * ends, so a retry cannot take the key over (and charge) between this answer and the release's commit.
 */
export async function keyInFlight(db: Db, orderNumber: number, lock = false): Promise<boolean> {
  // By the key's primary key (the order keeps its shopper and key), not a scan of the keys.
  const query = db
    .select({
      held: sql<boolean>`${idempotencyKeys.state} = 'in_progress' and coalesce(${idempotencyKeys.lockedUntil} > now(), false)`,
    })
    .from(orders)
    .innerJoin(
      idempotencyKeys,
      and(eq(idempotencyKeys.userId, orders.userId), eq(idempotencyKeys.key, orders.idempotencyKey)),
    )
    .where(eq(orders.number, orderNumber))
    .limit(1);
  const [row] = await (lock ? query.for('update', { of: idempotencyKeys }) : query);
  return row?.held === true;
}
