import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rows } from './sql.ts';

/** An HTTP answer as stored and replayed. */
export type Answer = { status: number; body: unknown };

/** How long a request holds its key before a retry may take over (a crashed or stuck request). */
const LEASE = sql`interval '2 minutes'`;

export type Claim =
  | { kind: 'new' }
  | { kind: 'resume'; orderNumber: number | null }
  | { kind: 'replay'; answer: Answer }
  | { kind: 'mismatch' }
  | { kind: 'busy' };

export function requestHash(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('hex');
}

/**
 * Stripe's contract for one user's key: the first request takes it; the same key and body later
 * replays the stored answer; another body is a mismatch; while the first is still running, others
 * are told it is busy. A lease that ran out (the process died) can be taken over to resume.
 */
export async function claimKey(db: Db, userId: number, key: string, hash: string): Promise<Claim> {
  const inserted = await rows<unknown>(
    db,
    sql`
    insert into idempotency_keys (user_id, key, request_hash, state, locked_until)
    values (${userId}, ${key}, ${hash}, 'in_progress', now() + ${LEASE})
    on conflict do nothing returning key`,
  );
  if (inserted.length > 0) return { kind: 'new' };

  const [row] = await rows<{
    request_hash: string;
    state: string;
    response_status: number | null;
    response_body: unknown;
    order_number: number | null;
    expired: boolean;
  }>(
    db,
    sql`
      select request_hash, state, response_status, response_body, order_number,
        (locked_until is null or locked_until < now()) as expired
      from idempotency_keys where user_id = ${userId} and key = ${key}`,
  );
  if (!row) return { kind: 'busy' };
  if (row.request_hash !== hash) return { kind: 'mismatch' };
  if (row.state === 'done') {
    return { kind: 'replay', answer: { status: Number(row.response_status), body: row.response_body } };
  }
  if (!row.expired) return { kind: 'busy' };
  const taken = await rows<unknown>(
    db,
    sql`
    update idempotency_keys set locked_until = now() + ${LEASE}, updated_at = now()
    where user_id = ${userId} and key = ${key} and state = 'in_progress'
      and (locked_until is null or locked_until < now())
    returning key`,
  );
  if (taken.length === 0) return { kind: 'busy' };
  return { kind: 'resume', orderNumber: row.order_number === null ? null : Number(row.order_number) };
}

export async function attachOrder(db: Db, userId: number, key: string, orderNumber: number) {
  await db.execute(sql`
    update idempotency_keys set order_number = ${orderNumber}, updated_at = now()
    where user_id = ${userId} and key = ${key}`);
}

/** The final answer: replayed from now on. */
export async function completeKey(db: Db, userId: number, key: string, answer: Answer) {
  await db.execute(sql`
    update idempotency_keys set state = 'done', response_status = ${answer.status},
      response_body = ${JSON.stringify(answer.body)}::jsonb, locked_until = null, updated_at = now()
    where user_id = ${userId} and key = ${key}`);
}

/** No final answer yet (the gateway's result is unknown): a retry with the same key may resume now. */
export async function releaseKey(db: Db, userId: number, key: string) {
  await db.execute(sql`
    update idempotency_keys set locked_until = now(), updated_at = now()
    where user_id = ${userId} and key = ${key} and state = 'in_progress'`);
}
