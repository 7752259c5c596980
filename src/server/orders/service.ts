import { sql } from 'drizzle-orm';
import { formatMoney } from '../../shared/money.ts';
import {
  type InvoiceState,
  NO_GUIDE,
  ORDER_STATUS_LABELS,
  type OrderDetail,
  type OrderStatus,
  type OrderSummary,
} from '../../shared/schemas/orders.ts';
import { shop } from '../../shared/shop.ts';
import { productImageUrl } from '../cart/quote.ts';
import type { Db } from '../db/client.ts';
import type { AddressSnapshot } from '../db/schema.ts';
import { AppError, conflict, notFound } from '../http/errors.ts';
import { GatewayError, GatewayUnavailableError } from '../payments/gateway.ts';
import { invoiceStates } from './invoice-state.ts';
import { enqueueOrderCancelledMail } from './mail.ts';
import type { CheckoutContext } from './settle.ts';
import { rows } from './sql.ts';
import { returnStock } from './stock.ts';

export { placeOrder } from './place-order.ts';

export const NO_ORDERS = 'No tiene pedidos registrados';
const ORDER_NOT_FOUND = 'Pedido no encontrado';
const AFTER_PAYMENT: OrderStatus[] = ['paid', 'preparing', 'shipped', 'delivered'];

type OrderRow = {
  number: number;
  user_id: number;
  status: OrderStatus;
  subtotal_cents: number;
  shipping_cents: number;
  iva_cents: number;
  total_cents: number;
  address: AddressSnapshot;
  tracking_guide: string | null;
  delivery_provider: string | null;
  delivery_date: string | Date | null;
  created_at: string | Date;
  paid_at: string | Date | null;
  cancelled_at: string | Date | null;
};

const iso = (v: string | Date) => new Date(v).toISOString();
const guideOf = (g: string | null) => (g && g.trim() !== '' ? g : NO_GUIDE);
const unassigned = (g: string | null) => guideOf(g) === NO_GUIDE;

/** The history's buttons (spec §4; SPEC-NOTES 8 and 9). */
function actions(order: OrderRow, invoiceState: InvoiceState, now = Date.now()) {
  const windowMs = shop.invoicingWindowDays * 24 * 60 * 60 * 1000;
  const inWindow = order.paid_at !== null && now - new Date(order.paid_at).getTime() <= windowMs;
  return {
    invoiceState,
    canInvoice: AFTER_PAYMENT.includes(order.status) && invoiceState !== 'issued' && inWindow,
    canCancelInvoice: invoiceState === 'issued' && order.status !== 'cancelled',
    canCancel:
      order.status === 'paid' &&
      invoiceState !== 'issued' &&
      unassigned(order.tracking_guide) &&
      order.cancelled_at === null,
  };
}

const ORDER_COLUMNS =
  sql.raw(`number, user_id, status, subtotal_cents, shipping_cents, iva_cents, total_cents,
  address, tracking_guide, delivery_provider, delivery_date::text as delivery_date, created_at, paid_at, cancelled_at`);

/** GET /api/orders — newest first; the server's message when there are none. */
export async function listOrders(
  db: Db,
  userId: number,
): Promise<{ orders: OrderSummary[]; message: string | null }> {
  const list = await rows<OrderRow>(
    db,
    sql`select ${ORDER_COLUMNS} from orders where user_id = ${userId} order by created_at desc, number desc`,
  );
  const invoices = await invoiceStates(
    db,
    list.map((o) => o.number),
  );
  return {
    orders: list.map((o) => ({
      number: o.number,
      date: iso(o.created_at),
      status: o.status,
      statusLabel: ORDER_STATUS_LABELS[o.status] ?? o.status,
      trackingGuide: guideOf(o.tracking_guide),
      totalCents: Number(o.total_cents),
      ...actions(o, invoices.get(o.number) ?? 'none'),
    })),
    message: list.length === 0 ? NO_ORDERS : null,
  };
}

