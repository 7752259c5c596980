import { randomBytes } from 'node:crypto';
import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { RefundStateName } from '../../shared/refund-routes.ts';
import { writeAudit } from '../audit/log.ts';
import type { Tx } from '../db/client.ts';
import { leaseEnd } from '../db/lease.ts';
import { type LedgerActor, orderRefunds, orders } from '../db/schema.ts';
import { badGateway, conflict, notFound } from '../http/errors.ts';
import { GatewayError, type Payout } from '../payments/gateway.ts';
import type { OrderContext } from './context.ts';
import { ledgerActor } from './ledger.ts';
import { lockOrder, type Order } from './lock.ts';
import {
  enqueueRefundMail,
  finishCardRefund,
  keepRefund,
  REFUND_NOT_FOUND,
  type RefundRow,
  settleRefund,
} from './refunds.ts';
import type { ShopperRequest, StaffRequest, SweeperRequest } from './requester.ts';
import { ORDER_NOT_FOUND } from './rules.ts';

/**
 * Money owed to SPEI and cash buyers (decision 045): the CLABE it is paid to, a transfer staff made from the bank, an
 * Openpay payout, and the sweeper that finishes payouts and card refunds a crash interrupted. The refund's core
 * (open, settle, fail, refundOnce) is refunds.ts.
 */

// ——— Money owed to SPEI and cash buyers ———

type AccountInput = { clabe: string; holderName: string };

/**
 * The buyer (their own order) or staff give the CLABE an owed refund is paid to. Every refund of the order still
 * owed takes it. 404 for another buyer's order; 409 when nothing is owed.
 */
export async function setRefundAccount(
  ctx: OrderContext,
  number: number,
  who: ShopperRequest | StaffRequest,
  account: AccountInput,
): Promise<RefundRow[]> {
  return ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, number);
    if (!order || (who.kind === 'shopper' && order.userId !== who.userId)) throw notFound(ORDER_NOT_FOUND);
    const owed = await tx
      .update(orderRefunds)
      .set({ clabe: account.clabe, holderName: account.holderName, errorMessage: null })
      .where(and(eq(orderRefunds.orderNumber, number), eq(orderRefunds.state, 'owed')))
      .returning();
    if (owed.length === 0) throw conflict('Este pedido no tiene reembolsos pendientes', 'nothing_owed');
    if (who.kind === 'staff') {
      await writeAudit(tx, who.actor, {
        action: 'refund.account',
        entityType: 'order',
        entityId: number,
        before: null,
        after: { clabeLast4: account.clabe.slice(-4), holderName: account.holderName },
      });
    }
    return owed;
  });
}

async function lockedRefund(tx: Tx, refundId: number): Promise<{ order: Order; refund: RefundRow }> {
  const [found] = await tx.select().from(orderRefunds).where(eq(orderRefunds.id, refundId));
  if (!found) throw notFound(REFUND_NOT_FOUND);
  const order = await lockOrder(tx, found.orderNumber);
  const [refund] = await tx.select().from(orderRefunds).where(eq(orderRefunds.id, refundId));
  return { order: order!, refund: refund! };
}

/**
 * Staff record a transfer made from the shop's bank for an owed refund (the bank's reference): the money left,
 * the buyer is told, the audit keeps who.
 */
export async function recordRefundTransfer(
  ctx: OrderContext,
  refundId: number,
  who: StaffRequest,
  transfer: { reference: string },
): Promise<RefundRow> {
  return ctx.db.transaction(async (tx) => {
    const { order, refund } = await lockedRefund(tx, refundId);
    if (refund.route === 'card')
      throw conflict(
        'Un reembolso a tarjeta lo hace Openpay; no se registra como transferencia',
        'card_refund',
      );
    if (refund.state !== 'owed')
      throw conflict(
        `El reembolso está «${refundStateLabel(refund.state)}»; no se puede registrar una transferencia`,
        'not_owed',
      );
    await settleRefund(tx, refund, {
      route: 'transfer',
      providerId: transfer.reference,
      actor: ledgerActor(who),
    });
    await writeAudit(tx, who.actor, {
      action: 'refund.transfer',
      entityType: 'order',
      entityId: order.number,
      before: { refundId, state: refund.state },
      after: { refundId, state: 'done', reference: transfer.reference, amountCents: refund.amountCents },
    });
    const [after] = await tx.select().from(orderRefunds).where(eq(orderRefunds.id, refundId));
    await enqueueRefundMail(tx, order, after!, ctx.publicUrl);
    return after!;
  });
}

