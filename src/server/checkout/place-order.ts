import { eq } from 'drizzle-orm';
import type { PlaceOrder } from '../../shared/schemas/orders.ts';
import { shop } from '../../shared/shop.ts';
import { getShippingAddress } from '../account/service.ts';
import type { SessionUser } from '../auth/session.ts';
import { quoteCart } from '../cart/quote.ts';
import { orders } from '../db/schema.ts';
import { AppError, conflict } from '../http/errors.ts';
import type { OrderContext } from '../orders/context.ts';
import { createPendingOrder } from '../orders/create.ts';
import { markPaymentFailed } from '../orders/payment.ts';
import { latestPayment, recordPaymentAttempt, updatePayment } from '../orders/payment-records.ts';
import { GATEWAY } from '../orders/requester.ts';
import {
  type Charge,
  DUPLICATE_ORDER_ID,
  declineMessage,
  GatewayError,
  GatewayUnavailableError,
} from '../payments/gateway.ts';
import {
  attachOrder,
  type CheckoutAnswer,
  claimKey,
  completeKey,
  holdKey,
  releaseKey,
  requestHash,
} from './idempotency.ts';
import { applyCharge, type Outcome, storedFailure } from './settle.ts';

export const RESERVATION_MINUTES = 30;
export const NO_ADDRESS = 'Ingrese su dirección para poder continuar';

/**
 * What POST /api/orders answers: a stored, replayable answer (paid, 3-D Secure redirect, declined, the
 * order refused), or one that is not stored: the gateway's result is unknown, or the key is misused.
 */
export type PlaceOrderResult =
  | CheckoutAnswer
  | { kind: 'unknown'; number: number }
  | { kind: 'key_mismatch' }
  | { kind: 'key_busy' };

/**
 * Step 1, one transaction: server prices and shipping, the address snapshot, the stock reserved,
 * the order pending_payment with its lines and ledger rows, and the payment attempt recorded.
 */
async function placePendingOrder(
  ctx: OrderContext,
  user: SessionUser,
  key: string,
  hash: string,
  body: PlaceOrder,
): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    const address = await getShippingAddress(tx, user.id);
    if (!address) throw conflict(NO_ADDRESS, 'address_required');
    const quote = await quoteCart(tx, body.items);
    const lines = quote.lines.map((l) => {
      if (l.name === null) throw conflict(`El producto ${l.code} no existe`, 'unavailable');
      return { ...l, name: l.name };
    });
    const number = await createPendingOrder(tx, {
      userId: user.id,
      address,
      idempotencyKey: key,
      requestHash: hash,
      reservationMinutes: RESERVATION_MINUTES,
      amounts: {
        subtotalCents: quote.subtotalCents,
        shippingCents: quote.shippingCents,
        ivaCents: quote.ivaCents,
        totalCents: quote.totalCents,
      },
      lines,
    });
    await recordPaymentAttempt(tx, {
      orderNumber: number,
      gateway: ctx.gateway.name,
      amountCents: quote.totalCents,
    });
    await attachOrder(tx, user.id, key, number);
    return number;
  });
}

/** After a timeout the charge may exist: ask by order_id (a few times) before anything else. */
async function lookUpCharge(ctx: OrderContext, number: number): Promise<Charge | null | 'unavailable'> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await ctx.gateway.findChargeByOrderId(String(number));
    } catch (error) {
      if (!(error instanceof GatewayUnavailableError)) throw error;
      await new Promise((r) => setTimeout(r, 200 * (attempt + 1)));
    }
  }
  return 'unavailable';
}

/**
 * Step 2, outside any transaction: the charge, with the order number as order_id. The gateway
 * refuses a second charge for the same order_id (1006), so a retry can never charge twice.
 */
