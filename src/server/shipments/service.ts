import { and, eq, isNull, sql } from 'drizzle-orm';
import { carrierOf, trackingUrl } from '../../shared/carriers.ts';
import type { CreateShipment } from '../../shared/schemas/shipments.ts';
import { shop } from '../../shared/shop.ts';
import { writeAudit } from '../audit/log.ts';
import type { Tx } from '../db/client.ts';
import { shipments } from '../db/schema.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import type { OrderContext } from '../orders/context.ts';
import { lockOrder, type Order } from '../orders/lock.ts';
import type { StaffRequest } from '../orders/requester.ts';
import { ORDER_NOT_FOUND } from '../orders/rules.ts';
import { applyTransition } from '../orders/transitions.ts';
import { dispatch } from './dispatch.ts';
import { enqueueShipmentMail } from './mail.ts';

/**
 * Staff send what is ready of an order (issue 35): whole or in part, with a carrier the shop uses and a tracking
 * number in that carrier's format; the buyer gets a mail for this shipment, and the order's state follows.
 */
export async function createShipment(
  ctx: OrderContext,
  number: number,
  who: StaffRequest,
  input: CreateShipment,
): Promise<{ seq: number; complete: boolean }> {
  return ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, number);
    if (!order) throw notFound(ORDER_NOT_FOUND);
    if (order.deliveryMethod === 'pickup')
      throw conflict(
        'El cliente recoge este pedido en sucursal: márquelo «Listo para recoger» en lugar de enviarlo',
        'pickup_order',
      );
    if (!(shop.shipping.carriers as readonly string[]).includes(input.carrier)) {
      const message = 'La tienda no envía con esa paquetería';
      throw badRequest(message, { carrier: message });
    }
    if (input.estimatedDelivery && input.estimatedDelivery < new Date().toISOString().slice(0, 10)) {
      const message = 'La fecha de entrega estimada no puede ser anterior a hoy';
      throw badRequest(message, { estimatedDelivery: message });
    }
    const carrier = carrierOf(input.carrier)!;
    const sent = await dispatch(tx, order, who, input.lines, {
      carrier: carrier.id,
      carrierName: carrier.name,
      trackingNumber: input.trackingNumber,
      estimatedDelivery: input.estimatedDelivery ?? null,
    });
    const complete = sent.status === 'shipped';
    await enqueueShipmentMail(
      tx,
      order,
      {
        id: sent.id,
        seq: sent.seq,
        carrierName: carrier.name,
        trackingNumber: input.trackingNumber,
        trackingUrl: trackingUrl(carrier.id, input.trackingNumber),
        estimatedDelivery: input.estimatedDelivery ?? null,
        lines: sent.lines,
        complete,
      },
      ctx.publicUrl,
    );
    return { seq: sent.seq, complete };
  });
}

/**
 * The carrier delivered one shipment: it is marked delivered, and when it was the last one out and nothing is left
 * to send, the order becomes 'Entregado' through the transition table.
 */
export async function markShipmentDelivered(
  ctx: OrderContext,
  number: number,
  seq: number,
  who: StaffRequest,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, number);
    if (!order) throw notFound(ORDER_NOT_FOUND);
    const [shipment] = await tx
      .select()
      .from(shipments)
      .where(and(eq(shipments.orderNumber, number), eq(shipments.seq, seq)));
    if (!shipment) throw notFound(`El pedido #${number} no tiene el envío ${seq}`);
    if (shipment.carrier === 'pickup')
      throw conflict(
        'Lo que se recoge en sucursal se marca «Recogido» con el nombre de quien lo recoge',
        'pickup_order',
      );
    if (shipment.deliveredAt)
      throw conflict(`El envío ${seq} ya está marcado como entregado`, 'already_delivered');
    await tx.update(shipments).set({ deliveredAt: sql`now()` }).where(eq(shipments.id, shipment.id));
    await deliverOrderIfDone(tx, order, who);
    await writeAudit(tx, who.actor, {
      action: 'order.shipment_delivered',
      entityType: 'order',
      entityId: number,
      after: { shipment: seq },
    });
  });
}

/** Every shipment delivered and nothing left to send: the order is 'Entregado'. */
export async function deliverOrderIfDone(tx: Tx, order: Order, who: StaffRequest): Promise<void> {
  if (order.status !== 'shipped') return;
  const [open] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(shipments)
    .where(and(eq(shipments.orderNumber, order.number), isNull(shipments.deliveredAt)));
  if (Number(open?.n ?? 0) === 0) await applyTransition(tx, order, 'deliver', who);
}