/** GET /api/orders/:number — only the owner's; anyone else gets the same 404 as a missing order. */
export async function getOrder(db: Db, userId: number, number: number): Promise<OrderDetail> {
  const [o] = await rows<
    OrderRow & { nombre: string; apellido_pat: string; apellido_mat: string; lada: string; telefono: string }
  >(
    db,
    sql`select o.*, u.nombre, u.apellido_pat, u.apellido_mat, u.lada, u.telefono
      from (select ${ORDER_COLUMNS} from orders where number = ${number} and user_id = ${userId}) o
      join users u on u.id = o.user_id`,
  );
  if (!o) throw notFound(ORDER_NOT_FOUND);
  const lines = await rows<{
    product_code: string;
    description: string;
    unit_price_cents: number;
    quantity: number;
    image_hash: string | null;
  }>(
    db,
    sql`select l.product_code, l.description, l.unit_price_cents, l.quantity, p.image_hash
      from order_lines l left join products p on p.code = l.product_code
      where l.order_number = ${number} order by l.line_no`,
  );
  const [refund] = await rows<{ refunded: number }>(
    db,
    sql`select coalesce(sum(refunded_cents), 0)::int as refunded from payments where order_number = ${number}`,
  );
  const invoiceState = (await invoiceStates(db, [number])).get(number) ?? 'none';
  return {
    number: o.number,
    date: iso(o.created_at),
    paidAt: o.paid_at ? iso(o.paid_at) : null,
    cancelledAt: o.status === 'cancelled' && o.cancelled_at ? iso(o.cancelled_at) : null,
    status: o.status,
    statusLabel: ORDER_STATUS_LABELS[o.status] ?? o.status,
    address: o.address,
    billingName: [o.nombre, o.apellido_pat, o.apellido_mat].filter(Boolean).join(' '),
    billingNumber: `+${o.lada} ${o.telefono}`,
    trackingGuide: guideOf(o.tracking_guide),
    deliveryDate: o.delivery_date ? String(o.delivery_date).slice(0, 10) : null,
    deliveryProvider: o.delivery_provider,
    lines: lines.map((l) => ({
      code: l.product_code,
      description: l.description,
      unitPriceCents: Number(l.unit_price_cents),
      quantity: Number(l.quantity),
      lineTotalCents: Number(l.unit_price_cents) * Number(l.quantity),
      imageUrl: productImageUrl(l.product_code, l.image_hash),
    })),
    subtotalCents: Number(o.subtotal_cents),
    shippingCents: Number(o.shipping_cents),
    ivaCents: Number(o.iva_cents),
    totalCents: Number(o.total_cents),
    refundedCents: Number(refund?.refunded ?? 0),
    ...(o.status === 'cancelled'
      ? { ...actions(o, invoiceState), canCancel: false }
      : actions(o, invoiceState)),
  };
}

/** Why an order cannot be cancelled, in the shopper's words. */
function refusal(o: OrderRow, invoiceState: InvoiceState): AppError {
  if (o.status === 'cancelled') return conflict('El pedido ya está cancelado', 'already_cancelled');
  if (invoiceState === 'issued') return conflict('Cancele primero la factura del pedido', 'invoiced');
  if (o.status !== 'paid' && !AFTER_PAYMENT.includes(o.status)) {
    return conflict('Solo se pueden cancelar pedidos pagados', 'not_paid');
  }
  if (!unassigned(o.tracking_guide) || o.status !== 'paid') {
    return conflict('El pedido ya fue enviado y no se puede cancelar', 'shipped');
  }
  return conflict('La cancelación del pedido ya está en proceso', 'cancelling');
}

/**
 * POST /api/orders/:number/cancel (SPEC-NOTES 8): a paid order, not invoiced, without a tracking
 * guide, is refunded in full through the gateway at once, its stock returned ('order_cancel'), and
 * the shopper mailed. The order is claimed first (cancelled_at) so two clicks refund once.
 */
