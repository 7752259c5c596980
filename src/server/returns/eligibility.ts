import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { mexicoCityDate, mexicoCityToday, type Ymd } from '../../shared/mexico-time.ts';
import { OPEN_RETURN_STATES, returnWindowDays, returnWindowEnd } from '../../shared/returns.ts';
import type { OrderReturns } from '../../shared/schemas/returns.ts';
import type { Db } from '../db/client.ts';
import { auditLog, orderLines, returnLines, returns } from '../db/schema.ts';
import type { Order } from '../orders/lock.ts';
import { productFacts, returnsOfOrder } from './view.ts';

/**
 * When the order was delivered, as a Mexico City day: the moment staff marked it «Entregado» (the audit row of
 * 'order.deliver', written in the same transaction as the state). The window of the policy counts from it.
 */
export async function deliveredOn(db: Db, order: Pick<Order, 'number' | 'status'>): Promise<Ymd | null> {
  if (order.status !== 'delivered') return null;
  const [row] = await db
    .select({ at: auditLog.createdAt })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, 'order.deliver'),
        eq(auditLog.entityType, 'order'),
        eq(auditLog.entityId, String(order.number)),
      ),
    )
    .orderBy(asc(auditLog.id))
    .limit(1);
  return row ? mexicoCityDate(row.at) : null;
}

/** Why no return can be asked for this order today, or null. */
export function windowClosed(order: Pick<Order, 'status'>, delivered: Ymd | null, today = mexicoCityToday()) {
  if (order.status !== 'delivered' || delivered === null)
    return 'Las devoluciones se solicitan una vez entregado el pedido';
  if (today > returnWindowEnd(delivered))
    return `El plazo para solicitar una devolución terminó el ${returnWindowEnd(delivered)} (${returnWindowDays()} días después de la entrega)`;
  return null;
}

/** The order's lines with what can still be returned of each (bought, less what other returns not refused hold). */
export async function returnableLines(db: Db, orderNumber: number) {
  const lines = await db
    .select()
    .from(orderLines)
    .where(eq(orderLines.orderNumber, orderNumber))
    .orderBy(asc(orderLines.lineNo));
  const held = await db
    .select({ lineNo: returnLines.lineNo, quantity: sql<number>`sum(${returnLines.quantity})::int` })
    .from(returnLines)
    .innerJoin(returns, eq(returns.id, returnLines.returnId))
    .where(
      and(eq(returns.orderNumber, orderNumber), inArray(returns.state, [...OPEN_RETURN_STATES, 'refunded'])),
    )
    .groupBy(returnLines.lineNo);
  const facts = await productFacts(db, [...new Set(lines.map((l) => l.productCode))]);
  return lines.map((l) => {
    const f = facts.get(l.productCode) ?? { reagent: false, controlled: false };
    return {
      lineNo: l.lineNo,
      productCode: l.productCode,
      description: l.description,
      unitPriceCents: l.unitPriceCents,
      quantity: l.quantity,
      returnable: Math.max(0, l.quantity - (held.find((h) => h.lineNo === l.lineNo)?.quantity ?? 0)),
      reagent: f.reagent,
      controlled: f.controlled,
      backordered: l.backorderedQuantity > 0,
    };
  });
}

/** What the buyer's order page shows under «Devoluciones»: the window, the lines and the returns so far. */
export async function orderReturns(db: Db, order: Order): Promise<OrderReturns> {
  const delivered = await deliveredOn(db, order);
  return {
    orderNumber: order.number,
    deliveredOn: delivered,
    windowEnds: delivered ? returnWindowEnd(delivered) : null,
    windowDays: returnWindowDays(),
    closedBecause: windowClosed(order, delivered),
    lines: await returnableLines(db, order.number),
    returns: await returnsOfOrder(db, order.number),
  };
}
