import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { isDelayed } from '../../shared/payment-methods.ts';
import { orders, payments } from '../db/schema.ts';
import { DEFAULT_HOLD, type OrderContext, orderContext } from '../orders/context.ts';
import { EXPIRED_REASON, expireAwaitingPayment, recordLatePayment } from '../orders/delayed-payment.ts';
import { ledgerActor, recordMovement } from '../orders/ledger.ts';
import { lockOrder } from '../orders/lock.ts';
import { markPaid, markPaymentError, markPaymentFailed, shortenHold } from '../orders/payment.ts';
import { raisePaymentAlert, recordChargeChange } from '../orders/payment-events.ts';
import {
  latestPayment,
  orderOfCharge,
  type PaymentRecord,
  updatePayment,
} from '../orders/payment-records.ts';
import {
  GATEWAY,
  type GatewayRequest,
  type ShopperRequest,
  SWEEPER,
  type SweeperRequest,
} from '../orders/requester.ts';
import type { ChargeReports } from '../payments/charge-reports.ts';
import {
  type Charge,
  chargeMatches,
  declineMessage,
  errorKind,
  GatewayUnavailableError,
  PAYMENT_ERROR_MESSAGE,
} from '../payments/gateway.ts';
import { keyInFlight } from './idempotency.ts';

/** Where an order stands after talking to the gateway. */
export type Outcome =
  | { kind: 'paid'; number: number }
  | { kind: 'awaiting'; number: number }
  | { kind: 'redirect'; number: number; redirectUrl: string }
  | { kind: 'failed'; number: number; message: string; errorCode: number | null }
  | { kind: 'error'; number: number; message: string }
  | { kind: 'unknown'; number: number };

async function currentStatus(ctx: OrderContext, number: number): Promise<string | undefined> {
  const [row] = await ctx.db.select({ status: orders.status }).from(orders).where(eq(orders.number, number));
  return row?.status;
}

/** What a failed order answers when asked again (its stored decline message). */
export async function storedFailure(ctx: OrderContext, number: number): Promise<Outcome> {
  const payment = await latestPayment(ctx.db, number);
  const code = payment?.errorCode ? Number(payment.errorCode) : null;
  return { kind: 'failed', number, errorCode: code, message: payment?.errorMessage ?? 'Tarjeta declinada' };
}

/** What an order released by our own error answers when asked again. */
export function storedError(_ctx: OrderContext, number: number): Outcome {
  return { kind: 'error', number, message: PAYMENT_ERROR_MESSAGE };
}

/** A payment problem staff must see on the back office's order (and in the log, as an error). */
export async function alertStaff(
  ctx: OrderContext,
  number: number,
  detail: { chargeId: string | null; errorCode: number | null; description: string },
): Promise<void> {
  await ctx.db.transaction((tx) =>
    raisePaymentAlert(tx, {
      orderNumber: number,
      kind: 'payment_error',
      message: detail.description,
      chargeId: detail.chargeId,
      dedupeKey: `error:${number}:${detail.chargeId ?? detail.errorCode ?? '-'}`,
    }),
  );
}

/** The attempt a charge belongs to: by its id, else by our reference, else the latest attempt. */
async function attemptOf(
  ctx: OrderContext,
  number: number,
  charge: Charge,
): Promise<{ attempt: PaymentRecord | undefined; latest: boolean }> {
  const latest = await latestPayment(ctx.db, number);
  const [mine] = await ctx.db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.orderNumber, number),
        charge.orderId
          ? or(eq(payments.chargeId, charge.id), eq(payments.orderRef, charge.orderId))
          : eq(payments.chargeId, charge.id),
      ),
    )
    .orderBy(desc(payments.id))
    .limit(1);
  const attempt = mine ?? latest;
  return { attempt, latest: attempt?.id === latest?.id };
}

/**
 * Brings an order in line with its charge as the gateway reports it (charge answer, 3-D Secure
 * return, webhook, sweeper). Idempotent: a second call with the same charge changes nothing. A charge counts
 * only if it is ours (our reference, the attempt's amount and currency); a paid order's later changes
 * (refund, chargeback, rescoring, cancellation) go to orders/payment-events.
 */
