import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { CREDIT_NO_INVOICE_PROFILE } from '../../shared/credit.ts';
import {
  type DelayedMethod,
  delayedPaymentDeadline,
  isDelayed,
  msiOptions,
} from '../../shared/payment-methods.ts';
import type { PlaceOrder } from '../../shared/schemas/orders.ts';
import { shop } from '../../shared/shop.ts';
import { getShippingAddress } from '../account/addresses.ts';
import { getFiscalProfile } from '../account/fiscal-profiles.ts';
import type { SessionUser } from '../auth/session.ts';
import { quoteCart, refuseOverLimit } from '../cart/quote.ts';
import { checkControlledPurchase, recordDeclaration } from '../controlled/rules.ts';
import { confirmOnCredit } from '../credit/confirm.ts';
import { refuseCredit } from '../credit/line.ts';
import { orderLines, orders, payments, products, purchaseInvoiceRequests, users } from '../db/schema.ts';
import { AppError, badRequest, conflict, notFound } from '../http/errors.ts';
import { institutionAddress } from '../institutions/addresses.ts';
import { type Membership, requireInstitution } from '../institutions/membership.ts';
import { checkInstitutionOrder } from '../institutions/order-rules.ts';
import { DEFAULT_HOLD, type OrderContext } from '../orders/context.ts';
import { createPendingOrder } from '../orders/create.ts';
import { instructionsOf, markAwaitingPayment } from '../orders/delayed-payment.ts';
import { ledgerActor, recordMovement } from '../orders/ledger.ts';
import { markPaymentError, markPaymentFailed } from '../orders/payment.ts';
import {
  latestPayment,
  type PaymentRecord,
  recordPaymentAttempt,
  updatePayment,
} from '../orders/payment-records.ts';
import { GATEWAY } from '../orders/requester.ts';
import {
  ANTIFRAUD_DECLINE,
  type Charge,
  chargeMatches,
  DUPLICATE_ORDER_ID,
  declineMessage,
  errorKind,
  GatewayError,
  GatewayUnavailableError,
  MSI_NOT_ON_DEBIT,
  OPERATION_NOT_ALLOWED,
  PAYMENT_ERROR_MESSAGE,
} from '../payments/gateway.ts';
import { claimQuotationForOrder, markQuotationConverted } from '../quotations/convert.ts';
import {
  claimRequisitionForOrder,
  markRequisitionPlaced,
  type RequisitionClaim,
} from '../requisitions/claim.ts';
import { branchProblem, deliveryOptionsOf, refuseDelivery } from '../shipments/delivery-options.ts';
import {
  attachOrder,
  type CheckoutAnswer,
  claimKey,
  completeKey,
  holdKey,
  releaseKey,
  requestHash,
} from './idempotency.ts';
import {
  alertStaff,
  applyCharge,
  type Outcome,
  releaseUnpaid,
  storedError,
  storedFailure,
} from './settle.ts';

export const NO_ADDRESS = 'Ingrese su dirección para poder continuar';
export const PURCHASE_ORDER_REQUIRED =
  'Su cuenta requiere el número de orden de compra en cada pedido. Escríbalo para continuar.';
export const TOO_MANY_PENDING =
  'Tiene pedidos esperando la confirmación de su pago. Termine o espere esos pagos antes de iniciar otro.';
export const MSI_UNAVAILABLE =
  'Los meses sin intereses no están disponibles para este importe o plazo. Elija otro plazo o pague en una sola exhibición.';
export const DELAYED_CHARGE_ERROR =
  'No pudimos generar la referencia de pago en este momento. Su pedido no se registró y no se hizo ningún cargo; intente de nuevo en unos minutos o pague con tarjeta.';
/** 'Apartar' names what an unpaid order does: the buyer reads how many they may hold and how to get more. */
export const aboveUnpaidShare = (name: string, most: number) =>
  `Con pago por transferencia SPEI o en tienda se pueden apartar hasta ${most} ${most === 1 ? 'pieza' : 'piezas'} de ${name} mientras llega el pago. Pague con tarjeta para llevar más, o contáctenos.`;

