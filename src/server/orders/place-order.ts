import { sql } from 'drizzle-orm';
import type { PlaceOrder } from '../../shared/schemas/orders.ts';
import { shop } from '../../shared/shop.ts';
import { getShippingAddress } from '../account/service.ts';
import type { SessionUser } from '../auth/session.ts';
import { quoteCart } from '../cart/quote.ts';
import type { Db } from '../db/client.ts';
import { AppError, conflict } from '../http/errors.ts';
import {
  type Charge,
  DUPLICATE_ORDER_ID,
  declineMessage,
  GatewayError,
  GatewayUnavailableError,
} from '../payments/gateway.ts';
import { type Answer, attachOrder, claimKey, completeKey, releaseKey, requestHash } from './idempotency.ts';
import { applyCharge, type CheckoutContext, markFailed, type Outcome, storedFailure } from './settle.ts';
import { rows } from './sql.ts';
import { reserveStock } from './stock.ts';

export const RESERVATION_MINUTES = 30;
export const NO_ADDRESS = 'Ingrese su dirección para poder continuar';

const errorAnswer = (status: number, code: string, message: string): Answer => ({
  status,
  body: { error: { code, message } },
});

export function outcomeAnswer(outcome: Outcome): Answer {
  switch (outcome.kind) {
    case 'paid':
      return { status: 201, body: { number: outcome.number } };
    case 'redirect':
      return { status: 200, body: { number: outcome.number, redirectUrl: outcome.redirectUrl } };
    case 'failed':
      return errorAnswer(402, 'payment_declined', outcome.message);
    case 'unknown':
      return errorAnswer(
        503,
        'payment_unknown',
        'No pudimos confirmar el pago con el banco. Revise su historial de pedidos en unos minutos antes de intentar de nuevo.',
      );
  }
}

/**
 * Step 1, one transaction: server prices and shipping, the address snapshot, the stock reserved,
 * the order pending_payment with its lines and ledger rows, and the payment attempt recorded.
 */
async function createPendingOrder(
  ctx: CheckoutContext,
  user: SessionUser,
  key: string,
  hash: string,
  body: PlaceOrder,
): Promise<number> {
  return ctx.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const address = await getShippingAddress(tx, user.id);
    if (!address) throw conflict(NO_ADDRESS, 'address_required');
    const quote = await quoteCart(tx, body.items);
    const unknown = quote.lines.find((l) => l.name === null);
    if (unknown) throw conflict(`El producto ${unknown.code} no existe`, 'unavailable');
    const [seq] = await rows<{ n: number }>(tx, sql`select nextval('order_number_seq')::int as n`);
    const number = Number(seq!.n);
    await tx.execute(sql`
      insert into orders (number, user_id, status, subtotal_cents, shipping_cents, iva_cents, total_cents,
        address, idempotency_key, request_hash, reserved_until)
      values (${number}, ${user.id}, 'pending_payment', ${quote.subtotalCents}, ${quote.shippingCents},
        ${quote.ivaCents}, ${quote.totalCents}, ${JSON.stringify(address)}::jsonb, ${key}, ${hash},
        now() + ${sql.raw(`interval '${RESERVATION_MINUTES} minutes'`)})`);
    let lineNo = 0;
    for (const line of quote.lines) {
      lineNo += 1;
      await tx.execute(sql`
        insert into order_lines (order_number, line_no, product_code, description, unit_price_cents, quantity, weight_kg)
        values (${number}, ${lineNo}, ${line.code}, ${line.name}, ${line.unitPriceCents}, ${line.quantity},
          ${Math.round((line.weightKg / line.quantity) * 1000) / 1000})`);
    }
    await reserveStock(
      tx,
      number,
      quote.lines.map((l) => ({ code: l.code, name: l.name ?? l.code, quantity: l.quantity })),
    );
    await tx.execute(sql`
      insert into payments (order_number, gateway, status, amount_cents)
      values (${number}, ${ctx.gateway.name}, 'in_progress', ${quote.totalCents})`);
    await attachOrder(tx, user.id, key, number);
    return number;
  });
}

