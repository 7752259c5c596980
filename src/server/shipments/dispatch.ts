import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { CARRIERS } from '../../shared/carriers.ts';
import type { OrderStatus } from '../../shared/schemas/orders.ts';
import { writeAudit } from '../audit/log.ts';
import type { Tx } from '../db/client.ts';
import { orderLines, shipmentLines, shipments } from '../db/schema.ts';
import { badRequest, conflict } from '../http/errors.ts';
import type { Order } from '../orders/lock.ts';
import type { StaffRequest } from '../orders/requester.ts';
import { isCancelling, statusLabel } from '../orders/rules.ts';
import { applyTransition } from '../orders/transitions.ts';

/** The states an order may send (more) units from: paid, in preparation, or part of it already sent. */
export const MAY_SHIP: readonly OrderStatus[] = ['paid', 'preparing', 'partially_shipped'];

export type LineRow = {
  lineNo: number;
  description: string;
  quantity: number;
  backorderedQuantity: number;
  receivedQuantity: number;
  shippedQuantity: number;
  cancelledQuantity: number;
};

/** What of a line may leave now: taken from stock, plus backordered units received, minus what already left. */
export const readyOf = (l: LineRow) =>
  l.quantity - l.backorderedQuantity + l.receivedQuantity - l.shippedQuantity;

/** Units still awaited from the supplier: backordered, not received, not given up by the buyer. */
export const awaitedOf = (l: LineRow) => l.backorderedQuantity - l.receivedQuantity - l.cancelledQuantity;
/** Units that have not left and still will: all but what shipped and what the buyer gave up. */
export const leftOf = (l: LineRow) => l.quantity - l.cancelledQuantity - l.shippedQuantity;

export async function linesOf(tx: Tx, number: number): Promise<LineRow[]> {
  return tx
    .select({
      lineNo: orderLines.lineNo,
      description: orderLines.description,
      quantity: orderLines.quantity,
      backorderedQuantity: orderLines.backorderedQuantity,
      receivedQuantity: orderLines.receivedQuantity,
      shippedQuantity: orderLines.shippedQuantity,
      cancelledQuantity: orderLines.cancelledQuantity,
    })
    .from(orderLines)
    .where(eq(orderLines.orderNumber, number))
    .orderBy(asc(orderLines.lineNo));
}

export function refuseUnlessShippable(order: Order): void {
  if (isCancelling(order) || order.status === 'cancelled')
    throw conflict(
      `El pedido #${order.number} está cancelado o en cancelación; no se puede enviar`,
      'invalid_transition',
    );
  if (!MAY_SHIP.includes(order.status))
    throw conflict(
      `No se puede registrar un envío de un pedido «${statusLabel(order.status)}»: solo de uno pagado, en preparación o enviado parcialmente`,
      'invalid_transition',
    );
}

/**
 * Under the order's lock (the caller holds it): records a shipment of these units — each at most what the line has
 * ready — with its lines, counts them shipped, and moves the order to 'Enviado parcialmente' or 'Enviado' through
 * the transition table, depending on whether anything is left. `wanted` left out: everything ready.
 */
