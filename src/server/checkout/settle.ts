import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { orders } from '../db/schema.ts';
import { type OrderContext, orderContext } from '../orders/context.ts';
import { markPaid, markPaymentFailed } from '../orders/payment.ts';
import { latestPayment, orderOfCharge, updatePayment } from '../orders/payment-records.ts';
import { GATEWAY, type GatewayRequest, type SweeperRequest } from '../orders/requester.ts';
import type { ChargeReports } from '../payments/charge-reports.ts';
import { type Charge, declineMessage } from '../payments/gateway.ts';

/** Where an order stands after talking to the gateway. */
export type Outcome =
  | { kind: 'paid'; number: number }
  | { kind: 'redirect'; number: number; redirectUrl: string }
  | { kind: 'failed'; number: number; message: string; errorCode: number | null }
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

/**
 * Brings an order in line with its charge as the gateway reports it (charge answer, 3-D Secure
 * return, webhook, sweeper). Idempotent: a second call with the same charge changes nothing.
 */
export async function applyCharge(
  ctx: OrderContext,
  number: number,
  charge: Charge,
  who: GatewayRequest | SweeperRequest,
): Promise<Outcome> {
  switch (charge.status) {
    case 'completed': {
      if (await markPaid(ctx, number, charge, who)) return { kind: 'paid', number };
      const status = await currentStatus(ctx, number);
      if (status === 'payment_failed') {
        // The reservation was released (expired) but the bank took the money after all: give it back.
        ctx.log.warn(
          { order: number, charge: charge.id },
          'cargo completado de un pedido liberado: se reembolsa',
        );
        await ctx.gateway
          .refund(charge.id, { description: `Pedido ${number} vencido antes de confirmar el pago` })
          .catch((error: unknown) => ctx.log.error({ err: error, order: number }, 'no se pudo reembolsar'));
        return storedFailure(ctx, number);
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
      return { kind: 'redirect', number, redirectUrl: charge.redirectUrl };
    }
    case 'failed':
    case 'cancelled': {
      const message = declineMessage(charge.errorCode, charge.errorMessage);
      await markPaymentFailed(
        ctx,
        number,
        { chargeId: charge.id, errorCode: charge.errorCode, message },
        who,
      );
      const status = await currentStatus(ctx, number);
      if (status === 'payment_failed') return storedFailure(ctx, number);
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
