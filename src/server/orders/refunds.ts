import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { formatMoney } from '../../shared/money.ts';
import { type RefundStateName, refundSentence } from '../../shared/refund-routes.ts';
import { writeAudit } from '../audit/log.ts';
import type { Db, Tx } from '../db/client.ts';
import { heartbeat, leaseEnd } from '../db/lease.ts';
import { type LedgerActor, orderRefunds, orders, type RefundRoute, users } from '../db/schema.ts';
import { badGateway, conflict, notFound } from '../http/errors.ts';
import { GatewayError, type Payout, refundLanded } from '../payments/gateway.ts';
import type { OrderContext } from './context.ts';
import { balancesOf, ledgerActor, recordMovement } from './ledger.ts';
import { lockOrder, type Order } from './lock.ts';
import { enqueueRefundStateMail } from './mail.ts';
import { completedPayment, updatePayment } from './payment-records.ts';
import type { ShopperRequest, StaffRequest, SweeperRequest } from './requester.ts';
import { ORDER_NOT_FOUND } from './rules.ts';

/**
 * Refunds as work (decision 045): each one an order_refunds row whose money is ledger rows carrying its id.
 * - card: asked of Openpay (partial or total, several allowed); in_progress while asked, done or failed by its
 *   answer. A timeout is settled by the charge's refunded amount at Openpay against the ledger's (refundOnce).
 * - payout: SPEI or cash money owed until staff pay it — by an Openpay payout to the buyer's CLABE (the payouts
 *   API, method bank_account) or by recording a transfer made from the bank with its reference.
 * The money movement is written under the order's lock in the same transaction as the refund's state.
 */

export type RefundRow = typeof orderRefunds.$inferSelect;

export const REFUND_NOT_FOUND = 'Reembolso no encontrado';

/** The card refund of the order being asked of Openpay now, if any (one at a time per charge). */
export async function cardRefundInProgress(db: Db, number: number): Promise<RefundRow | undefined> {
  const [row] = await db
    .select()
    .from(orderRefunds)
    .where(
      and(
        eq(orderRefunds.orderNumber, number),
        eq(orderRefunds.route, 'card'),
        eq(orderRefunds.state, 'in_progress'),
      ),
    )
    .orderBy(desc(orderRefunds.id))
    .limit(1);
  return row;
}

/** What can still be given back: paid, less refunded, less what is already promised. */
export async function refundableOf(db: Db, number: number): Promise<number> {
  const b = await balancesOf(db, number);
  return b.paidCents - b.refundedCents - b.refundDueCents;
}

/** The route money paid this way goes back by: cards through Openpay's refund, the rest by transfer to a CLABE. */
export const routeOf = (method: string | null | undefined): RefundRoute =>
  method === 'spei' || method === 'cash' ? 'payout' : 'card';

/**
 * Opens a refund (in the caller's locked transaction): the order_refunds row and the ledger's 'refund_due'. A
 * card refund starts in_progress (the caller asks Openpay next); a payout starts owed.
 */
export async function openRefund(
  tx: Tx,
  order: Pick<Order, 'number'>,
  refund: {
    route: RefundRoute;
    amountCents: number;
    reason: string;
    actor: LedgerActor;
    clabe?: string | null;
    holderName?: string | null;
  },
): Promise<RefundRow> {
  const state: RefundStateName = refund.route === 'card' ? 'in_progress' : 'owed';
  if (refund.route === 'card') {
    // Openpay takes no idempotency key on refunds: one card refund at a time per charge, so that a lost answer is
    // settled by the charge's refunded amount against what the ledger held before it (refundOnce).
    const busy = await cardRefundInProgress(tx, order.number);
    if (busy)
      throw conflict(
        'Hay otro reembolso a tarjeta en proceso para este pedido; espere a que termine',
        'refund_in_progress',
      );
  }
  const [row] = await tx
    .insert(orderRefunds)
    .values({
      orderNumber: order.number,
      route: refund.route,
      amountCents: refund.amountCents,
      state,
      reason: refund.reason,
      actor: refund.actor,
      clabe: refund.clabe ?? null,
      holderName: refund.holderName ?? null,
      leaseUntil: state === 'in_progress' ? leaseEnd() : null,
    })
    .returning();
  await recordMovement(tx, order.number, refund.actor, {
    kind: 'refund_due',
    amountCents: refund.amountCents,
    method: refund.route,
    refundId: row!.id,
    reference: `due:${row!.id}`,
    reason: refund.reason,
  });
  return row!;
}

