import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { authAttempts } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/**
 * Failed sign-ins and recovery attempts are rows in auth_attempts, so the limit holds across
 * several server instances: 5 failures in 15 minutes per account and per IP.
 */
export const MAX_FAILURES = 5;
export const WINDOW_MS = 15 * 60 * 1000;

export type ThrottleKind = 'login' | 'recovery' | 'recovery-request' | 'register';

export const tooManyAttempts = () =>
  new AppError(429, 'too_many_requests', 'Demasiados intentos. Intente de nuevo más tarde.');

export const accountKey = (email: string) => `acct:${email.toLowerCase()}`;
export const ipKey = (ip: string) => `ip:${ip}`;

/** Throws 429 when any of the keys reached the limit within the window. */
export async function assertNotThrottled(db: Db, kind: ThrottleKind, keys: string[]) {
  const since = new Date(Date.now() - WINDOW_MS);
  const rows = await db
    .select({ key: authAttempts.key, n: sql<number>`count(*)::int` })
    .from(authAttempts)
    .where(
      and(eq(authAttempts.kind, kind), inArray(authAttempts.key, keys), gt(authAttempts.createdAt, since)),
    )
    .groupBy(authAttempts.key);
  if (rows.some((r) => r.n >= MAX_FAILURES)) throw tooManyAttempts();
}

export async function recordFailure(db: Db, kind: ThrottleKind, keys: string[]) {
  await db.insert(authAttempts).values(keys.map((key) => ({ kind, key })));
}

/** A successful sign-in clears the account's counter (the IP's stays). */
export async function clearFailures(db: Db, kind: ThrottleKind, key: string) {
  await db.delete(authAttempts).where(and(eq(authAttempts.kind, kind), eq(authAttempts.key, key)));
}

export async function purgeOldAttempts(db: Db) {
  await db.delete(authAttempts).where(lt(authAttempts.createdAt, new Date(Date.now() - 24 * 60 * 60 * 1000)));
}
