import { and, desc, eq, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { orders, payments } from '../db/schema.ts';
import { DEFAULT_HOLD, type OrderContext, orderContext } from '../orders/context.ts';
import { markPaid, markPaymentError, markPaymentFailed, shortenHold } from '../orders/payment.ts';
import { raisePaymentAlert, recordChargeChange } from '../orders/payment-events.ts';
import {
  latestPayment,
  orderOfCharge,
  type PaymentRecord,
  updatePayment,
} from '../orders/payment-records.ts';
import { GATEWAY, type GatewayRequest, type SweeperRequest } from '../orders/requester.ts';
import type { ChargeReports } from '../payments/charge-reports.ts';
import {
  type Charge,
  chargeMatches,
  declineMessage,
  errorKind,
  PAYMENT_ERROR_MESSAGE,
} from '../payments/gateway.ts';

/** Where an order stands after talking to the gateway. */
export type Outcome =
  | { kind: 'paid'; number: number }
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
        ctx.log.warn(
          { order: number, charge: charge.id },
          'cargo completado de un pedido liberado: se reembolsa',
        );
        await ctx.gateway
          .refund(charge.id, { description: `Pedido ${number} vencido antes de confirmar el pago` })
          .catch((error: unknown) => ctx.log.error({ err: error, order: number }, 'no se pudo reembolsar'));
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
 * What the payments feature's 3-D Secure return and webhook do with a charge the gateway reports: find its
 * order and settle it (app.ts hands this to the payments plugin).
 */
export const chargeReports = (app: FastifyInstance): ChargeReports => ({
  orderOf: (chargeId, orderId) => orderOfCharge(app.db, chargeId, orderId),
  settle: async (number, charge, request) =>
    (await applyCharge(orderContext(app, request), number, charge, GATEWAY)).kind === 'paid',
});