/**
 * The most of a product's stock one unpaid SPEI/store order may hold (decision 049): a share of what is in stock
 * now, at least one unit so the last piece can still be sold this way.
 */
export const unpaidShareOf = (stock: number, percent: number) =>
  Math.max(1, Math.floor((stock * percent) / 100));

export const tooManyUnits = (max: number) =>
  `Mientras se confirma el pago se pueden apartar hasta ${max} piezas por cliente. Para pedidos mayores, contáctenos.`;

/**
 * What POST /api/orders answers: a stored, replayable answer (paid, 3-D Secure redirect, declined, our error,
 * the order refused), or one that is not stored: the gateway's result is unknown, or the key is misused.
 */
export type PlaceOrderResult =
  | CheckoutAnswer
  | { kind: 'unknown'; number: number }
  | { kind: 'key_mismatch' }
  | { kind: 'key_busy' };

/**
 * Before a new order: the shopper starts a new attempt, so their other unpaid orders give their stock back at
 * once (issue 23) — each only as releaseUnpaid allows: not while its own request may be charging it, and after
 * asking the gateway (a charge that went through pays that order; one completing later is refunded). An order
 * that cannot be released now (the gateway did not answer) keeps its reservation and counts against the caps.
 */
async function releaseEarlierAttempts(ctx: OrderContext, user: SessionUser): Promise<void> {
  const pending = await ctx.db
    .select({ number: orders.number })
    .from(orders)
    .where(
      and(
        eq(orders.userId, user.id),
        eq(orders.status, 'pending_payment'),
        // A SPEI or store order waits on a payment the buyer may be making right now (issue 21): it keeps its
        // stock until its own deadline, whatever the buyer does next.
        eq(orders.paymentMethod, 'card'),
      ),
    );
  for (const { number } of pending) {
    try {
      await releaseUnpaid(ctx, number, 'Se inició un nuevo intento de pago', {
        kind: 'shopper',
        userId: user.id,
      });
    } catch (error) {
      ctx.log.warn({ err: error, order: number }, 'no se liberó un pedido anterior sin pagar; se conserva');
    }
  }
}

/**
 * Step 1, one transaction: server prices and shipping, the address snapshot, the stock reserved,
 * the order pending_payment with its lines and ledger rows, and the payment attempt recorded. The shopper's
 * row is locked first, so the caps on their unpaid orders and held units hold under concurrent requests.
 */
