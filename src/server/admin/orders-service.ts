import { type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { formatMoney } from '../../shared/money.ts';
import type {
  AdminOrderDetail,
  AdminOrderList,
  AdminOrderSummary,
  ShipOrderInput,
} from '../../shared/schemas/admin.ts';
import { NO_GUIDE, ORDER_STATUS_LABELS, type OrderStatus } from '../../shared/schemas/orders.ts';
import type { Db } from '../db/client.ts';
import type { AddressSnapshot } from '../db/schema.ts';
import { AppError, badRequest, conflict, notFound } from '../http/errors.ts';
import { enqueueOrderCancelledMail } from '../orders/mail.ts';
import { returnStock } from '../orders/stock.ts';
import { GatewayError, GatewayUnavailableError, type PaymentGateway } from '../payments/gateway.ts';
import { type Actor, auditOf, PAGE_SIZE, pagesOf, writeAudit } from './audit.ts';
import { enqueueOrderShippedMail } from './mails.ts';
import { iso, isoOrNull, mexicoDayStart, rows } from './sql.ts';

export type StaffContext = { db: Db; gateway: PaymentGateway; publicUrl: string; log: FastifyBaseLogger };

const ORDER_NOT_FOUND = 'Pedido no encontrado';
const label = (s: string) => ORDER_STATUS_LABELS[s as OrderStatus] ?? s;
const guideOf = (g: string | null) => (g && g.trim() !== '' ? g : NO_GUIDE);
const hasGuide = (g: string | null) => guideOf(g) !== NO_GUIDE;
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

type SummaryRow = {
  number: number;
  created_at: string | Date;
  status: OrderStatus;
  customer_name: string;
  email: string;
  total_cents: number;
  tracking_guide: string | null;
  invoice_state: 'none' | 'issued' | 'cancelled';
  rfc: string | null;
};

const SUMMARY_SELECT = sql`select o.number, o.created_at, o.status, o.total_cents, o.tracking_guide,
    trim(u.nombre || ' ' || u.apellido_pat || ' ' || u.apellido_mat) as customer_name, u.email,
    case when exists (select 1 from invoices i where i.order_number = o.number and i.status = 'issued') then 'issued'
         when exists (select 1 from invoices i where i.order_number = o.number and i.status = 'cancelled') then 'cancelled'
         else 'none' end as invoice_state,
    (select i.rfc from invoices i where i.order_number = o.number order by i.id desc limit 1) as rfc
  from orders o join users u on u.id = o.user_id`;

const toSummary = (r: SummaryRow): AdminOrderSummary => ({
  number: Number(r.number),
  date: iso(r.created_at),
  status: r.status,
  statusLabel: label(r.status),
  customerName: r.customer_name,
  email: r.email,
  totalCents: Number(r.total_cents),
  trackingGuide: guideOf(r.tracking_guide),
  invoiceState: r.invoice_state,
  rfc: r.rfc,
});

/** Orders of one shopper (the customer detail). */
export async function ordersOfUser(db: Db, userId: number): Promise<AdminOrderSummary[]> {
  const list = await rows<SummaryRow>(
    db,
    sql`${SUMMARY_SELECT} where o.user_id = ${userId} order by o.created_at desc, o.number desc limit 200`,
  );
  return list.map(toSummary);
}

/** GET /api/admin/orders: filters by status, Mexico City days, and a number, an e-mail or an RFC. */
export async function listAdminOrders(
  db: Db,
  query: {
    status?: OrderStatus | undefined;
    from?: string | undefined;
    to?: string | undefined;
    q?: string | undefined;
    page: number;
  },
): Promise<AdminOrderList> {
  const conditions: SQL[] = [];
  if (query.status) conditions.push(sql`o.status = ${query.status}`);
  if (query.from) conditions.push(sql`o.created_at >= ${mexicoDayStart(query.from)}`);
  if (query.to) {
    const end = mexicoDayStart(query.to);
    end.setUTCDate(end.getUTCDate() + 1);
    conditions.push(sql`o.created_at < ${end}`);
  }
  if (query.from && query.to && query.from > query.to) {
    throw badRequest('La fecha inicial es posterior a la final', {
      from: 'La fecha inicial es posterior a la final',
    });
  }
  const q = query.q?.trim();
  if (q) {
    const like = `%${likeEscape(q)}%`;
    const number = /^#?\d{1,9}$/.test(q) ? Number(q.replace('#', '')) : null;
    conditions.push(sql`(${number !== null ? sql`o.number = ${number} or` : sql``}
      u.email ilike ${like}
      or exists (select 1 from invoices i where i.order_number = o.number and i.rfc ilike ${`${likeEscape(q.toUpperCase())}%`}))`);
  }
  const where = conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
  const [count] = await rows<{ n: number }>(
    db,
    sql`select count(*)::int as n from orders o join users u on u.id = o.user_id ${where}`,
  );
  const list = await rows<SummaryRow>(
    db,
    sql`${SUMMARY_SELECT} ${where} order by o.created_at desc, o.number desc
      limit ${PAGE_SIZE} offset ${(query.page - 1) * PAGE_SIZE}`,
  );
  const total = Number(count?.n ?? 0);
  return { items: list.map(toSummary), total, page: query.page, pages: pagesOf(total) };
}

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
  delivery_date: string | null;
  shipped_at: string | Date | null;
  created_at: string | Date;
  paid_at: string | Date | null;
  cancelled_at: string | Date | null;
  cancel_reason: string | null;
};

