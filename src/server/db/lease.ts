import { type SQL, sql } from 'drizzle-orm';
import type { Database } from './client.ts';

/**
 * Leases of claimed work (a checkout's Idempotency-Key, a cancellation being refunded). A claim is stale only when
 * its holder cannot still be working: the holder renews the lease every `heartbeatMs` while it works, so a lease
 * that ran out means the process died (kill -9, crash, lost host) or has been unable to reach the database for
 * `seconds`. Whoever takes a stale claim over must be safe against a holder that was only stalled: both paths
 * that use leases are (a charge's order_id is unique at the gateway; a refund is asked once and confirmed, and a
 * cancellation finishes once under the order's row lock).
 *
 * The durations are read at each use: tests shorten them with `useLeaseDurations` instead of waiting 10 s.
 */
export const leaseDurations: { seconds: number; heartbeatMs: number } = { seconds: 10, heartbeatMs: 3_000 };

/** Tests only: shorter leases until the answered function restores the previous ones (call it in afterAll). */
export function useLeaseDurations(durations: { seconds: number; heartbeatMs: number }): () => void {
  const before = { ...leaseDurations };
  Object.assign(leaseDurations, durations);
  return () => {
    Object.assign(leaseDurations, before);
  };
}

/** now() + the lease, as SQL (the database's clock decides, the same for every instance). */
export const leaseEnd = (): SQL => sql`now() + make_interval(secs => ${leaseDurations.seconds}::float8)`;

/**
 * Renews a lease every `everyMs` until the answered function is called. One renewal at a time; a failed one is
 * retried at the next beat (the lease is long enough for a few to fail).
 */
export function heartbeat(renew: () => Promise<unknown>, everyMs = leaseDurations.heartbeatMs): () => void {
  let beating = false;
  const timer = setInterval(() => {
    if (beating) return;
    beating = true;
    renew()
      .catch(() => {})
      .finally(() => {
        beating = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** First key of the job locks' advisory-lock pairs (the second is hashtext of the job's name). */
const JOB_LOCK_CLASS = 7_310_054;

/**
 * Which process runs a background job now, across processes and hosts (decision 054): on PostgreSQL a session
 * advisory lock per job, taken with pg_try_advisory_lock on one connection the process keeps for its jobs, so a
 * holder that dies (kill -9, lost host, lost connection) lets go at once and nobody waits out a lease. On the
 * embedded database one process owns the data (DATA_DIR/tienda.lock, decision 017): nothing to take.
 */
export class JobLocks {
  private session: Awaited<ReturnType<NonNullable<Database['session']>>> | null = null;
  private opening: Promise<NonNullable<JobLocks['session']>> | null = null;
  private readonly tuned = new WeakSet<object>();

  constructor(private readonly database: Database) {}

  private async connection() {
    if (this.session) return this.session;
    if (!this.opening) {
      const open = this.database.session;
      if (!open) throw new Error('sin sesión');
      this.opening = open().then(
        (s) => {
          this.session = s;
          this.opening = null;
          // The connection lost: its locks are gone with it (destroyed, its pool slot freed); the next take opens
          // another.
          s.onLost(() => {
            if (this.session === s) this.session = null;
            s.release();
          });
          return s;
        },
        (error: unknown) => {
          this.opening = null;
          throw error;
        },
      );
    }
    return this.opening;
  }

  /** True when this process now holds the job (release it with `release`); false when another one does. */
  async take(name: string): Promise<boolean> {
    if (this.database.kind === 'pglite' || !this.database.session) return true;
    const s = await this.connection();
    if (!this.tuned.has(s)) {
      // A host lost without closing its connection (power, network) would hold its jobs until the kernel's
      // keepalive gave up (2 h by default): PostgreSQL probes this session after 30 s idle, every 10 s, 3 times.
      await s.query(
        "select set_config('tcp_keepalives_idle', '30', false), set_config('tcp_keepalives_interval', '10', false), set_config('tcp_keepalives_count', '3', false)",
        [],
      );
      this.tuned.add(s);
    }
    const { rows } = await s.query<{ got: boolean }>('select pg_try_advisory_lock($1, hashtext($2)) as got', [
      JOB_LOCK_CLASS,
      name,
    ]);
    return rows[0]?.got === true;
  }

  async release(name: string): Promise<void> {
    if (this.database.kind === 'pglite' || !this.session) return;
    await this.session
      .query('select pg_advisory_unlock($1, hashtext($2))', [JOB_LOCK_CLASS, name])
      .catch(() => {});
  }

  close(): void {
    this.session?.release();
    this.session = null;
  }
}