async function placePendingOrder(
  ctx: OrderContext,
  user: SessionUser,
  key: string,
  hash: string,
  body: PlaceOrder,
  extra: PlaceExtra,
): Promise<number> {
  const buyingFor = extra.buyingFor ?? null;
  const hold = ctx.hold ?? DEFAULT_HOLD;
  // On credit (decision 060): only a member whose role may, for the institution the session buys for.
  const onCredit = body.paymentMethod === 'credit';
  if (onCredit) requireInstitution(buyingFor, 'order.place_on_credit');
  if (onCredit && body.invoiceProfileId !== undefined)
    throw conflict(CREDIT_NO_INVOICE_PROFILE, 'credit_invoice_profile');
  await releaseEarlierAttempts(ctx, user);
  return ctx.db.transaction(async (tx) => {
    const [buyer] = await tx
      .select({ id: users.id, requiresPurchaseOrder: users.requiresPurchaseOrder })
      .from(users)
      .where(eq(users.id, user.id))
      .for('update');
    const [held] = await tx
      .select({
        orders: sql<number>`count(distinct ${orders.number})::int`,
        // Units held from stock: a line's backordered units ('sobre pedido', decision 029) hold none.
        units: sql<number>`coalesce(sum(${orderLines.quantity} - ${orderLines.backorderedQuantity}), 0)::int`,
      })
      .from(orders)
      .leftJoin(orderLines, eq(orderLines.orderNumber, orders.number))
      .where(and(eq(orders.userId, user.id), eq(orders.status, 'pending_payment')));
    // The chosen address (issue 20) must be the buyer's own (else 404 before anything is written); none: the default.
    // Buying for an institution (issue 34): one of its shared addresses may be chosen instead.
    if (body.institutionAddressId !== undefined && !buyingFor) throw notFound('Dirección no encontrada');
    const chosen =
      buyingFor && body.institutionAddressId !== undefined
        ? await institutionAddress(tx, buyingFor.institution.id, body.institutionAddressId)
        : await getShippingAddress(tx, user.id, body.addressId);
    if (!chosen) throw conflict(NO_ADDRESS, 'address_required');
    const { id: _id, alias: _alias, isDefault: _default, ...address } = { isDefault: false, ...chosen };
    // Placing an approved requisition (decision 059): its quotation (the requester's) for its institution.
    const requisition = extra.requisition
      ? await claimRequisitionForOrder(tx, user.id, extra.requisition, body.quotation)
      : null;
    // Converting a quotation (issue 20): its lines at its prices, claimed under its row lock (exactly once) — the
    // requester's for a requisition, else the buyer's own or one shared with the institution they buy for.
    const quoted = body.quotation
      ? await claimQuotationForOrder(
          tx,
          requisition
            ? { userId: requisition.row.requesterId, institutionId: requisition.row.institutionId }
            : { userId: user.id, institutionId: buyingFor?.institution.id ?? null },
          body.quotation,
          body.items,
        )
      : null;
    const purchaseOrder = body.purchaseOrder || quoted?.purchaseOrder || null;
    if ((buyer?.requiresPurchaseOrder || requisition?.institution.requiresPurchaseOrder) && !purchaseOrder)
      throw conflict(PURCHASE_ORDER_REQUIRED, 'purchase_order_required');
    // Issue 35: the way it travels is the server's call — a method the cart may not use (a hazardous reagent by
    // air, a forged request) is refused here, and the shipping charged is that way's.
    const deliveryMethod = body.deliveryMethod ?? 'ground';
    const branchError = branchProblem(deliveryMethod, body.pickupBranch);
    if (branchError) throw badRequest(branchError, { pickupBranch: branchError });
    if (quoted && deliveryMethod !== 'ground')
      throw conflict(
        'Un pedido de una cotización se entrega por paquetería terrestre, como se cotizó',
        'delivery_method_refused',
      );
    // Buying for an institution: its contract prices, through the same rule (decision 059).
    const quote =
      quoted ??
      (await quoteCart(tx, body.items, undefined, {
        institutionId: buyingFor?.institution.id ?? null,
        deliveryMethod,
      }));
    refuseDelivery(
      'delivery' in quote ? quote.delivery.options : await deliveryOptionsOf(tx, quote.lines),
      deliveryMethod,
    );
    const method = body.paymentMethod ?? 'card';
    // Buying for an institution (decision 058): its role, purchase-order and spending-limit rules, under this lock.
    const institution = buyingFor
      ? await checkInstitutionOrder(
          tx,
          { userId: user.id, institutionId: buyingFor.institution.id },
          { totalCents: quote.totalCents, purchaseOrder },
          method === 'credit' ? 'order.place_on_credit' : 'order.place',
        )
      : null;
    // The chosen way of payment's maximum (decision 048), for a cart and a converted quotation alike; on credit,
    // the institution's available credit, decided under its row lock (credit/line.ts).
    if (method === 'credit') await refuseCredit(tx, institution!.institutionId, quote.totalCents, new Date());
    else refuseOverLimit(quote.totalCents, method);
    // 'Facturar esta compra' (issue 20): the buyer's own saved profile, or a 404 before anything is written.
    const invoiceProfile =
      body.invoiceProfileId === undefined ? null : await getFiscalProfile(tx, user.id, body.invoiceProfileId);
    const lines = quote.lines.map((l) => {
      if (l.name === null) throw conflict(`El producto ${l.code} no existe`, 'unavailable');
      return { ...l, name: l.name };
    });
    // Controlled chemicals (decision 030): an RFC on file and the end-use declaration, or refused here.
    const declaration = await checkControlledPurchase(tx, {
      userId: user.id,
      lines,
      invoiceProfileId: body.invoiceProfileId,
      declaration: body.controlledDeclaration,
    });
    // The caps on what one shopper holds come after the cart's own limits (price, charge maximum, stock).
    if (Number(held?.orders ?? 0) >= hold.maxPendingOrders)
      throw conflict(TOO_MANY_PENDING, 'too_many_pending');
    // What this order would take from stock: a 'sobre pedido' line's backordered units take none (decision 029).
    const units = lines.reduce((sum, l) => sum + l.quantity - ('backordered' in l ? l.backordered : 0), 0);
    if (Number(held?.units ?? 0) + units > hold.maxReservedUnits) {
      throw conflict(tooManyUnits(hold.maxReservedUnits), 'too_many_units');
    }
    // A SPEI/store order holds its stock for days before any money moves: no one such order may take more than a
    // share of a product's stock (issue 37: a fresh account held all 212 units for 48 h). Card orders pay at once.
    if (isDelayed(method)) {
      const stockOf = new Map(
        (
          await tx
            .select({ code: products.code, stock: products.stock })
            .from(products)
            .where(
              inArray(
                products.code,
                lines.map((l) => l.code),
              ),
            )
        ).map((r) => [r.code, r.stock]),
      );
      for (const l of lines) {
        const stock = stockOf.get(l.code) ?? 0;
        const most = unpaidShareOf(stock, hold.maxUnpaidSharePercent);
        if (Math.min(l.quantity, stock) > most)
          throw conflict(aboveUnpaidShare(l.name, most), 'above_unpaid_share');
      }
    }
    if (body.msiMonths !== undefined && !msiOptions(quote.totalCents).includes(body.msiMonths)) {
      throw conflict(MSI_UNAVAILABLE, 'msi_unavailable');
    }
    const number = await createPendingOrder(tx, {
      userId: user.id,
      address,
      purchaseOrder,
      quotationId: quoted?.quotationId ?? null,
      institutionId: requisition?.row.institutionId ?? institution?.institutionId ?? null,
      idempotencyKey: key,
      requestHash: hash,
      reservationMinutes: hold.minutes,
      paymentMethod: method,
      ...(isDelayed(method) ? { paymentDueAt: delayedPaymentDeadline(method, new Date()) } : {}),
      msiMonths: body.msiMonths ?? null,
      amounts: {
        subtotalCents: quote.subtotalCents,
        shippingCents: quote.shippingCents,
        ivaCents: quote.ivaCents,
        totalCents: quote.totalCents,
      },
      lines,
    });
    await tx
      .update(orders)
      .set({ deliveryMethod, pickupBranch: deliveryMethod === 'pickup' ? (body.pickupBranch ?? null) : null })
      .where(eq(orders.number, number));
    if (method === 'credit') {
      // The debt is born with the order, in the transaction that decided the credit (decision 060).
      await recordMovement(tx, number, ledgerActor({ kind: 'shopper', userId: user.id }), {
        kind: 'credit_sale',
        amountCents: quote.totalCents,
        method: 'credit',
        reference: 'credit-sale',
      });
    } else {
      await recordPaymentAttempt(tx, {
        orderNumber: number,
        gateway: ctx.gateway.name,
        amountCents: quote.totalCents,
      });
    }
    if (quoted) await markQuotationConverted(tx, quoted.quotationId, number);
    if (requisition) await markRequisitionPlaced(tx, requisition, number, user.id, ctx.publicUrl);
    if (declaration) await recordDeclaration(tx, number, declaration);
    if (invoiceProfile) {
      const { id: _id, email, isDefault: _d, ...request } = invoiceProfile;
      await tx
        .insert(purchaseInvoiceRequests)
        .values({ orderNumber: number, userId: user.id, request, email: email || user.email });
    }
    await attachOrder(tx, user.id, key, number);
    return number;
  });
}

