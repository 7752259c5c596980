import { sql } from 'drizzle-orm';
import { mexicoCityDate } from '../../shared/mexico-time.ts';
import { writeAudit } from '../audit/log.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { deliverAllShipments, recordWholeShipment, refuseWholeShipment } from '../shipments/dispatch.ts';
import type { OrderContext } from './context.ts';
import { lockOrder, type Order } from './lock.ts';
import { enqueueOrderShippedMail } from './mail.ts';
import type { StaffRequest } from './requester.ts';
import {
  type FulfilmentStep,
  guideOf,
  mayAdvance,
  ORDER_NOT_FOUND,
  STEPS,
  statusLabel,
  stepOf,
} from './rules.ts';
import { applyTransition } from './transitions.ts';

export type Shipment = { trackingGuide: string; deliveryProvider: string; deliveryDate: string };

function refused(order: Order, step: FulfilmentStep) {
  const { from, to } = stepOf(step);
  if (order.status === 'cancelled' || (order.cancelledAt !== null && order.status === 'paid'))
    return conflict(
      `El pedido #${order.number} está cancelado; no se puede marcar «${statusLabel(to)}»`,
      'invalid_transition',
    );
  return conflict(
    `No se puede marcar «${statusLabel(to)}» un pedido «${statusLabel(order.status)}»: solo un pedido «${statusLabel(from)}» puede pasar a «${statusLabel(to)}»`,
    'invalid_transition',
  );
}

/** What the audit log keeps of an order before and after a staff action. */
export const auditSnapshot = (o: Order) => ({
  status: o.status,
  trackingGuide: guideOf(o.trackingGuide),
  deliveryProvider: o.deliveryProvider,
  deliveryDate: o.deliveryDate,
});

/**
 * One step forward, under the order's lock: an order being cancelled (claimed) does not move until the
 * cancellation ends. Shipping records the guide, carrier and date and mails the shopper; every step is audited.
 */
export async function advanceOrder(
  ctx: OrderContext,
  number: number,
  who: StaffRequest,
  ...[step, shipment]: ['prepare' | 'deliver'] | ['ship', Shipment]
): Promise<void> {
  const { action } = STEPS[step];
  await ctx.db.transaction(async (tx) => {
    const before = await lockOrder(tx, number);
    if (!before) throw notFound(ORDER_NOT_FOUND);
    if (!mayAdvance(before, step)) throw refused(before, step);
    if (shipment) {
      // Issue 35: the single guide sends the whole order; a pickup, or units still awaited, go by shipments.
      await refuseWholeShipment(tx, before);
      const orderDay = mexicoCityDate(before.createdAt);
      if (shipment.deliveryDate < orderDay) {
        const message = 'La fecha de entrega no puede ser anterior a la fecha del pedido';
        throw badRequest(message, { deliveryDate: message });
      }
    }
    const after = await applyTransition(
      tx,
      before,
      step,
      who,
      shipment ? { ...shipment, shippedAt: sql`now()` } : {},
    );
    await writeAudit(tx, who.actor, {
      action,
      entityType: 'order',
      entityId: number,
      before: auditSnapshot(before),
      after: auditSnapshot(after),
    });
    // Issue 35: the single guide is the order's one shipment; delivering delivers every shipment.
    if (shipment) await recordWholeShipment(tx, before, who, shipment);
    if (step === 'deliver') await deliverAllShipments(tx, number);
    if (shipment) {
      await enqueueOrderShippedMail(tx, { number, userId: before.userId, ...shipment }, ctx.publicUrl);
    }
  });
}