async function orderTotal(db: Db, number: number): Promise<{ status: string; total: number } | null> {
  const [row] = await rows<{ status: string; total_cents: number }>(
    db,
    sql`select status, total_cents from orders where number = ${number}`,
  );
  return row ? { status: row.status, total: Number(row.total_cents) } : null;
}

/** After a timeout the charge may exist: ask by order_id (a few times) before anything else. */
async function lookUpCharge(ctx: CheckoutContext, number: number): Promise<Charge | null | 'unavailable'> {
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
  ctx: CheckoutContext,
  user: SessionUser,
  number: number,
  body: PlaceOrder,
): Promise<Outcome> {
  const order = await orderTotal(ctx.db, number);
  if (!order) return { kind: 'unknown', number };
  if (order.status === 'paid' || order.status === 'cancelled') return { kind: 'paid', number };
  if (order.status === 'payment_failed') return storedFailure(ctx.db, number);

  for (let attempt = 0; attempt < 2; attempt++) {
    // Whatever an earlier attempt did, the gateway knows: never create before asking, except the first time.
    if (attempt > 0) {
      const found = await lookUpCharge(ctx, number);
      if (found === 'unavailable') return { kind: 'unknown', number };
      if (found) return applyCharge(ctx, number, found);
    }
    try {
      const charge = await ctx.gateway.createCharge({
        token: body.cardToken,
        deviceSessionId: body.deviceSessionId,
        amountCents: order.total,
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
      return applyCharge(ctx, number, charge);
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
        if (found && found !== 'unavailable') return applyCharge(ctx, number, found);
        return { kind: 'unknown', number };
      }
      const message = declineMessage(error.errorCode, error.description);
      await markFailed(ctx, number, { chargeId: null, errorCode: error.errorCode, message });
      return storedFailure(ctx.db, number);
    }
  }
  const found = await lookUpCharge(ctx, number);
  if (found && found !== 'unavailable') return applyCharge(ctx, number, found);
  await ctx.db.execute(sql`
    update payments set status = 'unknown', updated_at = now()
    where order_number = ${number} and status = 'in_progress'`);
  return { kind: 'unknown', number };
}

/** POST /api/orders: create (or resume) the order for this Idempotency-Key and charge it. */
export async function placeOrder(
  ctx: CheckoutContext,
  user: SessionUser,
  key: string,
  body: PlaceOrder,
): Promise<Answer> {
  const hash = requestHash(body);
  const claim = await claimKey(ctx.db, user.id, key, hash);
  switch (claim.kind) {
    case 'replay':
      return claim.answer;
    case 'mismatch':
      return errorAnswer(
        409,
        'idempotency_mismatch',
        'Esta clave de idempotencia ya se usó con otra solicitud. Recargue la página e intente de nuevo.',
      );
    case 'busy':
      return errorAnswer(409, 'idempotency_in_progress', 'Su pago ya se está procesando. Espere un momento.');
  }

  let number = claim.kind === 'resume' ? claim.orderNumber : null;
  try {
    if (number === null) number = await createPendingOrder(ctx, user, key, hash, body);
  } catch (error) {
    if (!(error instanceof AppError)) {
      await releaseKey(ctx.db, user.id, key);
      throw error;
    }
    const answer = errorAnswer(error.statusCode, error.code, error.message);
    await completeKey(ctx.db, user.id, key, answer);
    return answer;
  }

  let outcome: Outcome;
  try {
    outcome = await chargeOrder(ctx, user, number, body);
  } catch (error) {
    await releaseKey(ctx.db, user.id, key);
    throw error;
  }
  const answer = outcomeAnswer(outcome);
  if (outcome.kind === 'unknown') await releaseKey(ctx.db, user.id, key);
  else await completeKey(ctx.db, user.id, key, answer);
  return answer;
}