export async function dispatch(
  tx: Tx,
  order: Order,
  who: StaffRequest,
  wanted: readonly { lineNo: number; quantity: number }[] | undefined,
  shipment: {
    carrier: string;
    carrierName: string;
    trackingNumber: string | null;
    estimatedDelivery: string | null;
  },
): Promise<{
  id: number;
  seq: number;
  status: OrderStatus;
  lines: { lineNo: number; description: string; quantity: number }[];
}> {
  refuseUnlessShippable(order);
  const lines = await linesOf(tx, order.number);
  const byNo = new Map(lines.map((l) => [l.lineNo, l]));
  const chosen =
    wanted ?? lines.filter((l) => readyOf(l) > 0).map((l) => ({ lineNo: l.lineNo, quantity: readyOf(l) }));
  if (chosen.length === 0)
    throw conflict(
      `El pedido #${order.number} no tiene artículos listos para enviar: lo que falta está sobre pedido`,
      'nothing_ready',
    );
  const sent: { lineNo: number; description: string; quantity: number }[] = [];
  for (const w of chosen) {
    const line = byNo.get(w.lineNo);
    if (!line)
      throw badRequest(`El pedido #${order.number} no tiene el renglón ${w.lineNo}`, {
        lines: 'Renglón no válido',
      });
    const ready = readyOf(line);
    if (w.quantity > ready)
      throw conflict(
        ready <= 0
          ? `${line.description}: no hay unidades listas para enviar`
          : `${line.description}: solo ${ready === 1 ? 'hay 1 unidad lista' : `hay ${ready} unidades listas`} para enviar`,
        'not_ready',
      );
    sent.push({ lineNo: line.lineNo, description: line.description, quantity: w.quantity });
  }
  const [last] = await tx
    .select({ seq: sql<number>`coalesce(max(${shipments.seq}), 0)::int` })
    .from(shipments)
    .where(eq(shipments.orderNumber, order.number));
  const seq = Number(last?.seq ?? 0) + 1;
  const [row] = await tx
    .insert(shipments)
    .values({
      orderNumber: order.number,
      seq,
      carrier: shipment.carrier,
      carrierName: shipment.carrierName,
      trackingNumber: shipment.trackingNumber,
      estimatedDelivery: shipment.estimatedDelivery,
      createdBy: who.actor.userId,
    })
    .returning({ id: shipments.id });
  for (const s of sent) {
    await tx
      .insert(shipmentLines)
      .values({ shipmentId: row!.id, orderNumber: order.number, lineNo: s.lineNo, quantity: s.quantity });
    await tx
      .update(orderLines)
      .set({ shippedQuantity: sql`${orderLines.shippedQuantity} + ${s.quantity}` })
      .where(and(eq(orderLines.orderNumber, order.number), eq(orderLines.lineNo, s.lineNo)));
  }
  const sentOf = new Map(sent.map((s) => [s.lineNo, s.quantity]));
  const allGone = lines.every((l) => leftOf(l) - (sentOf.get(l.lineNo) ?? 0) <= 0);
  const after = await applyTransition(tx, order, allGone ? 'dispatch' : 'dispatch_partial', who, {
    // The order's own guide columns follow its latest shipment: the lists, the cancellation rule and the
    // screens written before shipments read them.
    trackingGuide: shipment.trackingNumber ?? `${shipment.carrierName} · envío ${seq}`,
    deliveryProvider: shipment.carrierName,
    deliveryDate: shipment.estimatedDelivery,
    shippedAt: order.shippedAt ?? sql`now()`,
  });
  await writeAudit(tx, who.actor, {
    action: 'order.shipment',
    entityType: 'order',
    entityId: order.number,
    before: { status: order.status },
    after: {
      status: after.status,
      shipment: seq,
      carrier: shipment.carrierName,
      trackingNumber: shipment.trackingNumber,
      lines: sent.map((s) => ({ lineNo: s.lineNo, quantity: s.quantity })),
    },
  });
  return { id: row!.id, seq, status: after.status, lines: sent };
}

/**
 * The single-guide 'Marcar enviado' kept from before shipments (issue 35): the whole order leaves as one shipment
 * — what was still backordered is counted received outside the receipts, as that step always meant — so the order
 * shows it like any other. Called by orders/fulfilment.ts inside its transition.
 */
export async function recordWholeShipment(
  tx: Tx,
  order: Order,
  who: StaffRequest,
  guide: { trackingGuide: string; deliveryProvider: string; deliveryDate: string },
): Promise<void> {
  const lines = await linesOf(tx, order.number);
  const left = lines.filter((l) => leftOf(l) > 0);
  if (left.length === 0) return;
  const [last] = await tx
    .select({ seq: sql<number>`coalesce(max(${shipments.seq}), 0)::int` })
    .from(shipments)
    .where(eq(shipments.orderNumber, order.number));
  const known = CARRIERS.find((c) => c.name.toLowerCase() === guide.deliveryProvider.trim().toLowerCase());
  const [row] = await tx
    .insert(shipments)
    .values({
      orderNumber: order.number,
      seq: Number(last?.seq ?? 0) + 1,
      carrier: known?.id ?? 'other',
      carrierName: known?.name ?? guide.deliveryProvider,
      trackingNumber: guide.trackingGuide,
      estimatedDelivery: guide.deliveryDate,
      createdBy: who.actor.userId,
    })
    .returning({ id: shipments.id });
  for (const l of left) {
    await tx.insert(shipmentLines).values({
      shipmentId: row!.id,
      orderNumber: order.number,
      lineNo: l.lineNo,
      quantity: leftOf(l),
    });
  }
  await tx
    .update(orderLines)
    .set({
      receivedQuantity: sql`${orderLines.backorderedQuantity} - ${orderLines.cancelledQuantity}`,
      shippedQuantity: sql`${orderLines.quantity} - ${orderLines.cancelledQuantity}`,
    })
    .where(eq(orderLines.orderNumber, order.number));
}

/** Refuses the single-guide step for an order it cannot describe: a pickup, or one still awaiting goods. */
export async function refuseWholeShipment(tx: Tx, order: Order): Promise<void> {
  if (order.deliveryMethod === 'pickup')
    throw conflict(
      `El pedido #${order.number} se recoge en sucursal: márquelo «Listo para recoger»`,
      'pickup_order',
    );
  const awaited = (await linesOf(tx, order.number)).filter((l) => awaitedOf(l) > 0);
  if (awaited.length > 0)
    throw conflict(
      `${awaited[0]!.description} aún no llega (sobre pedido): registre la mercancía recibida o envíe lo disponible como envío parcial`,
      'backorder_awaited',
    );
}

/** The single-step 'Marcar entregado': every shipment of the order is delivered with it. */
export async function deliverAllShipments(tx: Tx, number: number): Promise<void> {
  await tx
    .update(shipments)
    .set({ deliveredAt: sql`now()` })
    .where(and(eq(shipments.orderNumber, number), isNull(shipments.deliveredAt)));
}
