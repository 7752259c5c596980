import { and, eq, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import { writeAudit } from '../audit/log.ts';
import type { Tx } from '../db/client.ts';
import { heartbeat, leaseEnd } from '../db/lease.ts';
import { type LedgerActor, orderRefunds, orders, type RefundRoute } from '../db/schema.ts';
import { badGateway, conflict, notFound } from '../http/errors.ts';
import type { OrderContext } from './context.ts';
import { auditSnapshot } from './fulfilment.ts';
import { invoiceInProgress } from './invoice-state.ts';
import { balancesOf, ledgerActor } from './ledger.ts';
import { lockOrder, type Order } from './lock.ts';
import { enqueueOrderCancelledMail } from './mail.ts';
import { completedPayment, updatePayment } from './payment-records.ts';
import {
  cardRefundInProgress,
  failRefund,
  openRefund,
  type RefundRow,
  refundableOf,
  refundOnce,
  refundView,
  routeOf,
  settleRefund,
} from './refunds.ts';
import type { ShopperRequest, StaffRequest, SweeperRequest } from './requester.ts';
import { alreadyCancelledBy, CANCELLABLE, cancelPolicy, ORDER_NOT_FOUND } from './rules.ts';
import { returnStock } from './stock.ts';
import { applyTransition } from './transitions.ts';

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
 * A crash anywhere after 1 leaves a claimed order whose lease is no longer renewed: seconds later (leaseDurations.seconds,
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

export type CancelResult = {
  number: number;
  /** Given back to the card now. */
  refundedCents: number;
  /** Owed to a SPEI or cash buyer, to be paid to their CLABE. */
  owedCents: number;
  route: RefundRoute | null;
};

export const CREDIT_CANCEL_UNAVAILABLE =
  'Un pedido a crédito no se cancela desde aquí todavía: el área de cobranza ajusta el saldo de la institución (nota de crédito o cancelación de la factura).';

export async function cancelOrder(
  ctx: OrderContext,
  number: number,
  who: CancelRequester,
): Promise<CancelResult> {
  const policy = cancelPolicy(who);
  const claim = await ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, number);
    if (!order || (policy.ownerId !== null && order.userId !== policy.ownerId))
      throw notFound(ORDER_NOT_FOUND);
    if (alreadyCancelledBy(order, policy.request)) return { kind: 'repeated' as const };
    // A sale on credit (decision 060) is undone by releasing the institution's debt and, once invoiced, by a CFDI
    // that follows it — not a refund. Not built yet: refused before anything is written.
    if (order.paymentMethod === 'credit')
      throw conflict(CREDIT_CANCEL_UNAVAILABLE, 'credit_cancel_unavailable');
    const refusal = policy.check(order, await invoiceInProgress(tx, number));
    if (refusal) throw refusal;
    const payment = await completedPayment(tx, number);
    const amountCents = await refundableOf(tx, number);
    const route = routeOf(payment?.method ?? order.paymentMethod);
    const actor = ledgerActor(who);
    const refund =
      amountCents > 0
        ? await openRefund(tx, order, { route, amountCents, reason: policy.request.reason, actor })
        : null;
    if (route !== 'card' || !refund) {
      // SPEI or cash: Openpay cannot refund it. The order is cancelled now and the money is owed until staff
      // pay it to the buyer's CLABE (refunds.ts); nothing to ask the gateway, so nothing to claim.
      await tx
        .update(orders)
        .set({ cancelledAt: sql`now()`, cancelRequest: policy.request })
        .where(eq(orders.number, number));
      await finishLocked(
        ctx,
        tx,
        { ...order, cancelledAt: new Date(), cancelRequest: policy.request },
        who,
        refund,
      );
      return { kind: 'owed' as const, owedCents: refund?.amountCents ?? 0 };
    }
    await tx
      .update(orders)
      .set({
        cancelledAt: sql`now()`,
        cancelRequest: policy.request,
        cancelLeaseUntil: leaseEnd(),
        updatedAt: sql`now()`,
      })
      .where(eq(orders.number, number));
    return { kind: 'card' as const, refund, chargeId: payment?.chargeId ?? null };
  });
  if (claim.kind === 'repeated') return { number, ...(await repeatedResult(ctx, number)) };
  if (claim.kind === 'owed') {
    await ctx.taxPapers?.afterMoneyMoved(number);
    return { number, refundedCents: 0, owedCents: claim.owedCents, route: 'payout' };
  }

  const stop = keepClaim(ctx, number);
  try {
    const outcome = claim.chargeId
      ? await refundOnce(ctx, claim.chargeId, claim.refund, `Cancelación del pedido ${number}`)
      : ({ kind: 'refused', message: 'El pedido no tiene un cargo con tarjeta' } as const);
    if (outcome.kind === 'refunded') {
      await finishCancellation(ctx, number, who, outcome.providerId);
      await ctx.taxPapers?.afterMoneyMoved(number);
      return { number, refundedCents: claim.refund.amountCents, owedCents: 0, route: 'card' };
    }
    // Refused: nothing happened at the bank; the order is as before. Unknown: the claim stays, its lease runs
    // out, and the sweeper asks the gateway again and finishes it.
    ctx.log.error({ order: number, by: who.kind, refund: outcome.kind }, 'no se pudo reembolsar el pedido');
    if (outcome.kind === 'unknown') throw badGateway('refund_pending', policy.refundPendingMessage);
    await releaseClaim(ctx, number, claim.refund, outcome.message, ledgerActor(who));
    throw badGateway('refund_failed', policy.refundFailedMessage);
  } finally {
    stop();
  }
}