/**
 * Money left by a refund's route: the ledger's 'refund', the row done, the payment's refunded amount and the
 * order's payment state from the balance. In the caller's locked transaction; false when it was already done.
 */
export async function settleRefund(
  tx: Tx,
  refund: RefundRow,
  done: { route: RefundRoute; providerId: string | null; actor: LedgerActor },
): Promise<boolean> {
  const [current] = await tx.select().from(orderRefunds).where(eq(orderRefunds.id, refund.id)).for('update');
  if (!current || current.state === 'done') return false;
  await recordMovement(tx, refund.orderNumber, done.actor, {
    kind: 'refund',
    amountCents: refund.amountCents,
    method: done.route,
    refundId: refund.id,
    reference: `refund:${refund.id}`,
    detail: done.providerId ? { providerId: done.providerId } : null,
    reason: refund.reason,
  });
  await tx
    .update(orderRefunds)
    .set({
      state: 'done',
      route: done.route,
      providerId: done.providerId,
      leaseUntil: null,
      errorMessage: null,
      doneAt: sql`now()`,
    })
    .where(eq(orderRefunds.id, refund.id));
  const b = await balancesOf(tx, refund.orderNumber);
  const payment = await completedPayment(tx, refund.orderNumber);
  if (payment && done.route === 'card')
    await updatePayment(tx, payment.id, { refundedCents: b.refundedByRoute.card });
  await tx
    .update(orders)
    .set({
      paymentState: b.paidCents > 0 && b.refundedCents >= b.paidCents ? 'refunded' : 'partially_refunded',
      updatedAt: sql`now()`,
    })
    .where(and(eq(orders.number, refund.orderNumber), isNotNull(orders.paymentState)));
  return true;
}

/** A card refund Openpay refused: the promise is withdrawn (ledger 'refund_failed'), nothing left the shop. */
export async function failRefund(
  tx: Tx,
  refund: RefundRow,
  message: string,
  actor: LedgerActor,
): Promise<void> {
  await recordMovement(tx, refund.orderNumber, actor, {
    kind: 'refund_failed',
    amountCents: refund.amountCents,
    method: refund.route,
    refundId: refund.id,
    reference: `failed:${refund.id}`,
    reason: message,
  });
  await tx
    .update(orderRefunds)
    .set({ state: 'failed', leaseUntil: null, errorMessage: message })
    .where(eq(orderRefunds.id, refund.id));
}

export type RefundOutcome =
  | { kind: 'refunded'; providerId: string | null }
  | { kind: 'refused'; message: string }
  | { kind: 'unknown' };

/**
 * Asks Openpay for a card refund of exactly this amount, or confirms it already happened: a retry, a second
 * instance or a holder that was only stalled must neither fail nor refund twice. Openpay's charge keeps the
 * amount refunded in all; the ledger knows what was refunded before this refund, so the charge shows whether
 * this one went through.
 */
export async function refundOnce(
  ctx: OrderContext,
  chargeId: string,
  refund: Pick<RefundRow, 'id' | 'amountCents' | 'orderNumber'>,
  description: string,
): Promise<RefundOutcome> {
  const before = (await balancesOf(ctx.db, refund.orderNumber)).refundedByRoute.card;
  try {
    const charge = await ctx.gateway.refund(chargeId, { description, amountCents: refund.amountCents });
    return { kind: 'refunded', providerId: charge.lastRefund?.id ?? null };
  } catch (error) {
    ctx.log.warn(
      { err: error, order: refund.orderNumber },
      'el reembolso no respondió; se consulta el cargo',
    );
    try {
      const charge = await ctx.gateway.getCharge(chargeId);
      if (refundLanded(charge, { refundedBeforeCents: before, amountCents: refund.amountCents }))
        return { kind: 'refunded', providerId: charge.lastRefund?.id ?? null };
      if (error instanceof GatewayError)
        return { kind: 'refused', message: error.description ?? error.message };
      return { kind: 'unknown' };
    } catch {
      return { kind: 'unknown' };
    }
  }
}

