import { sql } from 'drizzle-orm';
import { GatewayUnavailableError } from '../payments/gateway.ts';
import { finishCancellation } from './service.ts';
import { applyCharge, type CheckoutContext, markFailed } from './settle.ts';
import { rows } from './sql.ts';

const BATCH = 20;

/**
 * Releases reservations left unpaid past reserved_until. Safe with several instances: each takes a
 * batch with FOR UPDATE SKIP LOCKED and leases it for two minutes by pushing reserved_until, so no
 * two instances work on one order. Before releasing, the gateway is asked by order_id: a charge that
 * went through after all makes the order paid instead. Also finishes cancellations a crash left
 * half-done (claimed, refund state unknown).
 */
export async function sweepOnce(ctx: CheckoutContext): Promise<{ released: number; paid: number }> {
  const due = await rows<{ number: number }>(
    ctx.db,
    sql`update orders set reserved_until = now() + interval '2 minutes'
      where number in (
        select number from orders
        where status = 'pending_payment' and reserved_until < now()
        order by reserved_until limit ${BATCH}
        for update skip locked)
      returning number`,
  );
  let released = 0;
  let paid = 0;
  for (const { number } of due) {
    try {
      const charge = await ctx.gateway.findChargeByOrderId(String(number));
      if (
        charge &&
        (charge.status === 'completed' || charge.status === 'failed' || charge.status === 'cancelled')
      ) {
        const outcome = await applyCharge(ctx, number, charge);
        if (outcome.kind === 'paid') paid += 1;
        else released += 1;
        continue;
      }
      // No charge, or a 3-D Secure authentication abandoned: the goods go back on the shelf. A
      // charge completing later is refunded (applyCharge on a released order).
      if (
        await markFailed(ctx, number, {
          chargeId: charge?.id ?? null,
          errorCode: null,
          message: 'El tiempo para completar el pago terminó',
        })
      ) {
        released += 1;
      }
    } catch (error) {
      // The gateway is down: keep the reservation; the lease ends and the next round tries again.
      if (!(error instanceof GatewayUnavailableError))
        ctx.log.error({ err: error, order: number }, 'barrido');
    }
  }

  const stuck = await rows<{ number: number; payment_id: number; charge_id: string; amount_cents: number }>(
    ctx.db,
    sql`select o.number, p.id as payment_id, p.charge_id, p.amount_cents
      from orders o join payments p on p.order_number = o.number and p.status = 'completed'
      where o.status = 'paid' and o.cancelled_at < now() - interval '5 minutes'
      limit ${BATCH}`,
  );
  for (const s of stuck) {
    try {
      const charge = await ctx.gateway.getCharge(s.charge_id);
      if (charge.status === 'refunded') {
        await finishCancellation(ctx, s.number, Number(s.amount_cents), s.payment_id);
      } else {
        await ctx.db.execute(
          sql`update orders set cancelled_at = null where number = ${s.number} and status = 'paid'`,
        );
      }
    } catch (error) {
      if (!(error instanceof GatewayUnavailableError))
        ctx.log.error({ err: error, order: s.number }, 'barrido');
    }
  }
  return { released, paid };
}

/** Runs sweepOnce every `intervalMs` until stopped; one round at a time. */
export function startSweeper(ctx: CheckoutContext, intervalMs = 60_000): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = sweepOnce(ctx)
      .catch((error: unknown) => ctx.log.error({ err: error }, 'barrido de reservaciones'))
      .finally(() => {
        running = null;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