export async function applyCharge(
  ctx: OrderContext,
  number: number,
  charge: Charge,
  who: GatewayRequest | SweeperRequest,
): Promise<Outcome> {
  const { attempt, latest } = await attemptOf(ctx, number, charge);
  const [meta] = await ctx.db
    .select({ paymentMethod: orders.paymentMethod })
    .from(orders)
    .where(eq(orders.number, number));
  if (isDelayed(meta?.paymentMethod)) return applyDelayedCharge(ctx, number, charge, attempt, who);
  // An earlier attempt's failure (the anti-fraud decline before the 3-D Secure attempt) decides nothing.
  if (!latest && (charge.status === 'failed' || charge.status === 'cancelled')) {
    const status = await currentStatus(ctx, number);
    return status === 'pending_payment' ? { kind: 'unknown', number } : { kind: 'paid', number };
  }
  if (attempt && !chargeMatches(charge, { orderRef: attempt.orderRef, amountCents: attempt.amountCents })) {
    const description = `El cargo ${charge.id} (${(charge.amountCents / 100).toFixed(2)} ${charge.currency}, referencia ${charge.orderId ?? '-'}) no corresponde al pedido ${number}; no cuenta como pago`;
    ctx.log.error({ order: number, charge: charge.id }, description);
    await alertStaff(ctx, number, { chargeId: charge.id, errorCode: null, description });
    if (await markPaymentError(ctx, number, { chargeId: null, errorCode: null, message: description }, who)) {
      return storedError(ctx, number);
    }
    const status = await currentStatus(ctx, number);
    return status === 'pending_payment' ? { kind: 'unknown', number } : { kind: 'paid', number };
  }
  const [order] = await ctx.db
    .select({ paymentState: orders.paymentState })
    .from(orders)
    .where(eq(orders.number, number));
  if (order?.paymentState) {
    await recordChargeChange(ctx, number, charge, who);
    return { kind: 'paid', number };
  }
  switch (charge.status) {
    case 'completed': {
      if (await markPaid(ctx, number, charge, who)) return { kind: 'paid', number };
      const status = await currentStatus(ctx, number);
      if (status === 'payment_failed' || status === 'cancelled') {
        // The reservation was released (expired, a new attempt, our error) but the bank took the money after
        // all: give it back.
        await refundReleased(ctx, number, attempt, charge);
        return status === 'cancelled' ? storedError(ctx, number) : storedFailure(ctx, number);
      }
      return { kind: 'paid', number };
    }
    case 'charge_pending': {
      if (!charge.redirectUrl) return { kind: 'unknown', number };
      const payment = await latestPayment(ctx.db, number);
      if (payment && ['in_progress', 'unknown', 'charge_pending'].includes(payment.status)) {
        await updatePayment(ctx.db, payment.id, {
          status: 'charge_pending',
          chargeId: charge.id,
          redirectUrl: charge.redirectUrl,
        });
      }
      // Waiting on the shopper's bank: a shorter hold, so an abandoned authentication frees the stock sooner.
      await shortenHold(ctx, number, (ctx.hold ?? DEFAULT_HOLD).threeDsMinutes);
      return { kind: 'redirect', number, redirectUrl: charge.redirectUrl };
    }
    case 'failed':
    case 'cancelled': {
      if (charge.errorCode !== null && errorKind(charge.errorCode) === 'ours') {
        const description = `Openpay rechazó el cargo ${charge.id} por un error ${charge.errorCode}: ${charge.errorMessage ?? ''}`;
        ctx.log.error({ order: number, charge: charge.id }, description);
        if (
          await markPaymentError(
            ctx,
            number,
            { chargeId: charge.id, errorCode: charge.errorCode, message: description },
            who,
          )
        ) {
          await alertStaff(ctx, number, { chargeId: charge.id, errorCode: charge.errorCode, description });
          return storedError(ctx, number);
        }
      }
      const message = charge.errorCode === null ? 'El pago no se completó' : declineMessage(charge.errorCode);
      await markPaymentFailed(
        ctx,
        number,
        { chargeId: charge.id, errorCode: charge.errorCode, message },
        who,
      );
      const status = await currentStatus(ctx, number);
      if (status === 'payment_failed') return storedFailure(ctx, number);
      if (status === 'cancelled' && !order?.paymentState) return storedError(ctx, number);
      return status === 'pending_payment' ? { kind: 'unknown', number } : { kind: 'paid', number };
    }
    case 'refunded':
      return (await currentStatus(ctx, number)) === 'payment_failed'
        ? storedFailure(ctx, number)
        : { kind: 'paid', number };
    default:
      return { kind: 'unknown', number };
  }
}