/** While a holder asks the gateway about a refund, its lease is renewed. */
export const keepRefund = (db: Db, id: number) =>
  heartbeat(() =>
    db
      .update(orderRefunds)
      .set({ leaseUntil: leaseEnd() })
      .where(and(eq(orderRefunds.id, id), isNotNull(orderRefunds.leaseUntil))),
  );

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

/** Settles a card refund in progress from Openpay's answer (or its charge); the order stays as it is. */
export async function finishCardRefund(
  ctx: OrderContext,
  refund: RefundRow,
  actor: LedgerActor,
): Promise<RefundOutcome> {
  const payment = await completedPayment(ctx.db, refund.orderNumber);
  const outcome = payment?.chargeId
    ? await refundOnce(ctx, payment.chargeId, refund, `Reembolso parcial del pedido ${refund.orderNumber}`)
    : ({ kind: 'refused', message: 'El pedido no tiene un cargo con tarjeta' } as const);
  if (outcome.kind === 'unknown') return outcome;
  await ctx.db.transaction(async (tx) => {
    await lockOrder(tx, refund.orderNumber);
    if (outcome.kind === 'refunded')
      await settleRefund(tx, refund, { route: 'card', providerId: outcome.providerId, actor });
    else await failRefund(tx, refund, outcome.message, actor);
  });
  return outcome;
}

// ——— Staff partial refund ———

export type PartialRefundResult = { refund: RefundRow; outcome: 'refunded' | 'owed' };

/**
 * Staff give back part of a paid order (an amount, or the value of lines they chose, computed by the caller from
 * the order's own prices): by card through Openpay at once, or as money owed to a SPEI/cash buyer. The order
 * keeps its state; a credit note for the amount follows when the order is invoiced (the caller, in the same
 * action). Refused above what is left to refund, on an unpaid order, while a cancellation is in flight.
 */
export async function refundPart(
  ctx: OrderContext,
  number: number,
  who: StaffRequest,
  request: { amountCents: number; reason: string },
): Promise<PartialRefundResult> {
  const opened = await ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, number);
    if (!order) throw notFound(ORDER_NOT_FOUND);
    if (order.paidAt === null)
      throw conflict('El pedido no está pagado: no hay nada que reembolsar', 'not_paid');
    if (order.cancelledAt !== null && order.status !== 'cancelled')
      throw conflict('La cancelación del pedido está en proceso', 'cancelling');
    const left = await refundableOf(tx, number);
    if (request.amountCents > left)
      throw conflict(
        `El reembolso (${formatMoney(request.amountCents)}) supera lo que queda por reembolsar del pedido (${formatMoney(left)})`,
        'refund_too_large',
      );
    const payment = await completedPayment(tx, number);
    const refund = await openRefund(tx, order, {
      route: routeOf(payment?.method ?? order.paymentMethod),
      amountCents: request.amountCents,
      reason: request.reason,
      actor: ledgerActor(who),
    });
    await writeAudit(tx, who.actor, {
      action: 'refund.partial',
      entityType: 'order',
      entityId: number,
      before: null,
      after: {
        refundId: refund.id,
        route: refund.route,
        amountCents: refund.amountCents,
        reason: request.reason,
      },
    });
    if (refund.route !== 'card') await enqueueRefundMail(tx, order, refund, ctx.publicUrl);
    return refund;
  });
  if (opened.route !== 'card') {
    await ctx.taxPapers?.afterMoneyMoved(number);
    return { refund: opened, outcome: 'owed' };
  }
  const stop = keepRefund(ctx.db, opened.id);
  try {
    const outcome = await finishCardRefund(ctx, opened, ledgerActor(who));
    if (outcome.kind === 'unknown')
      throw badGateway(
        'refund_pending',
        'Openpay no respondió; el reembolso sigue en proceso y se confirmará automáticamente',
      );
    if (outcome.kind === 'refused')
      throw badGateway('refund_failed', `Openpay rechazó el reembolso: ${outcome.message}`);
    const [done] = await ctx.db.select().from(orderRefunds).where(eq(orderRefunds.id, opened.id));
    const order = await ctx.db.select().from(orders).where(eq(orders.number, number));
    await enqueueRefundMail(ctx.db, order[0]!, done!, ctx.publicUrl);
    await ctx.taxPapers?.afterMoneyMoved(number);
    return { refund: done!, outcome: 'refunded' };
  } finally {
    stop();
  }
}