/**
 * The charge of this attempt, asked by our reference (a few times while the gateway is down). A charge found
 * that is not ours — another database's, with the same order_id — is 'foreign': it never counts.
 */
async function lookUpCharge(
  ctx: OrderContext,
  attempt: PaymentRecord,
): Promise<Charge | null | 'unavailable' | 'foreign'> {
  for (let i = 0; i < 3; i++) {
    try {
      const found = await ctx.gateway.findChargeByOrderId(attempt.orderRef ?? String(attempt.orderNumber));
      if (!found) return null;
      return chargeMatches(found, { orderRef: attempt.orderRef, amountCents: attempt.amountCents })
        ? found
        : 'foreign';
    } catch (error) {
      if (!(error instanceof GatewayUnavailableError)) throw error;
      await new Promise((r) => setTimeout(r, 200 * (i + 1)));
    }
  }
  return 'unavailable';
}

/** Our side failed (the gateway refused our request, or a charge that is not ours): loud for staff, never 'paid'. */
async function ourError(
  ctx: OrderContext,
  number: number,
  detail: { chargeId: string | null; errorCode: number | null; description: string },
): Promise<Outcome> {
  ctx.log.error(
    { order: number, charge: detail.chargeId, code: detail.errorCode },
    `pago no procesado por un error nuestro o de la pasarela: ${detail.description}`,
  );
  await markPaymentError(
    ctx,
    number,
    { chargeId: detail.chargeId, errorCode: detail.errorCode, message: detail.description },
    GATEWAY,
  );
  await alertStaff(ctx, number, detail);
  return { kind: 'error', number, message: PAYMENT_ERROR_MESSAGE };
}