/** What a repeated request answers: the order's refunds as they stand. */
async function repeatedResult(ctx: OrderContext, number: number) {
  const rows = await ctx.db.select().from(orderRefunds).where(eq(orderRefunds.orderNumber, number));
  const card = rows
    .filter((r) => r.route === 'card' && r.state === 'done')
    .reduce((t, r) => t + r.amountCents, 0);
  const owed = rows
    .filter((r) => r.route !== 'card' && r.state !== 'done')
    .reduce((t, r) => t + r.amountCents, 0);
  return { refundedCents: card, owedCents: owed, route: (rows.at(-1)?.route ?? null) as RefundRoute | null };
}

/** The refund did not happen: the order is as it was before the claim, the ledger's promise withdrawn. */
async function releaseClaim(
  ctx: OrderContext,
  number: number,
  refund: RefundRow,
  message: string,
  actor: LedgerActor,
) {
  await ctx.db.transaction(async (tx) => {
    await lockOrder(tx, number);
    await failRefund(tx, refund, message, actor);
    await tx
      .update(orders)
      .set({ cancelledAt: null, cancelRequest: null, cancelLeaseUntil: null })
      .where(and(eq(orders.number, number), inArray(orders.status, CANCELLABLE)));
  });
}

/**
 * claimed → cancelled, once, with what the claim stored (reason; staff actor for the audit row). Run by the
 * request that claimed it, or by the sweeper after a crash; whichever comes second finds it done.
 */
async function finishCancellation(
  ctx: OrderContext,
  number: number,
  who: CancelRequester | SweeperRequest,
  providerId: string | null,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const before = await lockOrder(tx, number);
    if (!before?.cancelledAt || !CANCELLABLE.includes(before.status)) return;
    const refund = await cardRefundInProgress(tx, number);
    if (refund) await settleRefund(tx, refund, { route: 'card', providerId, actor: ledgerActor(who) });
    const [settled] = refund
      ? await tx.select().from(orderRefunds).where(eq(orderRefunds.id, refund.id))
      : [];
    await finishLocked(ctx, tx, before, who, settled ?? null);
  });
}

/**
 * The cancellation's end, under the order's lock: the transition, stock back, the payment row, the buyer's mail
 * naming the money's route, the audit row for staff.
 */
