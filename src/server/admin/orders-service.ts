import { and, asc, count, desc, eq, gte, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import { addDays, mexicoDayStart } from '../../shared/mexico-time.ts';
import { ORDER_PAYMENT_METHOD_LABELS } from '../../shared/payment-methods.ts';
import type {
  AdminDelayedPayments,
  AdminOrderDetail,
  AdminOrderList,
  AdminOrderSummary,
} from '../../shared/schemas/admin.ts';
import type { OrderStatus } from '../../shared/schemas/orders.ts';
import { auditOf } from '../audit/log.ts';
import { declarationOf } from '../controlled/rules.ts';
import type { Db } from '../db/client.ts';
import { invoices, orders, payments, users } from '../db/schema.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { orderLineViews, quotationFolioOfOrder } from '../orders/history.ts';
import { invoiceInProgress } from '../orders/invoice-state.ts';
import { balancesOf } from '../orders/ledger.ts';
import { paymentAlertsOf } from '../orders/payment-events.ts';
import { refundsOf } from '../orders/refunds.ts';
import { guideOf, ORDER_NOT_FOUND, orderStatusLabel, staffActions } from '../orders/rules.ts';
import { deliveryView } from '../shipments/view.ts';
import { PAGE_SIZE, pagesOf } from './paging.ts';

/** The back office's views of orders (read only: every change goes through src/server/orders). */

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

const invoiceOfOrder = (status: string) =>
  sql`exists (select 1 from ${invoices} where ${invoices.orderNumber} = ${orders.number} and ${invoices.status} = ${status})`;
const invoiceState = sql<'none' | 'issued' | 'cancelled'>`case when ${invoiceOfOrder('issued')} then 'issued'
    when ${invoiceOfOrder('cancelled')} then 'cancelled' else 'none' end`;

const summaryFields = {
  number: orders.number,
  createdAt: orders.createdAt,
  status: orders.status,
  cancelledAt: orders.cancelledAt,
  deliveryMethod: orders.deliveryMethod,
  totalCents: orders.totalCents,
  trackingGuide: orders.trackingGuide,
  customerName: sql<string>`trim(${users.nombre} || ' ' || ${users.apellidoPat} || ' ' || ${users.apellidoMat})`,
  email: users.email,
  invoiceState,
  rfc: sql<
    string | null
  >`(select ${invoices.rfc} from ${invoices} where ${invoices.orderNumber} = ${orders.number}
    order by ${invoices.id} desc limit 1)`,
};

const summaries = (db: Db) =>
  db.select(summaryFields).from(orders).innerJoin(users, eq(users.id, orders.userId));

type SummaryRow = Awaited<ReturnType<ReturnType<typeof summaries>['execute']>>[number];

const toSummary = (r: SummaryRow): AdminOrderSummary => ({
  number: r.number,
  date: r.createdAt.toISOString(),
  status: r.status,
  statusLabel: orderStatusLabel(r),
  customerName: r.customerName,
  email: r.email,
  totalCents: r.totalCents,
  trackingGuide: guideOf(r.trackingGuide),
  invoiceState: r.invoiceState,
  rfc: r.rfc,
});

/** Orders of one shopper (the customer detail). */
export async function ordersOfUser(db: Db, userId: number): Promise<AdminOrderSummary[]> {
  const list = await summaries(db)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.number))
    .limit(200);
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
  const conditions: (SQL | undefined)[] = [];
  if (query.status) conditions.push(eq(orders.status, query.status));
  if (query.from) conditions.push(gte(orders.createdAt, mexicoDayStart(query.from)));
  if (query.to) {
    conditions.push(lt(orders.createdAt, mexicoDayStart(addDays(query.to, 1))));
  }
  if (query.from && query.to && query.from > query.to) {
    throw badRequest('La fecha inicial es posterior a la final', {
      from: 'La fecha inicial es posterior a la final',
    });
  }
  const q = query.q?.trim();
  if (q) {
    const number = /^#?\d{1,9}$/.test(q) ? Number(q.replace('#', '')) : null;
    conditions.push(
      or(
        number !== null ? eq(orders.number, number) : undefined,
        ilike(users.email, `%${likeEscape(q)}%`),
        sql`exists (select 1 from ${invoices} where ${invoices.orderNumber} = ${orders.number}
          and ${invoices.rfc} ilike ${`${likeEscape(q.toUpperCase())}%`})`,
      ),
    );
  }
  const where = and(...conditions);
  const [total] = await db
    .select({ n: count() })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(where);
  const list = await summaries(db)
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.number))
    .limit(PAGE_SIZE)
    .offset((query.page - 1) * PAGE_SIZE);
  const n = total?.n ?? 0;
  return { items: list.map(toSummary), total: n, page: query.page, pages: pagesOf(n) };
}

