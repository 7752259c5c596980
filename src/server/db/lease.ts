import { type SQL, sql } from 'drizzle-orm';

/**
 * Leases of claimed work (a checkout's Idempotency-Key, a cancellation being refunded). A claim is stale only when
 * its holder cannot still be working: the holder renews the lease every HEARTBEAT_MS while it works, so a lease
 * that ran out means the process died (kill -9, crash, lost host) or has been unable to reach the database for
 * LEASE_SECONDS. Whoever takes a stale claim over must be safe against a holder that was only stalled: both paths
 * that use leases are (a charge's order_id is unique at the gateway; a refund is asked once and confirmed, and a
 * cancellation finishes once under the order's row lock).
 */
export const LEASE_SECONDS = 10;
export const HEARTBEAT_MS = 3_000;

/** now() + the lease, as SQL (the database's clock decides, the same for every instance). */
export const leaseEnd = (): SQL => sql`now() + make_interval(secs => ${LEASE_SECONDS})`;

/**
 * Renews a lease every `everyMs` until the answered function is called. One renewal at a time; a failed one is
 * retried at the next beat (the lease is long enough for a few to fail).
 */
export function heartbeat(renew: () => Promise<unknown>, everyMs = HEARTBEAT_MS): () => void {
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
