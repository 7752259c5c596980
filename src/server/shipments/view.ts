import { asc, eq, inArray } from 'drizzle-orm';
import { trackingUrl } from '../../shared/carriers.ts';
import { DELIVERY_METHOD_LABELS } from '../../shared/delivery.ts';
import type { DeliveryView } from '../../shared/schemas/shipments.ts';
import type { Db } from '../db/client.ts';
import { orderLines, shipmentLines, shipments } from '../db/schema.ts';
import type { Order } from '../orders/lock.ts';
import { branchOf } from './pickup.ts';

/**
 * An order's delivery as the buyer (/historial, the receipt) and staff (the order screen) see it: the method, the
 * branch, each shipment with its lines and link, and per line what left, what is ready and what is awaited.
 * The pickup code is the buyer's only: staff ask for it at the counter.
 */
export async function deliveryView(db: Db, order: Order, audience: 'buyer' | 'staff'): Promise<DeliveryView> {
  const lines = await db
    .select()
    .from(orderLines)
    .where(eq(orderLines.orderNumber, order.number))
    .orderBy(asc(orderLines.lineNo));
  const rows = await db
    .select()
    .from(shipments)
    .where(eq(shipments.orderNumber, order.number))
    .orderBy(asc(shipments.seq));
  const contents =
    rows.length === 0
      ? []
      : await db
          .select()
          .from(shipmentLines)
          .where(
            inArray(
              shipmentLines.shipmentId,
              rows.map((r) => r.id),
            ),
          )
          .orderBy(asc(shipmentLines.lineNo));
  const description = new Map(lines.map((l) => [l.lineNo, l.description]));
  const branch = branchOf(order);
  return {
    method: order.deliveryMethod,
    methodLabel: DELIVERY_METHOD_LABELS[order.deliveryMethod],
    branch: order.deliveryMethod === 'pickup' && branch ? { ...branch } : null,
    pickupCode: audience === 'buyer' && order.status !== 'delivered' ? order.pickupCode : null,
    collectedBy: order.collectedByName ? `${order.collectedByName} (${order.collectedById ?? ''})` : null,
    collectedAt: order.collectedAt?.toISOString() ?? null,
    shipments: rows.map((s) => ({
      seq: s.seq,
      carrier: s.carrier,
      carrierName: s.carrierName,
      trackingNumber: s.trackingNumber,
      trackingUrl: trackingUrl(s.carrier, s.trackingNumber),
      estimatedDelivery: s.estimatedDelivery,
      shippedAt: s.shippedAt.toISOString(),
      deliveredAt: s.deliveredAt?.toISOString() ?? null,
      lines: contents
        .filter((c) => c.shipmentId === s.id)
        .map((c) => ({
          lineNo: c.lineNo,
          description: description.get(c.lineNo) ?? '',
          quantity: c.quantity,
        })),
    })),
    lines: lines.map((l) => {
      const awaited = l.backorderedQuantity - l.receivedQuantity - l.cancelledQuantity;
      return {
        lineNo: l.lineNo,
        code: l.productCode,
        description: l.description,
        quantity: l.quantity,
        shipped: l.shippedQuantity,
        ready: l.quantity - l.backorderedQuantity + l.receivedQuantity - l.shippedQuantity,
        cancelled: l.cancelledQuantity,
        delayed: l.delayedAt !== null && awaited > 0,
        awaited,
        awaitedFrom: awaited > 0 ? l.backorderFrom : null,
        awaitedTo: awaited > 0 ? l.backorderTo : null,
      };
    }),
  };
}

/** The shipments of several orders at once, for the buyer's list (one query). */
export async function shipmentsOfOrders(db: Db, numbers: readonly number[]) {
  const rows =
    numbers.length === 0
      ? []
      : await db
          .select()
          .from(shipments)
          .where(inArray(shipments.orderNumber, [...numbers]))
          .orderBy(asc(shipments.orderNumber), asc(shipments.seq));
  const byOrder = new Map<
    number,
    {
      seq: number;
      carrierName: string;
      trackingNumber: string | null;
      trackingUrl: string | null;
      delivered: boolean;
    }[]
  >();
  for (const s of rows)
    byOrder.set(s.orderNumber, [
      ...(byOrder.get(s.orderNumber) ?? []),
      {
        seq: s.seq,
        carrierName: s.carrierName,
        trackingNumber: s.trackingNumber,
        trackingUrl: trackingUrl(s.carrier, s.trackingNumber),
        delivered: s.deliveredAt !== null,
      },
    ]);
  return byOrder;
}