const refundStateLabel = (state: RefundStateName) =>
  ({ owed: 'pendiente', in_progress: 'en proceso', done: 'pagado', failed: 'rechazado' })[state];

const payoutRef = (refund: Pick<RefundRow, 'orderNumber' | 'id'>) =>
  `${refund.orderNumber}-d${refund.id}-${randomBytes(4).toString('hex')}`;

/**
 * Staff pay an owed refund by an Openpay payout to the buyer's CLABE. The claim (state in_progress, our order_id
 * for the payout, a lease) is committed before the gateway is asked, so a crash between the request and its record
 * is finished by the sweeper: it finds the payout by that order_id (Openpay refuses a second payout with it) and
 * records it, or asks again with the same order_id.
 */
export async function payRefundByPayout(
  ctx: OrderContext,
  refundId: number,
  who: StaffRequest,
): Promise<RefundRow> {
  const claimed = await ctx.db.transaction(async (tx) => {
    const { order, refund } = await lockedRefund(tx, refundId);
    if (refund.route === 'card')
      throw conflict('Un reembolso a tarjeta no se paga por transferencia', 'card_refund');
    if (refund.state !== 'owed')
      throw conflict(
        `El reembolso está «${refundStateLabel(refund.state)}»; no se puede pagar de nuevo`,
        'not_owed',
      );
    if (!refund.clabe || !refund.holderName)
      throw conflict('Falta la cuenta CLABE del cliente: regístrela o pídasela antes de pagar', 'no_account');
    const [row] = await tx
      .update(orderRefunds)
      .set({
        state: 'in_progress',
        providerRef: payoutRef(refund),
        leaseUntil: leaseEnd(),
        errorMessage: null,
      })
      .where(eq(orderRefunds.id, refundId))
      .returning();
    await writeAudit(tx, who.actor, {
      action: 'refund.payout',
      entityType: 'order',
      entityId: order.number,
      before: { refundId, state: refund.state },
      after: {
        refundId,
        state: 'in_progress',
        amountCents: refund.amountCents,
        clabeLast4: refund.clabe.slice(-4),
      },
    });
    return row!;
  });
  const stop = keepRefund(ctx.db, refundId);
  try {
    return await askPayout(ctx, claimed, ledgerActor(who), 'create');
  } finally {
    stop();
  }
}

/** Asks Openpay for the payout (or finds it), then records what it answered. */
async function askPayout(
  ctx: OrderContext,
  refund: RefundRow,
  actor: LedgerActor,
  how: 'create' | 'recover',
): Promise<RefundRow> {
  let payout: Payout | null = null;
  try {
    if (how === 'recover') {
      payout = refund.providerId
        ? await ctx.gateway.getPayout(refund.providerId)
        : await ctx.gateway.findPayoutByOrderId(refund.providerRef!, refund.createdAt);
    }
    if (!payout && !refund.providerId) {
      payout = await ctx.gateway.createPayout({
        amountCents: refund.amountCents,
        clabe: refund.clabe!,
        holderName: refund.holderName!,
        description: `Reembolso del pedido ${refund.orderNumber}`,
        orderId: refund.providerRef!,
      });
    }
  } catch (error) {
    if (error instanceof GatewayError) {
      // Openpay refused the payout (an invalid account, the merchant's balance): still owed, staff see why.
      ctx.log.error({ err: error, refund: refund.id }, 'Openpay rechazó el pago del reembolso');
      return backToOwed(ctx, refund, error.description ?? error.message);
    }
    ctx.log.error({ err: error, refund: refund.id }, 'el pago del reembolso no respondió');
    throw badGateway(
      'payout_pending',
      'Openpay no respondió; el pago del reembolso sigue en proceso y se confirmará automáticamente',
    );
  }
  if (!payout) throw badGateway('payout_pending', 'El pago del reembolso sigue en proceso');
  return recordPayout(ctx, refund.id, payout, actor);
}

