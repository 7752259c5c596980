import { and, eq, inArray, isNotNull, lt, sql, sum } from 'drizzle-orm';
import { writeAudit } from '../audit/log.ts';
import { heartbeat, leaseEnd } from '../db/lease.ts';
import { orders, payments } from '../db/schema.ts';
import { badGateway, notFound } from '../http/errors.ts';
import { GatewayError } from '../payments/gateway.ts';
import type { OrderContext } from './context.ts';
import { auditSnapshot } from './fulfilment.ts';
import { hasActiveInvoice } from './invoice-state.ts';
import { lockOrder } from './lock.ts';
import { enqueueOrderCancelledMail } from './mail.ts';
import { completedPayment, updatePayment } from './payment-records.ts';
import type { ShopperRequest, StaffRequest, SweeperRequest } from './requester.ts';
import { alreadyCancelledBy, CANCELLABLE, cancelPolicy, ORDER_NOT_FOUND } from './rules.ts';
import { returnStock } from './stock.ts';

/**
 * Cancellation with a full refund (SPEC-NOTES 8), one implementation for the shopper and for staff:
 *
 * 1. claim, under the order's row lock: the rule is checked (ownership, status, tracking guide, no valid or
 *    pending invoice, not already claimed) and the claim written — cancelledAt, who asked and why, and a lease
 *    the request renews while it works — so two clicks, or a shopper and a staff member, refund once. From the
 *    claim's commit the order reads 'Cancelación en proceso' and cannot be invoiced (rules.ts, invoiceBlock);
 * 2. refund through the gateway, outside any transaction: refunded (or the gateway confirms it already was) →
 *    3; refused by the gateway → the claim is released, nothing changed; no answer → the claim stays for the
 *    sweeper, which asks again;
 * 3. finish, in one transaction: status, stock back ('order_cancel' ledger rows), payment marked refunded,
 *    the shopper's mail and, for staff, the audit row.
 *
 * A crash anywhere after 1 leaves a claimed order whose lease is no longer renewed: seconds later (LEASE_SECONDS
 * and the sweeper's beat) the sweeper takes the claim over and rolls it forward — refunds once (or confirms the
 * refund) and finishes with the stored reason and actor — or releases it if the gateway refuses the refund.
 */

export type CancelRequester = ShopperRequest | (StaffRequest & { reason: string });

const BATCH = 20;

/** While the holder works on a claimed cancellation, its lease is renewed (none once it is finished or released). */
const keepClaim = (ctx: OrderContext, number: number) =>
  heartbeat(() =>
    ctx.db
      .update(orders)
      .set({ cancelLeaseUntil: leaseEnd() })
      .where(and(eq(orders.number, number), isNotNull(orders.cancelLeaseUntil))),
  );

export async function cancelOrder(
  ctx: OrderContext,
  number: number,
  who: CancelRequester,
): Promise<{ number: number; refundedCents: number }> {
  const policy = cancelPolicy(who);
  const repeated = await ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, number);
    if (!order || (policy.ownerId !== null && order.userId !== policy.ownerId))
      throw notFound(ORDER_NOT_FOUND);
    if (alreadyCancelledBy(order, policy.request)) return true;
    const refusal = policy.check(order, await hasActiveInvoice(tx, number));
    if (refusal) throw refusal;
    await tx
      .update(orders)
      .set({
        cancelledAt: sql`now()`,
        cancelRequest: policy.request,
        cancelLeaseUntil: leaseEnd(),
        updatedAt: sql`now()`,
      })
      .where(eq(orders.number, number));
    return false;
  });
  if (repeated) return { number, refundedCents: await refundedOf(ctx, number) };

  const stop = keepClaim(ctx, number);
  try {
    const payment = await completedPayment(ctx.db, number);
    const refund = payment?.chargeId ? await refundOnce(ctx, payment.chargeId, number) : 'refused';
    if (refund === 'refunded') {
      await finishCancellation(ctx, number, who);
      return { number, refundedCents: payment!.amountCents };
    }
    // Refused: nothing happened at the bank; the order is as before. Unknown: the claim stays, its lease runs
    // out, and the sweeper asks the gateway again and finishes it.
    ctx.log.error({ order: number, by: who.kind, refund }, 'no se pudo reembolsar el pedido');
    if (refund === 'unknown') throw badGateway('refund_pending', policy.refundPendingMessage);
    await releaseClaim(ctx, number);
    throw badGateway('refund_failed', policy.refundFailedMessage);
  } finally {
    stop();
  }
}

/** What the refund of a cancelled order gave back (a repeated request answers with it). */
async function refundedOf(ctx: OrderContext, number: number): Promise<number> {
  const [row] = await ctx.db
    .select({ refunded: sum(payments.refundedCents).mapWith(Number) })
    .from(payments)
    .where(eq(payments.orderNumber, number));
  return row?.refunded ?? 0;
}