const ORDER_COLUMNS =
  sql.raw(`number, user_id, status, subtotal_cents, shipping_cents, iva_cents, total_cents, address,
  tracking_guide, delivery_provider, delivery_date::text as delivery_date, shipped_at, created_at, paid_at,
  cancelled_at, cancel_reason`);

async function loadOrder(db: Db, number: number): Promise<OrderRow> {
  const [o] = await rows<OrderRow>(db, sql`select ${ORDER_COLUMNS} from orders where number = ${number}`);
  if (!o) throw notFound(ORDER_NOT_FOUND);
  return o;
}

async function hasIssuedInvoice(db: Db, number: number): Promise<boolean> {
  const [row] = await rows<{ n: number }>(
    db,
    sql`select count(*)::int as n from invoices where order_number = ${number} and status in ('issued', 'pending')`,
  );
  return Number(row?.n ?? 0) > 0;
}

const CANCELLABLE: OrderStatus[] = ['paid', 'preparing'];

/** Why staff cannot cancel this order with a refund, or null when they can. */
function cancelBlocked(o: OrderRow, invoiced: boolean): string | null {
  if (o.status === 'cancelled') return 'El pedido ya está cancelado';
  if (!CANCELLABLE.includes(o.status) && o.status !== 'shipped' && o.status !== 'delivered')
    return 'Solo se pueden cancelar con reembolso pedidos pagados';
  if (o.status === 'shipped' || o.status === 'delivered' || hasGuide(o.tracking_guide))
    return 'El pedido ya fue enviado; no se puede cancelar';
  if (invoiced) return 'El pedido tiene una factura vigente: cancele primero la factura';
  if (o.cancelled_at !== null) return 'La cancelación del pedido ya está en proceso';
  return null;
}

/** GET /api/admin/orders/:number */
export async function getAdminOrder(db: Db, number: number): Promise<AdminOrderDetail> {
  const o = await loadOrder(db, number);
  const [summary] = await rows<SummaryRow>(db, sql`${SUMMARY_SELECT} where o.number = ${number}`);
  const [user] = await rows<{ lada: string; telefono: string }>(
    db,
    sql`select lada, telefono from users where id = ${o.user_id}`,
  );
  const lines = await rows<{
    product_code: string;
    description: string;
    unit_price_cents: number;
    quantity: number;
  }>(
    db,
    sql`select product_code, description, unit_price_cents, quantity from order_lines
      where order_number = ${number} order by line_no`,
  );
  const payments = await rows<{
    gateway: string;
    charge_id: string | null;
    status: string;
    amount_cents: number;
    refunded_cents: number;
    created_at: string | Date;
  }>(
    db,
    sql`select gateway, charge_id, status, amount_cents, refunded_cents, created_at from payments
      where order_number = ${number} order by id`,
  );
  const invoiced = await hasIssuedInvoice(db, number);
  const blocked = cancelBlocked(o, invoiced);
  const open = o.cancelled_at === null;
  return {
    ...toSummary(summary!),
    userId: Number(o.user_id),
    phone: user ? `+${user.lada} ${user.telefono}` : '',
    paidAt: isoOrNull(o.paid_at),
    cancelledAt: o.status === 'cancelled' ? isoOrNull(o.cancelled_at) : null,
    cancelReason: o.cancel_reason,
    shippedAt: isoOrNull(o.shipped_at),
    deliveryProvider: o.delivery_provider,
    deliveryDate: o.delivery_date ? String(o.delivery_date).slice(0, 10) : null,
    address: o.address,
    lines: lines.map((l) => ({
      code: l.product_code,
      description: l.description,
      unitPriceCents: Number(l.unit_price_cents),
      quantity: Number(l.quantity),
      lineTotalCents: Number(l.unit_price_cents) * Number(l.quantity),
    })),
    subtotalCents: Number(o.subtotal_cents),
    shippingCents: Number(o.shipping_cents),
    ivaCents: Number(o.iva_cents),
    refundedCents: payments.reduce((sum, p) => sum + Number(p.refunded_cents), 0),
    payments: payments.map((p) => ({
      gateway: p.gateway,
      chargeId: p.charge_id,
      status: p.status,
      amountCents: Number(p.amount_cents),
      refundedCents: Number(p.refunded_cents),
      createdAt: iso(p.created_at),
    })),
    actions: {
      prepare: open && o.status === 'paid',
      ship: open && o.status === 'preparing',
      deliver: o.status === 'shipped',
      cancel: blocked === null,
      cancelBlockedReason: blocked,
    },
    history: await auditOf(db, 'order', String(number)),
  };
}