/**
 * Step 2, outside any transaction: the charge, with this attempt's reference as order_id. The gateway refuses
 * a second charge for the same order_id (1006), so a retry can never charge twice; and the reference is unique
 * across databases, so a 1006 never finds somebody else's charge — and if it does, it does not count.
 */
async function chargeOrder(
  ctx: OrderContext,
  user: SessionUser,
  number: number,
  body: PlaceOrder,
): Promise<Outcome> {
  const [order] = await ctx.db
    .select({ status: orders.status, totalCents: orders.totalCents, paidAt: orders.paidAt })
    .from(orders)
    .where(eq(orders.number, number));
  if (!order) return { kind: 'unknown', number };
  if (order.status === 'payment_failed') return storedFailure(ctx, number);
  if (order.status === 'cancelled' && !order.paidAt) return storedError(ctx, number);
  if (order.status !== 'pending_payment') return { kind: 'paid', number };
  const method = body.paymentMethod ?? 'card';
  if (method === 'credit') {
    await confirmOnCredit(ctx, number, user.id);
    return { kind: 'paid', number };
  }
  if (isDelayed(method)) return chargeDelayed(ctx, user, number, method);

  let attempt = await latestPayment(ctx.db, number);
  if (!attempt) return { kind: 'unknown', number };
  // The 3-D Secure attempt is the one after an anti-fraud decline (3005); it is made once.
  let threeDs = (await previousAttempt(ctx, number, attempt.id))?.errorCode === String(ANTIFRAUD_DECLINE);

  for (let round = 0; round < 2; round++) {
    // Whatever an earlier round did, the gateway knows: never create before asking, except the first time.
    if (round > 0) {
      const found = await lookUpCharge(ctx, attempt);
      if (found === 'unavailable') return { kind: 'unknown', number };
      if (found === 'foreign') return foreign(ctx, number, attempt);
      if (found) return applyCharge(ctx, number, found, GATEWAY);
    }
    try {
      const charge = await ctx.gateway.createCharge({
        // The schema requires both for a card purchase.
        token: body.cardToken ?? '',
        deviceSessionId: body.deviceSessionId ?? '',
        msiMonths: body.msiMonths,
        amountCents: attempt.amountCents,
        orderId: attempt.orderRef ?? String(number),
        description: `Pedido ${number} — ${shop.tradeName}`,
        customer: {
          name: user.nombre,
          lastName: `${user.apellidoPat} ${user.apellidoMat}`.trim(),
          email: user.email,
          phoneNumber: user.telefono,
        },
        use3dSecure: threeDs,
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
        const found = await lookUpCharge(ctx, attempt);
        if (found === 'foreign') return foreign(ctx, number, attempt);
        if (found && found !== 'unavailable') return applyCharge(ctx, number, found, GATEWAY);
        return { kind: 'unknown', number };
      }
      const kind = errorKind(error.errorCode);
      if (kind === 'ours') {
        return ourError(ctx, number, {
          chargeId: null,
          errorCode: error.errorCode,
          description: `Openpay ${error.httpCode}/${error.errorCode ?? '-'}: ${error.description ?? ''}`,
        });
      }
      if (error.errorCode === ANTIFRAUD_DECLINE && !threeDs) {
        // Selective authentication (as Openpay's own plugins do): the anti-fraud system asks for the bank's
        // word, so the same card token is charged once more with 3-D Secure, as a new attempt.
        await updatePayment(ctx.db, attempt.id, {
          status: 'failed',
          errorCode: String(ANTIFRAUD_DECLINE),
          errorMessage: declineMessage(ANTIFRAUD_DECLINE),
        });
        attempt = await recordPaymentAttempt(ctx.db, {
          orderNumber: number,
          gateway: ctx.gateway.name,
          amountCents: attempt.amountCents,
        });
        threeDs = true;
        round = -1;
        continue;
      }
      // An MSI charge the card cannot take (a debit card the token did not tell us about): say why, not 'declined'.
      const message =
        error.errorCode === OPERATION_NOT_ALLOWED && body.msiMonths
          ? MSI_NOT_ON_DEBIT
          : declineMessage(error.errorCode);
      await markPaymentFailed(ctx, number, { chargeId: null, errorCode: error.errorCode, message }, GATEWAY);
      return storedFailure(ctx, number);
    }
  }
  const found = await lookUpCharge(ctx, attempt);
  if (found === 'foreign') return foreign(ctx, number, attempt);
  if (found && found !== 'unavailable') return applyCharge(ctx, number, found, GATEWAY);
  const payment = await latestPayment(ctx.db, number);
  if (payment?.status === 'in_progress') await updatePayment(ctx.db, payment.id, { status: 'unknown' });
  return { kind: 'unknown', number };
}

/**
 * SPEI or cash at a store (issue 21): the charge is created with our reference as order_id and the order's
 * deadline as due_date; the gateway answers it in_progress with the CLABE or the Paynet reference, which are
 * stored and mailed — the order keeps its stock until the deadline. If the gateway cannot be reached, or refuses,
 * the order is released at once and the buyer told: nobody has the reference, so nothing can be paid or charged.
 */
async function chargeDelayed(
  ctx: OrderContext,
  user: SessionUser,
  number: number,
  method: DelayedMethod,
): Promise<Outcome> {
  const attempt = await latestPayment(ctx.db, number);
  const [order] = await ctx.db
    .select({ dueAt: orders.paymentDueAt })
    .from(orders)
    .where(eq(orders.number, number));
  if (!attempt || !order?.dueAt) return { kind: 'unknown', number };
  let charge: Charge | null = null;
  try {
    // A resumed request asks first: the charge may exist from the request that died.
    const found = await lookUpCharge(ctx, attempt);
    if (found === 'foreign') return foreign(ctx, number, attempt);
    charge =
      found && found !== 'unavailable'
        ? found
        : await ctx.gateway.createDelayedCharge({
            method,
            amountCents: attempt.amountCents,
            orderId: attempt.orderRef ?? String(number),
            description: `Pedido ${number} — ${shop.tradeName}`,
            customer: {
              name: user.nombre,
              lastName: `${user.apellidoPat} ${user.apellidoMat}`.trim(),
              email: user.email,
              phoneNumber: user.telefono,
            },
            dueDate: order.dueAt,
          });
  } catch (error) {
    if (!(error instanceof GatewayError) && !(error instanceof GatewayUnavailableError)) throw error;
    const detail =
      error instanceof GatewayError
        ? `Openpay ${error.httpCode}/${error.errorCode ?? '-'}: ${error.description ?? ''}`
        : `Openpay no respondió: ${error.message}`;
    ctx.log.warn({ order: number, err: error }, 'no se pudo crear el cargo SPEI/tienda; se libera el pedido');
    await markPaymentError(ctx, number, { chargeId: null, errorCode: null, message: detail }, GATEWAY);
    return { kind: 'error', number, message: DELAYED_CHARGE_ERROR };
  }
  if (charge.status === 'in_progress') {
    const instructions = instructionsOf(charge, attempt.amountCents, order.dueAt);
    if (!instructions) {
      return ourError(ctx, number, {
        chargeId: charge.id,
        errorCode: null,
        description: `Openpay no devolvió las instrucciones de pago del cargo ${charge.id}`,
      });
    }
    if (await markAwaitingPayment(ctx, number, charge, instructions)) return { kind: 'awaiting', number };
  }
  // Paid already (an early webhook), or the answer says otherwise: the charge's word decides.
  return applyCharge(ctx, number, charge, GATEWAY);
}

async function previousAttempt(ctx: OrderContext, number: number, beforeId: number) {
  const [row] = await ctx.db
    .select()
    .from(payments)
    .where(and(eq(payments.orderNumber, number), lt(payments.id, beforeId)))
    .orderBy(desc(payments.id))
    .limit(1);
  return row;
}

/** A charge with our order_id that is not ours (another database on the same merchant): never 'paid'. */
function foreign(ctx: OrderContext, number: number, attempt: PaymentRecord): Promise<Outcome> {
  return ourError(ctx, number, {
    chargeId: null,
    errorCode: DUPLICATE_ORDER_ID,
    description: `Openpay ya tiene un cargo con la referencia ${attempt.orderRef ?? number} que no es de este pedido (importe, moneda o referencia distintos); no se cobró`,
  });
}

/**
 * Meses sin intereses are for credit cards only (decision 048): the token's card type is asked of the gateway before
 * the order exists, so a debit card is refused with nothing reserved or charged. A gateway that does not tell lets
 * the charge decide (Openpay refuses it; chargeOrder maps the answer).
 */
async function refuseMsiOnDebit(ctx: OrderContext, body: PlaceOrder): Promise<void> {
  if ((body.paymentMethod ?? 'card') !== 'card' || !body.msiMonths || !body.cardToken) return;
  if ((await ctx.gateway.cardTypeOfToken(body.cardToken)) === 'debit') {
    throw conflict(MSI_NOT_ON_DEBIT, 'msi_debit_card');
  }
}

/** What the server adds to a placement that the browser cannot send: an approved requisition (decision 059). */
export type PlaceExtra = {
  requisition?: RequisitionClaim;
  /**
   * The institution the session buys for and the member's role (read from the session, never the body): its rules
   * (decision 058), its shared addresses and quotations, and its contract prices (decision 059).
   */
  buyingFor?: Membership | null;
};

/** POST /api/orders: create (or resume) the order for this Idempotency-Key and charge it. */
export async function placeOrder(
  ctx: OrderContext,
  user: SessionUser,
  key: string,
  body: PlaceOrder,
  extra: PlaceExtra = {},
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
    return await placeWithKey(
      ctx,
      user,
      key,
      hash,
      body,
      claim.kind === 'resume' ? claim.orderNumber : null,
      extra,
    );
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
  extra: PlaceExtra,
): Promise<PlaceOrderResult> {
  let number = resumed;
  try {
    if (number === null) {
      await refuseMsiOnDebit(ctx, body);
      number = await placePendingOrder(ctx, user, key, hash, body, extra);
    }
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