/**
 * Refund, or confirm it already happened (a retry, a second instance, or a holder that was only stalled must not
 * fail nor refund twice): 'refunded', 'refused' (the gateway said no and the charge is not refunded) or 'unknown'.
 */
async function refundOnce(
  ctx: OrderContext,
  chargeId: string,
  number: number,
): Promise<'refunded' | 'refused' | 'unknown'> {
  try {
    await ctx.gateway.refund(chargeId, { description: `Cancelación del pedido ${number}` });
    return 'refunded';
  } catch (error) {
    ctx.log.warn({ err: error, order: number }, 'el reembolso no respondió; se consulta el cargo');
    try {
      const charge = await ctx.gateway.getCharge(chargeId);
      if (charge.status === 'refunded') return 'refunded';
      return error instanceof GatewayError ? 'refused' : 'unknown';
    } catch {
      return 'unknown';
    }
  }
}

/** The refund did not happen: the order is as it was before the claim. */
async function releaseClaim(ctx: OrderContext, number: number) {
  await ctx.db
    .update(orders)
    .set({ cancelledAt: null, cancelRequest: null, cancelLeaseUntil: null })
    .where(and(eq(orders.number, number), inArray(orders.status, CANCELLABLE)));
}

/**
 * claimed → cancelled, once, with what the claim stored (reason; staff actor for the audit row). Run by the
 * request that claimed it, or by the sweeper after a crash; whichever comes second finds it done.
 */
async function finishCancellation(
  ctx: OrderContext,
  number: number,
  who: CancelRequester | SweeperRequest,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const before = await lockOrder(tx, number);
    if (!before?.cancelledAt || !CANCELLABLE.includes(before.status)) return;
    const request = before.cancelRequest ?? cancelPolicy({ kind: 'shopper', userId: before.userId }).request;
    const [after] = await tx
      .update(orders)
      .set({
        status: 'cancelled',
        cancelReason: request.reason,
        cancelLeaseUntil: null,
        paymentState: 'refunded',
        updatedAt: sql`now()`,
      })
      .where(eq(orders.number, number))
      .returning();
    await returnStock(tx, number, 'order_cancel');
    const payment = await completedPayment(tx, number);
    const refundedCents = payment?.amountCents ?? 0;
    if (payment) await updatePayment(tx, payment.id, { status: 'refunded', refundedCents });
    await enqueueOrderCancelledMail(tx, before, refundedCents, ctx.publicUrl);
    if (request.actor) {
      await writeAudit(tx, request.actor, {
        action: 'order.cancel',
        entityType: 'order',
        entityId: number,
        before: auditSnapshot(before),
        after: {
          ...auditSnapshot(after!),
          reason: request.reason,
          refundedCents,
          ...(who.kind === 'sweeper' ? { finishedBy: 'sweeper' } : {}),
        },
      });
    }
  });
}

/**
 * The sweeper's part: claimed cancellations whose lease ran out (the holder died or has been stalled for
 * LEASE_SECONDS). The sweeper takes the claim over with a lease of its own (one instance at a time), rolls it
 * forward — refund once or confirm it, then finish with the stored reason and actor — or releases it when the
 * gateway refuses the refund. The gateway down: the claim stays and the next round asks again.
 */
export async function finishInterruptedCancellations(
  ctx: OrderContext,
  who: SweeperRequest,
): Promise<number> {
  const stuck = await ctx.db
    .select({ number: orders.number })
    .from(orders)
    .where(
      and(
        isNotNull(orders.cancelLeaseUntil),
        lt(orders.cancelLeaseUntil, sql`now()`),
        inArray(orders.status, CANCELLABLE),
      ),
    )
    .limit(BATCH);
  let finished = 0;
  for (const { number } of stuck) {
    const [taken] = await ctx.db
      .update(orders)
      .set({ cancelLeaseUntil: leaseEnd() })
      .where(
        and(
          eq(orders.number, number),
          inArray(orders.status, CANCELLABLE),
          isNotNull(orders.cancelledAt),
          lt(orders.cancelLeaseUntil, sql`now()`),
        ),
      )
      .returning({ number: orders.number });
    if (!taken) continue;
    const stop = keepClaim(ctx, number);
    try {
      const [payment] = await ctx.db
        .select({ chargeId: payments.chargeId })
        .from(payments)
        .where(and(eq(payments.orderNumber, number), eq(payments.status, 'completed')))
        .limit(1);
      const refund = payment?.chargeId ? await refundOnce(ctx, payment.chargeId, number) : 'refused';
      if (refund === 'refunded') {
        await finishCancellation(ctx, number, who);
        finished += 1;
      } else if (refund === 'refused') {
        await releaseClaim(ctx, number);
      }
    } catch (error) {
      ctx.log.error({ err: error, order: number }, 'barrido de cancelaciones');
    } finally {
      stop();
    }
  }
  return finished;
}