async function chargeOrder(
  ctx: OrderContext,
  user: SessionUser,
  number: number,
  body: PlaceOrder,
): Promise<Outcome> {
  const [order] = await ctx.db
    .select({ status: orders.status, totalCents: orders.totalCents })
    .from(orders)
    .where(eq(orders.number, number));
  if (!order) return { kind: 'unknown', number };
  if (order.status === 'paid' || order.status === 'cancelled') return { kind: 'paid', number };
  if (order.status === 'payment_failed') return storedFailure(ctx, number);

  for (let attempt = 0; attempt < 2; attempt++) {
    // Whatever an earlier attempt did, the gateway knows: never create before asking, except the first time.
    if (attempt > 0) {
      const found = await lookUpCharge(ctx, number);
      if (found === 'unavailable') return { kind: 'unknown', number };
      if (found) return applyCharge(ctx, number, found, GATEWAY);
    }
    try {
      const charge = await ctx.gateway.createCharge({
        token: body.cardToken,
        deviceSessionId: body.deviceSessionId,
        amountCents: order.totalCents,
        orderId: String(number),
        description: `Pedido ${number} — ${shop.tradeName}`,
        customer: {
          name: user.nombre,
          lastName: `${user.apellidoPat} ${user.apellidoMat}`.trim(),
          email: user.email,
          phoneNumber: user.telefono,
        },
        use3dSecure: false,
        redirectUrl: `${ctx.publicUrl}/api/payments/return`,
      });
      return applyCharge(ctx, number, charge, GATEWAY);
    } catch (error) {
      if (error instanceof GatewayUnavailableError) {
        ctx.log.warn(
          { order: number, err: error },
          'la pasarela no respondió; se consulta el cargo por order_id',
        );
        continue;
      }
      if (!(error instanceof GatewayError)) throw error;
      if (error.errorCode === DUPLICATE_ORDER_ID) {
        const found = await lookUpCharge(ctx, number);
        if (found && found !== 'unavailable') return applyCharge(ctx, number, found, GATEWAY);
        return { kind: 'unknown', number };
      }
      const message = declineMessage(error.errorCode, error.description);
      await markPaymentFailed(ctx, number, { chargeId: null, errorCode: error.errorCode, message }, GATEWAY);
      return storedFailure(ctx, number);
    }
  }
  const found = await lookUpCharge(ctx, number);
  if (found && found !== 'unavailable') return applyCharge(ctx, number, found, GATEWAY);
  const payment = await latestPayment(ctx.db, number);
  if (payment?.status === 'in_progress') await updatePayment(ctx.db, payment.id, { status: 'unknown' });
  return { kind: 'unknown', number };
}

/** POST /api/orders: create (or resume) the order for this Idempotency-Key and charge it. */
export async function placeOrder(
  ctx: OrderContext,
  user: SessionUser,
  key: string,
  body: PlaceOrder,
): Promise<PlaceOrderResult> {
  const hash = requestHash(body);
  const claim = await claimKey(ctx.db, user.id, key, hash);
  switch (claim.kind) {
    case 'replay':
      return claim.answer;
    case 'mismatch':
      return { kind: 'key_mismatch' };
    case 'busy':
      return { kind: 'key_busy' };
  }

  const stop = holdKey(ctx.db, user.id, key);
  try {
    return await placeWithKey(ctx, user, key, hash, body, claim.kind === 'resume' ? claim.orderNumber : null);
  } finally {
    stop();
  }
}

/** The work of a claimed key (its lease renewed meanwhile): the order, then the charge, then the stored answer. */
async function placeWithKey(
  ctx: OrderContext,
  user: SessionUser,
  key: string,
  hash: string,
  body: PlaceOrder,
  resumed: number | null,
): Promise<PlaceOrderResult> {
  let number = resumed;
  try {
    if (number === null) number = await placePendingOrder(ctx, user, key, hash, body);
  } catch (error) {
    if (!(error instanceof AppError)) {
      await releaseKey(ctx.db, user.id, key);
      throw error;
    }
    const refused: CheckoutAnswer = { kind: 'refused', code: error.code, message: error.message };
    await completeKey(ctx.db, user.id, key, refused);
    return refused;
  }

  let outcome: Outcome;
  try {
    outcome = await chargeOrder(ctx, user, number, body);
  } catch (error) {
    await releaseKey(ctx.db, user.id, key);
    throw error;
  }
  if (outcome.kind === 'unknown') await releaseKey(ctx.db, user.id, key);
  else await completeKey(ctx.db, user.id, key, outcome);
  return outcome;
}
