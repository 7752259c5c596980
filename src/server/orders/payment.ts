import { eq, sql } from 'drizzle-orm';
import { removeOrderedFromSavedCart } from '../cart/service.ts';
import type { Tx } from '../db/client.ts';
import { orders } from '../db/schema.ts';
import type { Charge } from '../payments/gateway.ts';
import type { OrderContext } from './context.ts';
import { ledgerActor, recordMovement } from './ledger.ts';
import { lockOrder } from './lock.ts';
import { enqueueOrderPaidMail } from './mail.ts';
import { latestPayment, updatePayment } from './payment-records.ts';
import type { GatewayRequest, ShopperRequest, SweeperRequest } from './requester.ts';
import { returnStock } from './stock.ts';
import { applyTransition } from './transitions.ts';

/**
 * The transitions the gateway's word decides (its answer to the charge, the 3-D Secure return, the webhook, or
 * the sweeper asking it): pending_payment → paid and pending_payment → payment_failed. Each happens once.
 */

/**
 * pending_payment → paid: the payment row, the confirmation mail (outbox) and the bought products out of the
 * saved cart, in one transaction. Returns false when the order was not pending.
 */
export async function markPaid(
  ctx: OrderContext,
  number: number,
  charge: Charge,
  who: GatewayRequest | SweeperRequest,
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, number);
    if (order?.status !== 'pending_payment') return false;
    const paid = await applyTransition(tx, order, 'pay', who, {
      paymentState: 'paid',
      paidAt: sql`now()`,
      reservedUntil: null,
    });
    const payment = await latestPayment(tx, number);
    await recordMovement(tx, number, ledgerActor(who), {
      kind: 'charge',
      amountCents: payment?.amountCents ?? order.totalCents,
      method: charge.method ?? 'card',
      reference: charge.id,
    });
    if (payment) {
      await updatePayment(tx, payment.id, {
        status: 'completed',
        chargeId: charge.id,
        errorCode: null,
        errorMessage: null,
        method: charge.method ?? 'card',
        cardType: charge.cardType,
      });
    }
    await enqueueOrderPaidMail(tx, paid, ctx.publicUrl);
    await removeOrderedFromSavedCart(tx, order.userId, number);
    ctx.log.debug({ order: number, by: who.kind }, 'pedido pagado');
    return true;
  });
}

/**
 * pending_payment → payment_failed: the card was declined, or the reservation expired unpaid. The stock goes
 * back ('order_release' ledger rows) and the attempt keeps the decline. Returns false when not pending, or when
 * `mayRelease` (asked under the order's lock, in the transaction — a release checks that no request may be
 * charging the order right now) says no.
 */
export async function markPaymentFailed(
  ctx: OrderContext,
  number: number,
  failure: { chargeId: string | null; errorCode: number | null; message: string },
  who: GatewayRequest | SweeperRequest | ShopperRequest,
  mayRelease?: (tx: Tx) => Promise<boolean>,
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, number);
    if (order?.status !== 'pending_payment') return false;
    if (who.kind === 'shopper' && order.userId !== who.userId) return false;
    if (mayRelease && !(await mayRelease(tx))) return false;
    await applyTransition(tx, order, 'decline', who, { reservedUntil: null });
    await returnStock(tx, number, 'order_release');
    const payment = await latestPayment(tx, number);
    if (payment) {
      await updatePayment(tx, payment.id, {
        status: 'failed',
        chargeId: failure.chargeId ?? payment.chargeId,
        errorCode: failure.errorCode === null ? null : String(failure.errorCode),
        errorMessage: failure.message,
      });
    }
    ctx.log.debug({ order: number, by: who.kind }, 'pago del pedido rechazado o vencido');
    return true;
  });
}

/**
 * pending_payment → cancelled without a charge: the payment failed on OUR side (authentication, configuration,
 * a request we built wrong, a charge found that is not ours) — never blamed on the card. The stock goes back
 * ('order_release'), the attempt keeps the gateway's code with status 'error', and the shopper may try again
 * (a new order). Returns false when not pending.
 */
export async function markPaymentError(
  ctx: OrderContext,
  number: number,
  failure: { chargeId: string | null; errorCode: number | null; message: string },
  who: GatewayRequest | SweeperRequest,
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, number);
    if (order?.status !== 'pending_payment') return false;
    await applyTransition(tx, order, 'payment_error', who, {
      cancelledAt: sql`now()`,
      cancelReason: 'No se pudo procesar el pago; no se hizo ningún cargo',
      reservedUntil: null,
    });
    await returnStock(tx, number, 'order_release');
    const payment = await latestPayment(tx, number);
    if (payment) {
      await updatePayment(tx, payment.id, {
        status: 'error',
        chargeId: failure.chargeId ?? payment.chargeId,
        errorCode: failure.errorCode === null ? null : String(failure.errorCode),
        errorMessage: failure.message,
      });
    }
    ctx.log.debug({ order: number, by: who.kind }, 'pedido liberado por un error del pago');
    return true;
  });
}

/**
 * A pending order now waits on the shopper's bank (3-D Secure): its hold shortens to `minutes` from now (never
 * lengthens), so an abandoned authentication gives the stock back sooner (issue 23).
 */
export async function shortenHold(ctx: OrderContext, number: number, minutes: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, number);
    if (order?.status !== 'pending_payment') return;
    await tx
      .update(orders)
      .set({
        reservedUntil: sql`least(coalesce(${orders.reservedUntil}, 'infinity'), now() + make_interval(mins => ${minutes}))`,
        updatedAt: sql`now()`,
      })
      .where(eq(orders.number, number));
  });
}
