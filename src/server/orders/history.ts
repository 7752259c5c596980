import { and, asc, desc, eq, inArray, ne, notInArray, or, sql } from 'drizzle-orm';
import { isDelayed, ORDER_PAYMENT_METHOD_LABELS } from '../../shared/payment-methods.ts';
import { RETURN_STATE_LABELS } from '../../shared/returns.ts';
import type { InvoiceState, OrderDetail, OrderStatus, OrderSummary } from '../../shared/schemas/orders.ts';
import { shop } from '../../shared/shop.ts';
import { productImageUrl } from '../cart/quote.ts';
import type { Db } from '../db/client.ts';
import { invoices, orderLines, orders, products, quotations, returns, users } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { deliveryView, shipmentsOfOrders } from '../shipments/view.ts';
import { invoiceStates } from './invoice-state.ts';
import { balancesOf } from './ledger.ts';
import type { Order } from './lock.ts';
import { latestPayment } from './payment-records.ts';
import { refundableOf, refundsOf, refundsOfOrders } from './refunds.ts';
import { guideOf, invoiceBlock, ORDER_NOT_FOUND, orderStatusLabel, shopperMayCancel } from './rules.ts';

/** The shopper's history and receipt (spec §3–4): only their own orders. */

export const NO_ORDERS = 'No tiene pedidos registrados';

/** The history's buttons (spec §4; SPEC-NOTES 8 and 9). */
function actions(order: Order, invoiceState: InvoiceState, now = Date.now()) {
  const windowMs = shop.invoicingWindowDays * 24 * 60 * 60 * 1000;
  const inWindow = order.paidAt !== null && now - order.paidAt.getTime() <= windowMs;
  return {
    invoiceState,
    canInvoice: invoiceBlock(order) === null && invoiceState !== 'issued' && inWindow,
    canCancelInvoice: invoiceState === 'issued' && order.status !== 'cancelled',
    // A valid invoice does not stop a cancellation any more: its CFDI follows the refund (decision 045).
    canCancel: shopperMayCancel(order, false),
  };
}

/**
 * Card attempts that never got paid (declined, abandoned on the bank's page, still waiting): not purchases, so
 * not in the shopper's history (issue 16). Their receipts stay reachable by number, and staff see every order.
 */
export const NEVER_PAID: readonly OrderStatus[] = ['pending_payment', 'payment_failed'];

/** GET /api/orders — the shopper's purchases, newest first; the server's message when there are none. */
export async function listOrders(
  db: Db,
  userId: number,
): Promise<{ orders: OrderSummary[]; message: string | null }> {
  const list = await db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        or(
          notInArray(orders.status, [...NEVER_PAID]),
          // A SPEI or store order awaiting its payment is a purchase the buyer is paying (issue 21).
          and(eq(orders.status, 'pending_payment'), ne(orders.paymentMethod, 'card')),
        ),
      ),
    )
    .orderBy(desc(orders.createdAt), desc(orders.number));
  const invoices = await invoiceStates(
    db,
    list.map((o) => o.number),
  );
  const refunds = await refundsOfOrders(
    db,
    list.map((o) => o.number),
  );
  const returnRows = list.length
    ? await db
        .select({ id: returns.id, orderNumber: returns.orderNumber, state: returns.state })
        .from(returns)
        .where(
          inArray(
            returns.orderNumber,
            list.map((o) => o.number),
          ),
        )
        .orderBy(asc(returns.id))
    : [];
  const shipped = await shipmentsOfOrders(
    db,
    list.map((o) => o.number),
  );
  const summaries: OrderSummary[] = [];
  for (const o of list) {
    const orderActions = actions(o, invoices.get(o.number) ?? 'none');
    summaries.push({
      number: o.number,
      date: o.createdAt.toISOString(),
      status: o.status,
      statusLabel: orderStatusLabel(o),
      trackingGuide: guideOf(o.trackingGuide),
      shipments: shipped.get(o.number) ?? [],
      totalCents: o.totalCents,
      paymentDeadline: awaitingDeadline(o),
      paymentMethod: o.paymentMethod,
      // Only for the orders the shopper may cancel (paid, not shipped: a few), so the ledger is read for few.
      refundableCents: orderActions.canCancel ? await refundableOf(db, o.number) : null,
      refunds: refunds.get(o.number) ?? [],
      returns: returnRows
        .filter((r) => r.orderNumber === o.number)
        .map((r) => ({ id: r.id, state: r.state, stateLabel: RETURN_STATE_LABELS[r.state] })),
      ...orderActions,
    });
  }
  return { orders: summaries, message: list.length === 0 ? NO_ORDERS : null };
}

/** The deadline of a SPEI or store payment still awaited, else null. */
const awaitingDeadline = (o: Order) =>
  o.status === 'pending_payment' && isDelayed(o.paymentMethod) && o.paymentDueAt
    ? o.paymentDueAt.toISOString()
    : null;