/** GET /api/admin/orders/:number: the order, its payments, what staff may do next and its history. */
export async function getAdminOrder(db: Db, number: number): Promise<AdminOrderDetail> {
  const [found] = await db
    .select({
      order: orders,
      summary: summaryFields,
      lada: users.lada,
      telefono: users.telefono,
      quotationFolio: quotationFolioOfOrder,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.number, number));
  if (!found) throw notFound(ORDER_NOT_FOUND);
  const o = found.order;
  const paymentRows = await db
    .select()
    .from(payments)
    .where(eq(payments.orderNumber, number))
    .orderBy(asc(payments.id));
  return {
    ...toSummary(found.summary),
    userId: o.userId,
    phone: `+${found.lada} ${found.telefono}`,
    paidAt: o.paidAt?.toISOString() ?? null,
    cancelledAt: o.status === 'cancelled' ? (o.cancelledAt?.toISOString() ?? null) : null,
    cancelReason: o.cancelReason,
    shippedAt: o.shippedAt?.toISOString() ?? null,
    deliveryProvider: o.deliveryProvider,
    deliveryDate: o.deliveryDate ? o.deliveryDate.slice(0, 10) : null,
    address: o.address,
    purchaseOrder: o.purchaseOrder,
    quotationFolio: found.quotationFolio,
    delivery: await deliveryView(db, o, 'staff'),
    lines: await orderLineViews(db, number),
    shipNowBy: o.shipNowBy,
    subtotalCents: o.subtotalCents,
    shippingCents: o.shippingCents,
    ivaCents: o.ivaCents,
    refundedCents: (await balancesOf(db, number)).refundedCents,
    paymentMethod: o.paymentMethod,
    payments: paymentRows.map((p) => ({
      gateway: p.gateway,
      chargeId: p.chargeId,
      status: p.status,
      amountCents: p.amountCents,
      refundedCents: p.refundedCents,
      createdAt: p.createdAt.toISOString(),
    })),
    refunds: await refundsOf(db, number),
    balances: await balancesOf(db, number),
    paymentState: o.paymentState,
    paymentAlerts: (await paymentAlertsOf(db, number)).map((a) => ({
      kind: a.kind,
      message: a.message,
      createdAt: a.createdAt.toISOString(),
    })),
    actions: staffActions(o, await invoiceInProgress(db, number)),
    history: await auditOf(db, 'order', String(number)),
    controlledDeclaration: await declarationOf(db, number),
  };
}

/**
 * The back office's delayed payments (issue 21): SPEI and store orders still awaiting payment, soonest deadline
 * first, and the payments that arrived after their order expired (newest first) — staff refund them or, when the
 * stock allows, contact the buyer to sell again.
 */
export async function delayedPayments(db: Db): Promise<AdminDelayedPayments> {
  const fields = {
    number: orders.number,
    createdAt: orders.createdAt,
    customerName: summaryFields.customerName,
    email: users.email,
    paymentMethod: orders.paymentMethod,
    totalCents: orders.totalCents,
    paymentDueAt: orders.paymentDueAt,
    latePaymentAt: orders.latePaymentAt,
    cancelledAt: orders.cancelledAt,
    chargeId: sql<string | null>`(select ${payments.chargeId} from ${payments}
      where ${payments.orderNumber} = ${orders.number} order by ${payments.id} desc limit 1)`,
  };
  const awaiting = await db
    .select(fields)
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(and(eq(orders.status, 'pending_payment'), sql`${orders.paymentMethod} <> 'card'`))
    .orderBy(asc(orders.paymentDueAt))
    .limit(200);
  const late = await db
    .select(fields)
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(sql`${orders.latePaymentAt} is not null`)
    .orderBy(desc(orders.latePaymentAt))
    .limit(200);
  const base = (r: (typeof awaiting)[number]) => ({
    number: r.number,
    date: r.createdAt.toISOString(),
    customerName: r.customerName,
    email: r.email,
    methodLabel: ORDER_PAYMENT_METHOD_LABELS[r.paymentMethod] ?? r.paymentMethod,
    totalCents: r.totalCents,
  });
  return {
    awaiting: awaiting.map((r) => ({ ...base(r), deadline: (r.paymentDueAt ?? r.createdAt).toISOString() })),
    late: late.map((r) => ({
      ...base(r),
      latePaymentAt: r.latePaymentAt!.toISOString(),
      chargeId: r.chargeId,
      cancelledAt: r.cancelledAt?.toISOString() ?? null,
    })),
  };
}