export async function cancelOrder(
  ctx: CheckoutContext,
  userId: number,
  number: number,
): Promise<{ message: string; order: OrderDetail }> {
  const [o] = await rows<OrderRow>(
    ctx.db,
    sql`select ${ORDER_COLUMNS} from orders where number = ${number} and user_id = ${userId}`,
  );
  if (!o) throw notFound(ORDER_NOT_FOUND);
  const invoiceState = (await invoiceStates(ctx.db, [number])).get(number) ?? 'none';
  if (!actions(o, invoiceState).canCancel) throw refusal(o, invoiceState);

  const claimed = await rows<{ number: number }>(
    ctx.db,
    sql`update orders set cancelled_at = now(), updated_at = now()
      where number = ${number} and user_id = ${userId} and status = 'paid' and cancelled_at is null
        and (tracking_guide is null or trim(tracking_guide) in ('', ${NO_GUIDE}))
        and not exists (select 1 from invoices i where i.order_number = orders.number
          and i.status in ('pending', 'issued'))
      returning number`,
  );
  if (claimed.length === 0) throw refusal({ ...o, cancelled_at: new Date() }, invoiceState);

  const [payment] = await rows<{ id: number; charge_id: string | null; amount_cents: number }>(
    ctx.db,
    sql`select id, charge_id, amount_cents from payments
      where order_number = ${number} and status = 'completed' order by id desc limit 1`,
  );
  try {
    if (!payment?.charge_id) throw new GatewayError('request', null, 'sin cargo', 404, null);
    await refundOnce(ctx, payment.charge_id, number);
  } catch (error) {
    await ctx.db.execute(
      sql`update orders set cancelled_at = null where number = ${number} and status = 'paid'`,
    );
    ctx.log.error({ err: error, order: number }, 'no se pudo reembolsar el pedido');
    throw new AppError(
      502,
      'refund_failed',
      'No se pudo procesar el reembolso con el banco. Intente de nuevo en unos minutos.',
    );
  }
  await finishCancellation(ctx, number, Number(payment.amount_cents), payment.id);
  const order = await getOrder(ctx.db, userId, number);
  return {
    message: `Pedido #${number} cancelado. Reembolsamos ${formatMoney(order.refundedCents)} a su tarjeta.`,
    order,
  };
}

/** Refund, or confirm it already happened (a retry after a timeout must not fail nor refund twice). */
async function refundOnce(ctx: CheckoutContext, chargeId: string, number: number) {
  try {
    await ctx.gateway.refund(chargeId, { description: `Cancelación del pedido ${number}` });
  } catch (error) {
    if (!(error instanceof GatewayError || error instanceof GatewayUnavailableError)) throw error;
    const charge = await ctx.gateway.getCharge(chargeId);
    if (charge.status !== 'refunded') throw error;
  }
}

/** paid → cancelled with the stock back and the mail, once. Also used to finish a cancellation after a crash. */
export async function finishCancellation(
  ctx: CheckoutContext,
  number: number,
  refundedCents: number,
  paymentId: number,
) {
  await ctx.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const [order] = await rows<OrderRow>(
      tx,
      sql`update orders set status = 'cancelled', cancel_reason = 'Cancelado por el cliente',
          cancelled_at = coalesce(cancelled_at, now()), updated_at = now()
        where number = ${number} and status = 'paid'
        returning ${ORDER_COLUMNS}`,
    );
    if (!order) return;
    await returnStock(tx, number, 'order_cancel');
    await tx.execute(sql`update payments set status = 'refunded', refunded_cents = ${refundedCents}, updated_at = now()
      where id = ${paymentId}`);
    await enqueueOrderCancelledMail(
      tx,
      {
        number,
        userId: order.user_id,
        subtotalCents: Number(order.subtotal_cents),
        shippingCents: Number(order.shipping_cents),
        ivaCents: Number(order.iva_cents),
        totalCents: Number(order.total_cents),
        address: order.address,
      },
      refundedCents,
      ctx.publicUrl,
    );
  });
}