/** How the order is paid, as its page shows it (instructions only while the payment is awaited). */
async function paymentView(db: Db, o: Order): Promise<OrderDetail['payment']> {
  const attempt = isDelayed(o.paymentMethod) ? await latestPayment(db, o.number) : undefined;
  return {
    method: o.paymentMethod,
    methodLabel: ORDER_PAYMENT_METHOD_LABELS[o.paymentMethod] ?? o.paymentMethod,
    deadline: awaitingDeadline(o),
    instructions: o.status === 'pending_payment' ? (attempt?.instructions ?? null) : null,
    msiMonths: o.msiMonths,
  };
}

/** An order's lines as the receipt and the back office show them (what was bought, at the price paid). */
export async function orderLineViews(db: Db, number: number) {
  const lines = await db
    .select({
      code: orderLines.productCode,
      description: orderLines.description,
      unitPriceCents: orderLines.unitPriceCents,
      quantity: orderLines.quantity,
      backorderedQuantity: orderLines.backorderedQuantity,
      backorderFrom: orderLines.backorderFrom,
      backorderTo: orderLines.backorderTo,
      imageHash: products.imageHash,
    })
    .from(orderLines)
    .leftJoin(products, eq(products.code, orderLines.productCode))
    .where(eq(orderLines.orderNumber, number))
    .orderBy(asc(orderLines.lineNo));
  return lines.map(({ imageHash, ...l }) => ({
    ...l,
    lineTotalCents: l.unitPriceCents * l.quantity,
    imageUrl: productImageUrl(l.code, imageHash),
  }));
}

/** The folio of the quotation an order was converted from (issue 20), or null. */
export const quotationFolioOfOrder = sql<
  string | null
>`(select ${quotations.folio} from ${quotations} where ${quotations.id} = ${orders.quotationId})`;

/** The receptor (name and RFC) of the order's valid invoice, as stamped in the CFDI; null when there is none. */
async function issuedReceptor(db: Db, number: number): Promise<{ nombre: string; rfc: string } | null> {
  const [row] = await db
    .select({ nombreFiscal: invoices.nombreFiscal, rfc: invoices.rfc, snapshot: invoices.snapshot })
    .from(invoices)
    .where(and(eq(invoices.orderNumber, number), eq(invoices.status, 'issued'), eq(invoices.kind, 'I')))
    .orderBy(desc(invoices.id))
    .limit(1);
  if (!row) return null;
  return row.snapshot?.receptor
    ? { nombre: row.snapshot.receptor.nombre, rfc: row.snapshot.receptor.rfc }
    : { nombre: row.nombreFiscal, rfc: row.rfc };
}

/** GET /api/orders/:number — only the owner's; anyone else gets the same 404 as a missing order. */
export async function getOrder(db: Db, userId: number, number: number): Promise<OrderDetail> {
  const [found] = await db
    .select({
      order: orders,
      nombre: users.nombre,
      apellidoPat: users.apellidoPat,
      apellidoMat: users.apellidoMat,
      lada: users.lada,
      telefono: users.telefono,
      quotationFolio: quotationFolioOfOrder,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(and(eq(orders.number, number), eq(orders.userId, userId)));
  if (!found) throw notFound(ORDER_NOT_FOUND);
  const o = found.order;
  const balances = await balancesOf(db, number);
  const invoiceState = (await invoiceStates(db, [number])).get(number) ?? 'none';
  // 'Facturar a' is whom the valid CFDI was issued to (its receptor), not the account holder (issue 37, item 4).
  const receptor = invoiceState === 'issued' ? await issuedReceptor(db, number) : null;
  return {
    number: o.number,
    date: o.createdAt.toISOString(),
    paidAt: o.paidAt?.toISOString() ?? null,
    cancelledAt: o.status === 'cancelled' && o.cancelledAt ? o.cancelledAt.toISOString() : null,
    status: o.status,
    statusLabel: orderStatusLabel(o),
    address: o.address,
    billingName:
      receptor?.nombre ?? [found.nombre, found.apellidoPat, found.apellidoMat].filter(Boolean).join(' '),
    billingNumber: receptor ? `RFC ${receptor.rfc}` : `+${found.lada} ${found.telefono}`,
    delivery: await deliveryView(db, o, 'buyer'),
    trackingGuide: guideOf(o.trackingGuide),
    deliveryDate: o.deliveryDate ? o.deliveryDate.slice(0, 10) : null,
    deliveryProvider: o.deliveryProvider,
    lines: await orderLineViews(db, number),
    shipNowBy: o.shipNowBy,
    subtotalCents: o.subtotalCents,
    shippingCents: o.shippingCents,
    ivaCents: o.ivaCents,
    totalCents: o.totalCents,
    refundedCents: balances.refundedCents,
    refunds: await refundsOf(db, number),
    purchaseOrder: o.purchaseOrder,
    quotationFolio: found.quotationFolio,
    payment: await paymentView(db, o),
    ...actions(o, invoiceState),
  };
}
