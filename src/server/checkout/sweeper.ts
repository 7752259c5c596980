import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import { orders } from '../db/schema.ts';
import { finishInterruptedCancellations } from '../orders/cancellation.ts';
import type { OrderContext } from '../orders/context.ts';
import { advanceRefunds } from '../orders/refunds-owed.ts';
import { SWEEPER } from '../orders/requester.ts';
import { GatewayUnavailableError } from '../payments/gateway.ts';
import { reconcileAwaiting, releaseUnpaid, settleReleasedAttempts } from './settle.ts';

const BATCH = 20;

/**
 * Releases reservations left unpaid past reserved_until. Safe with several instances: each takes a
 * batch with FOR UPDATE SKIP LOCKED and leases it for two minutes by pushing reserved_until, so no
 * two instances work on one order. Before releasing, the gateway is asked by order_id: a charge that
 * went through after all makes the order paid instead (settle.ts releaseUnpaid). Then settles the attempts of
 * orders already released whose outcome is unknown (a late charge is refunded), and finishes cancellations a
 * crash left half-done (claimed, their lease run out).
 */
export async function sweepOnce(ctx: OrderContext): Promise<{ released: number; paid: number }> {
  const expired = ctx.db
    .select({ number: orders.number })
    .from(orders)
    .where(and(eq(orders.status, 'pending_payment'), lt(orders.reservedUntil, sql`now()`)))
    .orderBy(asc(orders.reservedUntil))
    .limit(BATCH)
    .for('update', { skipLocked: true });
  const due = await ctx.db
    .update(orders)
    .set({ reservedUntil: sql`now() + interval '2 minutes'` })
    .where(inArray(orders.number, expired))
    .returning({ number: orders.number });
  let released = 0;
  let paid = 0;
  for (const { number } of due) {
    try {
      // Asked by this attempt's reference first (never released while a live request may be charging it).
      const result = await releaseUnpaid(ctx, number, 'El tiempo para completar el pago terminó', SWEEPER);
      if (result === 'paid') paid += 1;
      else if (result === 'released') released += 1;
    } catch (error) {
      // The gateway is down: keep the reservation; the lease ends and the next round tries again.
      if (!(error instanceof GatewayUnavailableError))
        ctx.log.error({ err: error, order: number }, 'barrido');
    }
  }

  // Orders released earlier whose attempt's outcome is still unknown (a late charge not yet refunded).
  await settleReleasedAttempts(ctx);
  // SPEI and store orders still awaiting payment: the gateway is asked in case a webhook is late or lost.
  paid += await reconcileAwaiting(ctx);
  await finishInterruptedCancellations(ctx, SWEEPER);
  await advanceRefunds(ctx, SWEEPER);
  return { released, paid };
}

/**
 * The cancellations whose holder died (their lease ran out) and the refunds owed still moving: a cheap indexed query,
 * run every 2 s by the jobs' registry (jobs.ts) so a crash mid-cancellation is finished within seconds.
 */
export async function sweepCancellations(ctx: OrderContext): Promise<void> {
  await finishInterruptedCancellations(ctx, SWEEPER);
  await advanceRefunds(ctx, SWEEPER);
}
