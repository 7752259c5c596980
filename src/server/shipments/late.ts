import { and, asc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import { leadTimeOf } from '../../shared/backorder.ts';
import { addBusinessDays, formatLongDate } from '../../shared/business-days.ts';
import { mexicoCityToday } from '../../shared/mexico-time.ts';
import { formatMoney } from '../../shared/money.ts';
import type { Db } from '../db/client.ts';
import { orderLines, orders, products } from '../db/schema.ts';
import { conflict, notFound } from '../http/errors.ts';
import type { OrderContext } from '../orders/context.ts';
import { lockOrder } from '../orders/lock.ts';
import { type PartialRefundResult, refundPart } from '../orders/partial-refund.ts';
import { raisePaymentAlert } from '../orders/payment-events.ts';
import type { ShopperRequest } from '../orders/requester.ts';
import { applyTransition } from '../orders/transitions.ts';
import { awaitedOf, leftOf, linesOf, MAY_SHIP } from './dispatch.ts';
import { enqueueBackorderLateMail } from './mail.ts';

/** Without a lead time on the product any more, a late line is promised again this many business days out. */
const FALLBACK_LEAD = { minDays: 5, maxDays: 10 };

/**
 * The jobs registry's 'sobre-pedido-retrasado' round (issue 35): a backordered line whose promised window ended
 * before today (Mexico City) with units still awaited gets a new window from today (the product's lead time),
 * staff get an alert on the order, and the buyer a mail with the new dates and the option to give those units up
 * with a refund. The window moves forward, so the same line is not told twice until the new one passes too.
 */
export async function lateBackordersRound(db: Db, publicUrl: string): Promise<number> {
  const today = mexicoCityToday();
  const late = await db
    .selectDistinct({ number: orderLines.orderNumber })
    .from(orderLines)
    .innerJoin(orders, eq(orders.number, orderLines.orderNumber))
    .where(
      and(
        inArray(orders.status, [...MAY_SHIP]),
        isNull(orders.cancelledAt),
        sql`${orderLines.backorderedQuantity} > ${orderLines.receivedQuantity} + ${orderLines.cancelledQuantity}`,
        lt(orderLines.backorderTo, today),
      ),
    )
    .orderBy(asc(orderLines.orderNumber));
  let told = 0;
  for (const { number } of late) {
    await db.transaction(async (tx) => {
      const order = await lockOrder(tx, number);
      if (!order || !MAY_SHIP.includes(order.status) || order.cancelledAt) return;
      const lines = await tx
        .select({
          lineNo: orderLines.lineNo,
          description: orderLines.description,
          unitPriceCents: orderLines.unitPriceCents,
          backorderTo: orderLines.backorderTo,
          awaited: sql<number>`(${orderLines.backorderedQuantity} - ${orderLines.receivedQuantity} - ${orderLines.cancelledQuantity})::int`,
          backorderable: products.backorderable,
          leadMinDays: products.leadMinDays,
          leadMaxDays: products.leadMaxDays,
        })
        .from(orderLines)
        .leftJoin(products, eq(products.code, orderLines.productCode))
        .where(and(eq(orderLines.orderNumber, number), lt(orderLines.backorderTo, today)));
      for (const line of lines) {
        if (Number(line.awaited) <= 0 || !line.backorderTo) continue;
        const lead =
          (line.backorderable !== null &&
            leadTimeOf({
              backorderable: line.backorderable,
              leadMinDays: line.leadMinDays,
              leadMaxDays: line.leadMaxDays,
            })) ||
          FALLBACK_LEAD;
        const from = addBusinessDays(today, lead.minDays);
        const to = addBusinessDays(today, lead.maxDays);
        await tx
          .update(orderLines)
          .set({
            backorderFrom: from,
            backorderTo: to,
            delayedAt: sql`coalesce(${orderLines.delayedAt}, now())`,
          })
          .where(and(eq(orderLines.orderNumber, number), eq(orderLines.lineNo, line.lineNo)));
        await raisePaymentAlert(tx, {
          orderNumber: number,
          kind: 'backorder_late',
          message: `${line.description}: ${line.awaited} sobre pedido no llegaron para el ${formatLongDate(line.backorderTo)}; nueva fecha ${formatLongDate(to)}, avisamos al cliente (puede cancelar esa parte con reembolso)`,
          chargeId: null,
          dedupeKey: `backorder-late:${number}:${line.lineNo}:${line.backorderTo}`,
        });
        await enqueueBackorderLateMail(
          tx,
          order,
          {
            lineNo: line.lineNo,
            description: line.description,
            awaited: Number(line.awaited),
            promised: line.backorderTo,
            from,
            to,
            refund: formatMoney(Number(line.awaited) * line.unitPriceCents),
          },
          publicUrl,
        );
        told += 1;
      }
    });
  }
  return told;
}

/**
 * The buyer gives up a late line's awaited units (issue 35): refunded at the order's own price through the one
 * partial-refund path (orders/partial-refund.ts: the ledger, the card or the money owed, the credit note that
 * follows), in the same transaction that records them as given up. Only a line whose window has passed; an order
 * with nothing else to send is cancelled whole instead ('Cancelar pedido').
 */
export async function cancelLateBackorder(
  ctx: OrderContext,
  number: number,
  lineNo: number,
  who: ShopperRequest,
): Promise<PartialRefundResult> {
  return refundPart(ctx, number, who, async (tx, order) => {
    if (!MAY_SHIP.includes(order.status))
      throw conflict(
        'Solo se puede cancelar lo pendiente de un pedido pagado que no se ha enviado completo',
        'not_pending',
      );
    const lines = await linesOf(tx, number);
    const line = lines.find((l) => l.lineNo === lineNo);
    if (!line) throw notFound('El pedido no tiene ese artículo');
    const awaited = awaitedOf(line);
    const [row] = await tx
      .select({ delayedAt: orderLines.delayedAt, unitPriceCents: orderLines.unitPriceCents })
      .from(orderLines)
      .where(and(eq(orderLines.orderNumber, number), eq(orderLines.lineNo, lineNo)));
    if (awaited <= 0)
      throw conflict(`${line.description}: no hay unidades pendientes sobre pedido`, 'nothing_awaited');
    if (!row?.delayedAt)
      throw conflict(
        `${line.description} todavía está dentro de su fecha prometida; podrá cancelarlo si se retrasa`,
        'not_late',
      );
    const othersLeft = lines.some((l) => (l.lineNo === lineNo ? leftOf(l) - awaited : leftOf(l)) > 0);
    const anyShipped = lines.some((l) => l.shippedQuantity > 0);
    if (!othersLeft && !anyShipped)
      throw conflict(
        'No queda nada más por enviar de este pedido: cancele el pedido completo',
        'cancel_whole_order',
      );
    await tx
      .update(orderLines)
      .set({ cancelledQuantity: sql`${orderLines.cancelledQuantity} + ${awaited}` })
      .where(and(eq(orderLines.orderNumber, number), eq(orderLines.lineNo, lineNo)));
    if (!othersLeft && order.status === 'partially_shipped')
      await applyTransition(tx, order, 'drop_backorder', who);
    return {
      amountCents: awaited * row.unitPriceCents,
      reason: `El cliente canceló ${awaited} ${awaited === 1 ? 'unidad' : 'unidades'} sobre pedido retrasadas de ${line.description}`,
    };
  });
}
