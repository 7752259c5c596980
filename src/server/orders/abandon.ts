import { and, asc, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import { isDelayed, PAYMENT_METHODS } from '../../shared/payment-methods.ts';
import type { UnpaidHolds } from '../../shared/schemas/orders.ts';
import { writeAudit } from '../audit/log.ts';
import type { Db } from '../db/client.ts';
import { orderLines, orders, products, users } from '../db/schema.ts';
import { conflict, notFound } from '../http/errors.ts';
import type { OrderContext } from './context.ts';
import { type ReleaseCause, releaseAwaitingLocked } from './delayed-payment.ts';
import { auditSnapshot } from './fulfilment.ts';
import { lockOrder } from './lock.ts';
import type { ShopperRequest, StaffRequest } from './requester.ts';

/**
 * An unpaid SPEI or store order stops holding its stock before its deadline (issue 37, item 10): the buyer
 * abandons it, or staff release it. Both take the expiry's one path (delayed-payment.ts releaseAwaitingLocked):
 * cancelled, stock back, the attempt 'expired', the buyer mailed; a payment that still arrives on the old
 * reference is the existing 'Pago recibido fuera de plazo' case, never a silent re-reservation.
 */

export const ONLY_UNPAID_DELAYED =
  'Solo se pueden liberar pedidos pendientes de pago por transferencia SPEI o en tienda';

const ABANDONED: ReleaseCause = {
  event: 'abandon',
  reason: 'El comprador abandonó el pedido sin pagarlo; las existencias se liberaron',
  attemptNote: 'Pedido abandonado por el comprador',
  mail: {
    kind: 'order-abandoned',
    dedupe: 'order-abandoned',
    title: (n) => `Pedido #${n} cancelado a petición suya`,
    paragraph: (n) =>
      `Cancelamos su pedido #${n} como lo pidió y liberamos los productos. La referencia de pago ya no es válida: no la use.`,
  },
};

const releasedBy = (reason: string): ReleaseCause => ({
  event: 'abandon',
  reason: `Liberado por la tienda: ${reason}`,
  attemptNote: 'Pedido liberado por la tienda',
  mail: {
    kind: 'order-released',
    dedupe: 'order-released',
    title: (n) => `Pedido #${n} cancelado por falta de pago`,
    paragraph: (n) =>
      `Cancelamos su pedido #${n}, que seguía sin pagarse, y liberamos los productos (${reason}). La referencia de pago ya no es válida: no la use.`,
  },
});

/** The buyer gives up their own unpaid SPEI/store order. Someone else's order is 404, as everywhere. */
export async function abandonUnpaidOrder(ctx: OrderContext, number: number, who: ShopperRequest) {
  await ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, number);
    if (!order || order.userId !== who.userId) throw notFound('Pedido no encontrado');
    if (!(await releaseAwaitingLocked(tx, ctx, order, who, ABANDONED))) {
      throw conflict(ONLY_UNPAID_DELAYED, 'not_abandonable');
    }
  });
}

/** Staff free the stock of an unpaid SPEI/store order, with a reason the buyer reads; audited. */
export async function releaseUnpaidOrder(
  ctx: OrderContext,
  number: number,
  who: StaffRequest & { reason: string },
) {
  await ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, number);
    if (!order) throw notFound('Pedido no encontrado');
    if (!(await releaseAwaitingLocked(tx, ctx, order, who, releasedBy(who.reason)))) {
      throw conflict(ONLY_UNPAID_DELAYED, 'not_releasable');
    }
    const [after] = await tx.select().from(orders).where(eq(orders.number, number));
    await writeAudit(tx, who.actor, {
      action: 'order.release',
      entityType: 'order',
      entityId: number,
      before: auditSnapshot(order),
      after: { ...auditSnapshot(after!), reason: who.reason },
    });
  });
}

/**
 * Per product, the units unpaid SPEI/store orders hold from stock now, and which orders hold them (staff's
 * view of who is sitting on the stock; biggest holds first).
 */
export async function listUnpaidHolds(db: Db): Promise<UnpaidHolds> {
  const held = sql<number>`(${orderLines.quantity} - ${orderLines.backorderedQuantity})::int`;
  const rows = await db
    .select({
      code: orderLines.productCode,
      name: products.name,
      stock: products.stock,
      number: orders.number,
      paymentMethod: orders.paymentMethod,
      paymentDueAt: orders.paymentDueAt,
      createdAt: orders.createdAt,
      email: users.email,
      units: held,
    })
    .from(orderLines)
    .innerJoin(orders, eq(orders.number, orderLines.orderNumber))
    .innerJoin(products, eq(products.code, orderLines.productCode))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(
      and(
        eq(orders.status, 'pending_payment'),
        inArray(orders.paymentMethod, PAYMENT_METHODS.filter(isDelayed)),
        gt(held, 0),
      ),
    )
    .orderBy(asc(orderLines.productCode), desc(held));
  const byCode = new Map<string, UnpaidHolds['products'][number]>();
  for (const r of rows) {
    const entry = byCode.get(r.code) ?? {
      code: r.code,
      name: r.name,
      stock: r.stock,
      heldUnits: 0,
      orders: [],
    };
    entry.heldUnits += Number(r.units);
    entry.orders.push({
      number: r.number,
      units: Number(r.units),
      paymentMethod: r.paymentMethod === 'cash' ? 'cash' : 'spei',
      paymentDueAt: r.paymentDueAt?.toISOString() ?? null,
      createdAt: r.createdAt.toISOString(),
      email: r.email,
    });
    byCode.set(r.code, entry);
  }
  return { products: [...byCode.values()].sort((a, b) => b.heldUnits - a.heldUnits) };
}