/**
 * applyCharge for an order paid by SPEI or at a store (issue 21; decision 023). Whatever event brought the
 * charge (webhook of any type, in any order, any number of times; the reconciliation; the sweeper), its state as
 * the gateway answers it now decides, through the orders state functions that each happen once under the order's
 * lock: completed → paid, or — the order expired meanwhile — a late payment for staff; cancelled/failed (Openpay
 * expired it) → the order expires; in_progress → still awaited. A charge that is not ours (another amount,
 * currency or reference) never pays: staff are alerted and the order keeps waiting for its real payment.
 */
async function applyDelayedCharge(
  ctx: OrderContext,
  number: number,
  charge: Charge,
  attempt: PaymentRecord | undefined,
  who: GatewayRequest | SweeperRequest,
): Promise<Outcome> {
  const outcomeNow = async (): Promise<Outcome> => {
    const [row] = await ctx.db
      .select({ status: orders.status, paidAt: orders.paidAt })
      .from(orders)
      .where(eq(orders.number, number));
    if (row?.status === 'pending_payment') return { kind: 'awaiting', number };
    if (row?.paidAt) return { kind: 'paid', number };
    return { kind: 'error', number, message: EXPIRED_REASON };
  };
  if (!attempt || !chargeMatches(charge, { orderRef: attempt.orderRef, amountCents: attempt.amountCents })) {
    const description = `El cargo ${charge.id} (${(charge.amountCents / 100).toFixed(2)} ${charge.currency}, referencia ${charge.orderId ?? '-'}) no corresponde al pedido ${number} (importe, moneda o referencia distintos); no cuenta como pago`;
    ctx.log.error({ order: number, charge: charge.id }, description);
    await alertStaff(ctx, number, { chargeId: charge.id, errorCode: null, description });
    return outcomeNow();
  }
  const [order] = await ctx.db
    .select({ paymentState: orders.paymentState })
    .from(orders)
    .where(eq(orders.number, number));
  if (order?.paymentState) {
    await recordChargeChange(ctx, number, charge, who);
    return { kind: 'paid', number };
  }
  switch (charge.status) {
    case 'completed':
      if (await markPaid(ctx, number, charge, who)) return { kind: 'paid', number };
      await recordLatePayment(ctx, number, charge, who);
      return outcomeNow();
    case 'failed':
    case 'cancelled':
      await expireAwaitingPayment(ctx, number, who);
      return outcomeNow();
    default:
      return outcomeNow();
  }
}

/**
 * The reconciliation of delayed payments (issue 21): a webhook can be late or lost, so the sweeper asks the
 * gateway about each SPEI or store order still awaiting its payment, at most every `everyMs` per order (the
 * order's updated_at is the mark, taken with SKIP LOCKED so instances share the work). Answers how many orders
 * the round found paid.
 */
export async function reconcileAwaiting(
  ctx: OrderContext,
  options: { everyMs?: number; batch?: number } = {},
): Promise<number> {
  const everyMs = options.everyMs ?? 5 * 60_000;
  const due = ctx.db
    .select({ number: orders.number })
    .from(orders)
    .where(
      and(
        eq(orders.status, 'pending_payment'),
        inArray(orders.paymentMethod, ['spei', 'cash']),
        sql`${orders.updatedAt} <= now() - make_interval(secs => ${everyMs / 1000})`,
      ),
    )
    .orderBy(asc(orders.updatedAt))
    .limit(options.batch ?? 20)
    .for('update', { skipLocked: true });
  const taken = await ctx.db
    .update(orders)
    .set({ updatedAt: sql`now()` })
    .where(inArray(orders.number, due))
    .returning({ number: orders.number });
  let paid = 0;
  for (const { number } of taken) {
    try {
      const attempt = await latestPayment(ctx.db, number);
      if (!attempt) continue;
      const charge = attempt.chargeId
        ? await ctx.gateway.getCharge(attempt.chargeId)
        : await ctx.gateway.findChargeByOrderId(attempt.orderRef ?? String(number));
      if (!charge) continue;
      if ((await applyCharge(ctx, number, charge, SWEEPER)).kind === 'paid') paid += 1;
    } catch (error) {
      if (!(error instanceof GatewayUnavailableError)) {
        ctx.log.error({ err: error, order: number }, 'conciliación de pagos diferidos');
      }
    }
  }
  return paid;
}