/** The one state each transition starts from (paid → preparing → shipped → delivered). */
const TRANSITIONS = {
  prepare: { from: 'paid', to: 'preparing', action: 'order.prepare' },
  ship: { from: 'preparing', to: 'shipped', action: 'order.ship' },
  deliver: { from: 'shipped', to: 'delivered', action: 'order.deliver' },
} as const satisfies Record<string, { from: OrderStatus; to: OrderStatus; action: string }>;
type Transition = keyof typeof TRANSITIONS;

function refused(o: OrderRow, t: Transition): AppError {
  const { from, to } = TRANSITIONS[t];
  if (o.status === 'cancelled' || (o.cancelled_at !== null && o.status === 'paid'))
    return conflict(
      `El pedido #${o.number} está cancelado; no se puede marcar «${label(to)}»`,
      'invalid_transition',
    );
  return conflict(
    `No se puede marcar «${label(to)}» un pedido «${label(o.status)}»: solo un pedido «${label(from)}» puede pasar a «${label(to)}»`,
    'invalid_transition',
  );
}

const snapshot = (o: OrderRow) => ({
  status: o.status,
  trackingGuide: guideOf(o.tracking_guide),
  deliveryProvider: o.delivery_provider,
  deliveryDate: o.delivery_date,
});

async function transition(
  ctx: StaffContext,
  actor: Actor,
  number: number,
  t: Transition,
  ship?: { trackingGuide: string; deliveryProvider: string; deliveryDate: string },
): Promise<AdminOrderDetail> {
  const before = await loadOrder(ctx.db, number);
  const { from, to, action } = TRANSITIONS[t];
  if (before.status !== from || (before.cancelled_at !== null && before.status !== 'shipped'))
    throw refused(before, t);
  if (ship) {
    const orderDay = new Date(new Date(before.created_at).getTime() - 6 * 3600_000)
      .toISOString()
      .slice(0, 10);
    if (ship.deliveryDate < orderDay) {
      const message = 'La fecha de entrega no puede ser anterior a la fecha del pedido';
      throw badRequest(message, { deliveryDate: message });
    }
  }
  await ctx.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const set = ship
      ? sql`, tracking_guide = ${ship.trackingGuide}, delivery_provider = ${ship.deliveryProvider},
          delivery_date = ${ship.deliveryDate}, shipped_at = now()`
      : sql``;
    // The status in the WHERE makes the change atomic: a shopper's cancellation racing it wins or loses whole.
    const [after] = await rows<OrderRow>(
      tx,
      sql`update orders set status = ${to}, updated_at = now() ${set}
        where number = ${number} and status = ${from}
          ${from === 'shipped' ? sql`` : sql`and cancelled_at is null`}
        returning ${ORDER_COLUMNS}`,
    );
    if (!after) throw refused(await loadOrder(tx, number), t);
    await writeAudit(tx, actor, {
      action,
      entityType: 'order',
      entityId: number,
      before: snapshot(before),
      after: snapshot(after),
    });
    if (ship) {
      await enqueueOrderShippedMail(tx, { number, userId: Number(after.user_id), ...ship }, ctx.publicUrl);
    }
  });
  return getAdminOrder(ctx.db, number);
}

export const prepareOrder = (ctx: StaffContext, actor: Actor, number: number) =>
  transition(ctx, actor, number, 'prepare');
export const deliverOrder = (ctx: StaffContext, actor: Actor, number: number) =>
  transition(ctx, actor, number, 'deliver');
