import { and, asc, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { type RefundStateName, refundSentence } from '../../shared/refund-routes.ts';
import type { Db, Tx } from '../db/client.ts';
import { heartbeat, leaseEnd } from '../db/lease.ts';
import { type LedgerActor, orderRefunds, orders, type RefundRoute, users } from '../db/schema.ts';
import { conflict } from '../http/errors.ts';
import { GatewayError, refundLanded } from '../payments/gateway.ts';
import type { OrderContext } from './context.ts';
import { balancesOf, recordMovement } from './ledger.ts';
import { lockOrder, type Order } from './lock.ts';
import { enqueueRefundStateMail } from './mail.ts';
import { completedPayment, updatePayment } from './payment-records.ts';

/**
 * Refunds as work (decision 045): each one an order_refunds row whose money is ledger rows carrying its id.
 * - card: asked of Openpay (partial or total, several allowed); in_progress while asked, done or failed by its
 *   answer. A timeout is settled by the charge's refunded amount at Openpay against the ledger's (refundOnce).
 * - payout: SPEI or cash money owed until staff pay it — by an Openpay payout to the buyer's CLABE (the payouts
 *   API, method bank_account) or by recording a transfer made from the bank with its reference (refunds-owed.ts).
 * A staff partial refund is partial-refund.ts.
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