/**
 * What the payments feature's 3-D Secure return and webhook do with a charge the gateway reports: find its
 * order and settle it (app.ts hands this to the payments plugin).
 */
export const chargeReports = (app: FastifyInstance): ChargeReports => ({
  orderOf: (chargeId, orderId) => orderOfCharge(app.db, chargeId, orderId),
  settle: async (number, charge, request) =>
    (await applyCharge(orderContext(app, request), number, charge, GATEWAY)).kind === 'paid',
});

/**
 * A completed charge of an order that was released meanwhile (its attempt's outcome was not known when it was
 * released): the money goes back. The charge goes on the attempt's books first, as 'unknown', so that a refund
 * that fails — or a process that dies before it — leaves an attempt the sweeper settles (settleReleasedAttempts);
 * once refunded the attempt is 'failed' with the charge and the amount given back. Answers whether it is refunded.
 */
async function refundReleased(
  ctx: OrderContext,
  number: number,
  attempt: PaymentRecord | undefined,
  charge: Charge,
): Promise<boolean> {
  ctx.log.warn({ order: number, charge: charge.id }, 'cargo completado de un pedido liberado: se reembolsa');
  if (attempt) await updatePayment(ctx.db, attempt.id, { status: 'unknown', chargeId: charge.id });
  let refunded: Charge | null = null;
  try {
    refunded = await ctx.gateway.refund(charge.id, {
      description: `Pedido ${number} liberado antes de confirmar el pago`,
    });
  } catch (error) {
    // Refused because it is refunded already (another instance, the dashboard)? The gateway's word decides.
    const now = await ctx.gateway.getCharge(charge.id).catch(() => null);
    if (now && (now.status === 'refunded' || (now.amountCents > 0 && now.refundedCents >= now.amountCents))) {
      refunded = now;
    } else {
      ctx.log.error(
        { err: error, order: number, charge: charge.id },
        'no se pudo reembolsar el cargo de un pedido liberado; el barrido lo reintenta',
      );
      return false;
    }
  }
  const refundedCents = Math.max(refunded.refundedCents, charge.amountCents);
  await ctx.db.transaction(async (tx) => {
    await lockOrder(tx, number);
    if (attempt)
      await updatePayment(tx, attempt.id, { status: 'failed', chargeId: charge.id, refundedCents });
    // The money came in and went straight back: both are the order's ledger (decision 045), once per charge.
    const actor = ledgerActor({ kind: 'sweeper' });
    const reason = 'Cargo completado de un pedido ya liberado: se reembolsó';
    const reference = `released:${charge.id}`;
    await recordMovement(tx, number, actor, {
      kind: 'charge',
      amountCents: charge.amountCents,
      method: 'card',
      reference: charge.id,
      reason,
    });
    await recordMovement(tx, number, actor, {
      kind: 'refund_due',
      amountCents: charge.amountCents,
      method: 'card',
      reference,
      reason,
    });
    await recordMovement(tx, number, actor, {
      kind: 'refund',
      amountCents: charge.amountCents,
      method: 'card',
      reference,
      reason,
    });
  });
  return true;
}

/**
 * Releases an unpaid order's reservation (it expired, or its shopper started a new attempt) — never while an
 * attempt of it may have been charged without the shop knowing: not while a live request holds its key (its
 * charge may be with the gateway right now; that request settles it), and only after asking the gateway by the
 * attempt's reference. A charge that completed pays the order (a failed one fails it); otherwise the order is
 * released, and a charge completing later still is refunded (applyCharge). Throws GatewayUnavailableError when
 * the gateway cannot say: the order is kept.
 */