// ——— Reading ———

export type RefundView = {
  id: number;
  route: RefundRoute;
  state: RefundStateName;
  amountCents: number;
  clabeLast4: string | null;
  holderName: string | null;
  reason: string;
  errorMessage: string | null;
  reference: string | null;
  createdAt: string;
  doneAt: string | null;
  sentence: string;
};

export const refundView = (r: RefundRow): RefundView => {
  const clabeLast4 = r.clabe ? r.clabe.slice(-4) : null;
  return {
    id: r.id,
    route: r.route,
    state: r.state,
    amountCents: r.amountCents,
    clabeLast4,
    holderName: r.holderName,
    reason: r.reason,
    errorMessage: r.errorMessage,
    reference: r.providerId,
    createdAt: r.createdAt.toISOString(),
    doneAt: r.doneAt ? r.doneAt.toISOString() : null,
    sentence: refundSentence({ route: r.route, state: r.state, amountCents: r.amountCents, clabeLast4 }),
  };
};

export async function refundsOf(db: Db, number: number): Promise<RefundView[]> {
  const rows = await db
    .select()
    .from(orderRefunds)
    .where(eq(orderRefunds.orderNumber, number))
    .orderBy(asc(orderRefunds.id));
  return rows.map(refundView);
}

/** The refunds of several orders at once (the shopper's history), each order's in the order they were opened. */
export async function refundsOfOrders(db: Db, numbers: number[]): Promise<Map<number, RefundView[]>> {
  const byOrder = new Map<number, RefundView[]>();
  if (numbers.length === 0) return byOrder;
  const rows = await db
    .select()
    .from(orderRefunds)
    .where(inArray(orderRefunds.orderNumber, numbers))
    .orderBy(asc(orderRefunds.id));
  for (const row of rows) {
    const list = byOrder.get(row.orderNumber) ?? [];
    list.push(refundView(row));
    byOrder.set(row.orderNumber, list);
  }
  return byOrder;
}

/** Staff's queue: refunds not yet paid, oldest first, with the buyer and the age. */
export async function openRefunds(db: Db) {
  const rows = await db
    .select({ refund: orderRefunds, email: users.email })
    .from(orderRefunds)
    .innerJoin(orders, eq(orders.number, orderRefunds.orderNumber))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(inArray(orderRefunds.state, ['owed', 'in_progress']))
    .orderBy(asc(orderRefunds.createdAt));
  return rows.map(({ refund, email }) => ({
    ...refundView(refund),
    orderNumber: refund.orderNumber,
    buyerEmail: email,
    ageHours: Math.floor((Date.now() - refund.createdAt.getTime()) / 3_600_000),
  }));
}

// ——— Mail ———

/** The buyer is told where their money goes (or went), by its real route. Once per refund and state. */
export const enqueueRefundMail = (
  tx: Db,
  order: Pick<Order, 'number' | 'userId'>,
  refund: RefundRow,
  publicUrl: string,
) =>
  enqueueRefundStateMail(
    tx,
    order,
    {
      ...refundView(refund),
      needsAccount: refund.route !== 'card' && refund.state === 'owed' && !refund.clabe,
    },
    publicUrl,
  );