async function finishLocked(
  ctx: OrderContext,
  tx: Tx,
  before: Order,
  who: CancelRequester | SweeperRequest,
  refund: RefundRow | null,
): Promise<void> {
  const request = before.cancelRequest ?? cancelPolicy({ kind: 'shopper', userId: before.userId }).request;
  const after = await applyTransition(tx, before, 'cancel', who, {
    cancelReason: request.reason,
    cancelLeaseUntil: null,
  });
  await returnStock(tx, before.number, 'order_cancel');
  const payment = await completedPayment(tx, before.number);
  const b = await balancesOf(tx, before.number);
  if (payment && refund?.route === 'card' && b.refundedCents >= b.paidCents)
    await updatePayment(tx, payment.id, { status: 'refunded', refundedCents: b.refundedByRoute.card });
  const view = refund ? refundView(refund) : null;
  await enqueueOrderCancelledMail(
    tx,
    before,
    view && refund
      ? {
          sentence: view.sentence,
          route: refund.route,
          needsAccount: refund.route !== 'card' && !refund.clabe,
        }
      : null,
    ctx.publicUrl,
  );
  if (request.actor) {
    await writeAudit(tx, request.actor, {
      action: 'order.cancel',
      entityType: 'order',
      entityId: before.number,
      before: auditSnapshot(before),
      after: {
        ...auditSnapshot(after),
        reason: request.reason,
        refundedCents: refund?.route === 'card' ? refund.amountCents : 0,
        owedCents: refund && refund.route !== 'card' ? refund.amountCents : 0,
        ...(who.kind === 'sweeper' ? { finishedBy: 'sweeper' } : {}),
      },
    });
  }
}

/**
 * The card refund a claimed cancellation is asking for. A claim always opens it in the same transaction; one
 * made by an earlier version of the shop (a crash across an upgrade) has none, and gets it now, for what is
 * left to refund.
 */
async function claimedRefund(
  ctx: OrderContext,
  number: number,
  who: SweeperRequest,
): Promise<RefundRow | null> {
  return ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, number);
    if (!order?.cancelledAt || !CANCELLABLE.includes(order.status)) return null;
    const open = await cardRefundInProgress(tx, number);
    if (open) return open;
    const amountCents = await refundableOf(tx, number);
    if (amountCents <= 0) return null;
    const reason =
      order.cancelRequest?.reason ?? cancelPolicy({ kind: 'shopper', userId: order.userId }).request.reason;
    return openRefund(tx, order, { route: 'card', amountCents, reason, actor: ledgerActor(who) });
  });
}

/**
 * The sweeper's part: claimed cancellations whose lease ran out (the holder died or has been stalled for
 * leaseDurations.seconds). The sweeper takes the claim over with a lease of its own (one instance at a time), rolls it
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
      const payment = await completedPayment(ctx.db, number);
      const refund = await claimedRefund(ctx, number, who);
      const outcome =
        payment?.chargeId && refund
          ? await refundOnce(ctx, payment.chargeId, refund, `Cancelación del pedido ${number}`)
          : ({ kind: 'refused', message: 'El pedido no tiene un reembolso a tarjeta en proceso' } as const);
      if (outcome.kind === 'refunded') {
        await finishCancellation(ctx, number, who, outcome.providerId);
        await ctx.taxPapers?.afterMoneyMoved(number);
        finished += 1;
      } else if (outcome.kind === 'refused') {
        if (refund) await releaseClaim(ctx, number, refund, outcome.message, ledgerActor(who));
        else
          await ctx.db
            .update(orders)
            .set({ cancelledAt: null, cancelRequest: null, cancelLeaseUntil: null })
            .where(and(eq(orders.number, number), inArray(orders.status, CANCELLABLE)));
      }
    } catch (error) {
      ctx.log.error({ err: error, order: number }, 'barrido de cancelaciones');
    } finally {
      stop();
    }
  }
  return finished;
}