export async function releaseUnpaid(
  ctx: OrderContext,
  number: number,
  message: string,
  who: ShopperRequest | SweeperRequest,
): Promise<'released' | 'paid' | 'kept'> {
  if (await keyInFlight(ctx.db, number)) return 'kept';
  const attempt = await latestPayment(ctx.db, number);
  const charge = await ctx.gateway.findChargeByOrderId(attempt?.orderRef ?? String(number));
  const [meta] = await ctx.db
    .select({ paymentMethod: orders.paymentMethod })
    .from(orders)
    .where(eq(orders.number, number));
  if (isDelayed(meta?.paymentMethod)) {
    // SPEI or store at its deadline: a completed charge pays it; otherwise it expires (once). Openpay's API has
    // no cancellation for bank_account/store charges: the due_date sent with the charge (= this deadline) is what
    // stops the reference from being paid (decision 023).
    if (charge?.status === 'completed') {
      const outcome = await applyCharge(ctx, number, charge, who.kind === 'sweeper' ? who : GATEWAY);
      if (outcome.kind === 'paid') return 'paid';
    }
    return (await expireAwaitingPayment(ctx, number, who.kind === 'sweeper' ? who : GATEWAY))
      ? 'released'
      : 'kept';
  }
  if (
    charge &&
    (charge.status === 'completed' || charge.status === 'failed' || charge.status === 'cancelled')
  ) {
    // applyCharge refuses a charge that is not ours.
    const outcome = await applyCharge(ctx, number, charge, who.kind === 'sweeper' ? who : GATEWAY);
    if (outcome.kind === 'paid') return 'paid';
    return outcome.kind === 'unknown' ? 'kept' : 'released';
  }
  // No charge, or a 3-D Secure authentication abandoned: the goods go back on the shelf.
  const released = await markPaymentFailed(
    ctx,
    number,
    { chargeId: charge?.id ?? null, errorCode: null, message },
    who,
    // Asked again under the order's lock, the key's row locked: a retry that took the key over since would
    // charge after this release and find the order released only once it has committed.
    async (tx) => !(await keyInFlight(tx, number, true)),
  );
  return released ? 'released' : 'kept';
}

/**
 * The sweeper's look at orders already released (payment failed, or cancelled unpaid) that have an attempt whose
 * outcome is unknown ('in_progress' or 'unknown': a charge found after the release whose refund failed, a
 * process that died around a charge): the gateway is asked by the attempt's reference and the attempt settled —
 * a completed charge refunded, a failed one or none recorded as failed. An attempt whose key a live request holds
 * is left to it; a 3-D Secure charge still pending waits (its return or webhook refunds it). Answers how many
 * attempts were settled.
 */
export async function settleReleasedAttempts(ctx: OrderContext, batch = 20): Promise<number> {
  const open = await ctx.db
    .select({ payment: payments })
    .from(payments)
    .innerJoin(orders, eq(orders.number, payments.orderNumber))
    .where(
      and(
        inArray(orders.status, ['payment_failed', 'cancelled']),
        isNull(orders.paidAt),
        inArray(payments.status, ['in_progress', 'unknown']),
      ),
    )
    .orderBy(asc(payments.updatedAt))
    .limit(batch);
  let settled = 0;
  for (const { payment } of open) {
    const number = payment.orderNumber;
    try {
      if (await keyInFlight(ctx.db, number)) continue;
      const charge = await ctx.gateway.findChargeByOrderId(payment.orderRef ?? String(number));
      const ours =
        charge !== null &&
        chargeMatches(charge, { orderRef: payment.orderRef, amountCents: payment.amountCents });
      if (ours && charge.status === 'completed' && charge.refundedCents < charge.amountCents) {
        if (await refundReleased(ctx, number, payment, charge)) settled += 1;
        continue;
      }
      if (ours && charge.status === 'charge_pending') {
        // Still with the shopper's bank: looked at again later (and after the others).
        await ctx.db.update(payments).set({ updatedAt: sql`now()` }).where(eq(payments.id, payment.id));
        continue;
      }
      const refundedCents = ours ? charge.refundedCents : 0;
      await updatePayment(ctx.db, payment.id, {
        status: 'failed',
        ...(ours ? { chargeId: charge.id } : {}),
        ...(refundedCents > 0 ? { refundedCents } : {}),
      });
      settled += 1;
    } catch (error) {
      if (!(error instanceof GatewayUnavailableError)) {
        ctx.log.error({ err: error, order: number }, 'barrido de intentos de pedidos liberados');
      }
    }
  }
  return settled;
}
