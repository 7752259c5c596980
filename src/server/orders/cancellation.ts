import { and, eq, inArray, isNotNull, lt, sql, sum } from 'drizzle-orm';
import { writeAudit } from '../audit/log.ts';
import { orders, payments } from '../db/schema.ts';
import { badGateway, notFound } from '../http/errors.ts';
import { GatewayError, GatewayUnavailableError } from '../payments/gateway.ts';
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
 *    pending invoice, not already claimed) and the claim written — cancelledAt and who asked and why — so two
 *    clicks, or a shopper and a staff member, refund once;
 * 2. refund through the gateway, outside any transaction (a failure releases the claim: nothing changed);
 * 3. finish, in one transaction: status, stock back ('order_cancel' ledger rows), payment marked refunded,
 *    the shopper's mail and, for staff, the audit row.
 *
 * A crash between 2 and 3 leaves a claimed order: the sweeper asks the gateway and finishes it with the stored
 * reason and actor, or releases the claim when the refund did not happen.
 */

export type CancelRequester = ShopperRequest | (StaffRequest & { reason: string });

/** A claim older than this belongs to a request that died (the refund takes seconds). */
const CLAIM_TIMEOUT = sql`interval '5 minutes'`;
const BATCH = 20;

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
      .set({ cancelledAt: sql`now()`, cancelRequest: policy.request, updatedAt: sql`now()` })
      .where(eq(orders.number, number));
    return false;
  });
  if (repeated) return { number, refundedCents: await refundedOf(ctx, number) };

  const payment = await completedPayment(ctx.db, number);
  try {
    if (!payment?.chargeId) throw new GatewayError('request', null, 'sin cargo completado', 404, null);
    await refundOnce(ctx, payment.chargeId, number);
  } catch (error) {
    await releaseClaim(ctx, number);
    ctx.log.error({ err: error, order: number, by: who.kind }, 'no se pudo reembolsar el pedido');
    throw badGateway('refund_failed', policy.refundFailedMessage);
  }
  await finishCancellation(ctx, number, who);
  return { number, refundedCents: payment.amountCents };
}

/** What the refund of a cancelled order gave back (a repeated request answers with it). */
async function refundedOf(ctx: OrderContext, number: number): Promise<number> {
  const [row] = await ctx.db
    .select({ refunded: sum(payments.refundedCents).mapWith(Number) })
    .from(payments)
    .where(eq(payments.orderNumber, number));
  return row?.refunded ?? 0;
}

/** Refund, or confirm it already happened (a retry after a timeout must not fail nor refund twice). */
async function refundOnce(ctx: OrderContext, chargeId: string, number: number) {
  try {
    await ctx.gateway.refund(chargeId, { description: `Cancelación del pedido ${number}` });
  } catch (error) {
    if (!(error instanceof GatewayError || error instanceof GatewayUnavailableError)) throw error;
    const charge = await ctx.gateway.getCharge(chargeId);
    if (charge.status !== 'refunded') throw error;
  }
}

/** The refund did not happen: the order is as it was before the claim. */
async function releaseClaim(ctx: OrderContext, number: number) {
  await ctx.db
    .update(orders)
    .set({ cancelledAt: null, cancelRequest: null })
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
      .set({ status: 'cancelled', cancelReason: request.reason, updatedAt: sql`now()` })
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
 * The sweeper's part: cancellations claimed more than five minutes ago (the request died between the refund
 * and the commit). The gateway says whether the refund happened: finish it, or release the claim.
 */
export async function finishInterruptedCancellations(
  ctx: OrderContext,
  who: SweeperRequest,
): Promise<number> {
  const stuck = await ctx.db
    .select({ number: orders.number, chargeId: payments.chargeId })
    .from(orders)
    .innerJoin(payments, and(eq(payments.orderNumber, orders.number), eq(payments.status, 'completed')))
    .where(
      and(
        inArray(orders.status, CANCELLABLE),
        isNotNull(orders.cancelledAt),
        lt(orders.cancelledAt, sql`now() - ${CLAIM_TIMEOUT}`),
        isNotNull(payments.chargeId),
      ),
    )
    .limit(BATCH);
  let finished = 0;
  for (const { number, chargeId } of stuck) {
    try {
      const charge = await ctx.gateway.getCharge(chargeId!);
      if (charge.status === 'refunded') {
        await finishCancellation(ctx, number, who);
        finished += 1;
      } else {
        await releaseClaim(ctx, number);
      }
    } catch (error) {
      if (!(error instanceof GatewayUnavailableError))
        ctx.log.error({ err: error, order: number }, 'barrido');
    }
  }
  return finished;
}