export const shipOrder = (ctx: StaffContext, actor: Actor, number: number, input: Required<ShipOrderInput>) =>
  transition(ctx, actor, number, 'ship', input);

/**
 * Staff cancellation with a full refund: an order paid or in preparation, without a guide and without
 * a valid invoice. Same steps as the shopper's cancellation (src/server/orders/service.ts cancelOrder):
 * claim the order (cancelled_at) so two clicks refund once, refund through the gateway, then in one
 * transaction: status, stock back ('order_cancel' ledger rows), payment marked refunded, the shopper's
 * mail and the audit row. The shopper's service only cancels 'paid' orders of the session's user with
 * a fixed reason, so it cannot be called for this; the stock and mail helpers are shared.
 */
export async function cancelOrderByStaff(
  ctx: StaffContext,
  actor: Actor,
  number: number,
  reason: string,
): Promise<{ message: string; order: AdminOrderDetail }> {
  const before = await loadOrder(ctx.db, number);
  const blocked = cancelBlocked(before, await hasIssuedInvoice(ctx.db, number));
  if (blocked) throw conflict(blocked, 'not_cancellable');

  const claimed = await rows<{ number: number }>(
    ctx.db,
    sql`update orders set cancelled_at = now(), updated_at = now()
      where number = ${number} and status in ('paid', 'preparing') and cancelled_at is null
        and (tracking_guide is null or trim(tracking_guide) in ('', ${NO_GUIDE}))
      returning number`,
  );
  if (claimed.length === 0) {
    const now = await loadOrder(ctx.db, number);
    throw conflict(
      cancelBlocked(now, false) ?? 'La cancelación del pedido ya está en proceso',
      'not_cancellable',
    );
  }
  const [payment] = await rows<{ id: number; charge_id: string | null; amount_cents: number }>(
    ctx.db,
    sql`select id, charge_id, amount_cents from payments
      where order_number = ${number} and status = 'completed' order by id desc limit 1`,
  );
  try {
    if (!payment?.charge_id) throw new GatewayError('request', null, 'sin cargo completado', 404, null);
    await refundOnce(ctx.gateway, payment.charge_id, number);
  } catch (error) {
    await ctx.db.execute(
      sql`update orders set cancelled_at = null where number = ${number} and status in ('paid', 'preparing')`,
    );
    ctx.log.error(
      { err: error, order: number },
      'no se pudo reembolsar el pedido (cancelación del personal)',
    );
    throw new AppError(
      502,
      'refund_failed',
      'No se pudo procesar el reembolso con el banco; el pedido sigue sin cancelar. Intente de nuevo en unos minutos.',
    );
  }
  const refunded = Number(payment.amount_cents);
  await ctx.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const [after] = await rows<OrderRow>(
      tx,
      sql`update orders set status = 'cancelled', cancel_reason = ${reason}, updated_at = now()
        where number = ${number} and status in ('paid', 'preparing') returning ${ORDER_COLUMNS}`,
    );
    if (!after) return;
    await returnStock(tx, number, 'order_cancel');
    await tx.execute(sql`update payments set status = 'refunded', refunded_cents = ${refunded}, updated_at = now()
      where id = ${payment.id}`);
    await enqueueOrderCancelledMail(
      tx,
      {
        number,
        userId: Number(after.user_id),
        subtotalCents: Number(after.subtotal_cents),
        shippingCents: Number(after.shipping_cents),
        ivaCents: Number(after.iva_cents),
        totalCents: Number(after.total_cents),
        address: after.address,
      },
      refunded,
      ctx.publicUrl,
    );
    await writeAudit(tx, actor, {
      action: 'order.cancel',
      entityType: 'order',
      entityId: number,
      before: snapshot(before),
      after: { ...snapshot(after), reason, refundedCents: refunded },
    });
  });
  return {
    message: `Pedido #${number} cancelado. Se reembolsaron ${formatMoney(refunded)} a la tarjeta del cliente.`,
    order: await getAdminOrder(ctx.db, number),
  };
}

/** Refund, or confirm it already happened (a retry after a timeout must not refund twice). */
async function refundOnce(gateway: PaymentGateway, chargeId: string, number: number) {
  try {
    await gateway.refund(chargeId, { description: `Cancelación del pedido ${number}` });
  } catch (error) {
    if (!(error instanceof GatewayError || error instanceof GatewayUnavailableError)) throw error;
    const charge = await gateway.getCharge(chargeId);
    if (charge.status !== 'refunded') throw error;
  }
}