async function backToOwed(ctx: OrderContext, refund: RefundRow, message: string): Promise<RefundRow> {
  const [row] = await ctx.db
    .update(orderRefunds)
    .set({ state: 'owed', leaseUntil: null, providerId: null, errorMessage: message })
    .where(and(eq(orderRefunds.id, refund.id), eq(orderRefunds.state, 'in_progress')))
    .returning();
  return row ?? refund;
}

/** What Openpay says of a payout, recorded under the order's lock: completed → money left; failed → still owed. */
export async function recordPayout(
  ctx: OrderContext,
  refundId: number,
  payout: Payout,
  actor: LedgerActor,
): Promise<RefundRow> {
  return ctx.db.transaction(async (tx) => {
    const { order, refund } = await lockedRefund(tx, refundId);
    if (refund.state === 'done') return refund;
    if (payout.status === 'completed') {
      await settleRefund(tx, refund, { route: 'payout', providerId: payout.id, actor });
      const [after] = await tx.select().from(orderRefunds).where(eq(orderRefunds.id, refundId));
      await enqueueRefundMail(tx, order, after!, ctx.publicUrl);
      return after!;
    }
    const [after] = await tx
      .update(orderRefunds)
      .set(
        payout.status === 'failed' || payout.status === 'cancelled'
          ? {
              state: 'owed',
              providerId: null,
              leaseUntil: null,
              errorMessage: payout.errorMessage ?? 'Openpay rechazó el pago',
            }
          : { providerId: payout.id, leaseUntil: null },
      )
      .where(eq(orderRefunds.id, refundId))
      .returning();
    return after!;
  });
}

/**
 * The sweeper's part: payouts in progress whose holder died (lease run out) or that Openpay has not finished
 * are asked again; card refunds of partial refunds whose holder died are settled from the charge. One lease per
 * refund, so one instance at a time.
 */
export async function advanceRefunds(ctx: OrderContext, who: SweeperRequest, limit = 20): Promise<number> {
  const stuck = await ctx.db
    .select()
    .from(orderRefunds)
    .where(
      and(
        eq(orderRefunds.state, 'in_progress'),
        or(isNull(orderRefunds.leaseUntil), lt(orderRefunds.leaseUntil, sql`now()`)),
      ),
    )
    .orderBy(asc(orderRefunds.id))
    .limit(limit);
  let advanced = 0;
  for (const candidate of stuck) {
    const [taken] = await ctx.db
      .update(orderRefunds)
      .set({ leaseUntil: leaseEnd() })
      .where(
        and(
          eq(orderRefunds.id, candidate.id),
          eq(orderRefunds.state, 'in_progress'),
          or(isNull(orderRefunds.leaseUntil), lt(orderRefunds.leaseUntil, sql`now()`)),
        ),
      )
      .returning();
    if (!taken) continue;
    // A card refund of a cancellation belongs to the cancellation's own recovery (cancellation.ts).
    const [order] = await ctx.db.select().from(orders).where(eq(orders.number, taken.orderNumber));
    if (taken.route === 'card' && order?.cancelLeaseUntil) continue;
    const stop = keepRefund(ctx.db, taken.id);
    try {
      if (taken.route === 'card') await finishCardRefund(ctx, taken, ledgerActor(who));
      else await askPayout(ctx, taken, ledgerActor(who), 'recover');
      advanced += 1;
    } catch (error) {
      ctx.log.error({ err: error, refund: taken.id }, 'barrido de reembolsos');
    } finally {
      stop();
    }
  }
  return advanced;
}
