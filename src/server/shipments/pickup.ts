import { randomInt } from 'node:crypto';
import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import { PICKUP_CODE_ALPHABET } from '../../shared/delivery.ts';
import { shop } from '../../shared/shop.ts';
import { writeAudit } from '../audit/log.ts';
import type { Db } from '../db/client.ts';
import { orders, shipments } from '../db/schema.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import type { OrderContext } from '../orders/context.ts';
import { lockOrder, type Order } from '../orders/lock.ts';
import type { StaffRequest } from '../orders/requester.ts';
import { ORDER_NOT_FOUND } from '../orders/rules.ts';
import { dispatch } from './dispatch.ts';
import { type Branch, enqueuePickupReadyMail, enqueuePickupReminderMail } from './mail.ts';
import { deliverOrderIfDone } from './service.ts';

/** 'Recoger en sucursal' (issue 35): ready at the branch with a code, collected by a named person with an ID. */

export const branchOf = (order: Pick<Order, 'pickupBranch'>): Branch | null =>
  order.pickupBranch === null ? null : (shop.branches[order.pickupBranch] ?? null);

/** What the invoice's PDF and the receipt say of a pickup: 'Recoger en sucursal: Sucursal Guadalajara (sin envío)'. */
export function deliveryNoteOf(order: {
  deliveryMethod?: string;
  pickupBranch?: number | null;
}): string | null {
  if (order.deliveryMethod !== 'pickup' || order.pickupBranch == null) return null;
  const branch = shop.branches[order.pickupBranch];
  return branch ? `Recoger en sucursal: ${branch.name} (sin costo de envío)` : null;
}

const newPickupCode = () =>
  Array.from({ length: 6 }, () => PICKUP_CODE_ALPHABET[randomInt(PICKUP_CODE_ALPHABET.length)]).join('');

function pickupOrder(order: Order | undefined): Order & { branch: Branch } {
  if (!order) throw notFound(ORDER_NOT_FOUND);
  const branch = branchOf(order);
  if (order.deliveryMethod !== 'pickup' || !branch)
    throw conflict(`El pedido #${order.number} no es para recoger en sucursal`, 'not_pickup');
  return { ...order, branch };
}

/**
 * Staff put what is ready at the branch (all of it when `lines` is left out): a shipment to the branch, the order's
 * code (one per order, kept for later parts) and the 'Listo para recoger' mail with the branch's hours.
 */
export async function readyForPickup(
  ctx: OrderContext,
  number: number,
  who: StaffRequest,
  lines?: readonly { lineNo: number; quantity: number }[],
): Promise<{ code: string }> {
  return ctx.db.transaction(async (tx) => {
    const order = pickupOrder(await lockOrder(tx, number));
    const sent = await dispatch(tx, order, who, lines, {
      carrier: 'pickup',
      carrierName: order.branch.name,
      trackingNumber: null,
      estimatedDelivery: null,
    });
    const code = order.pickupCode ?? newPickupCode();
    if (!order.pickupCode) await tx.update(orders).set({ pickupCode: code }).where(eq(orders.number, number));
    await writeAudit(tx, who.actor, {
      action: 'order.pickup_ready',
      entityType: 'order',
      entityId: number,
      after: { shipment: sent.seq, branch: order.branch.name },
    });
    await enqueuePickupReadyMail(
      tx,
      order,
      {
        shipmentId: sent.id,
        code,
        branch: order.branch,
        lines: sent.lines,
        complete: sent.status === 'shipped',
      },
      ctx.publicUrl,
    );
    return { code };
  });
}

/**
 * Collected at the branch: the collector gives the code (checked here, not shown to staff) and staff write down
 * their name and the ID they showed. Every part waiting at the branch is delivered; the order follows.
 */
export async function collectPickup(
  ctx: OrderContext,
  number: number,
  who: StaffRequest,
  input: { code: string; name: string; idDocument: string },
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const order = pickupOrder(await lockOrder(tx, number));
    const waiting = await tx
      .select({ id: shipments.id, seq: shipments.seq })
      .from(shipments)
      .where(
        and(
          eq(shipments.orderNumber, number),
          eq(shipments.carrier, 'pickup'),
          isNull(shipments.deliveredAt),
        ),
      );
    if (waiting.length === 0 || !order.pickupCode)
      throw conflict(`Nada del pedido #${number} está esperando en la sucursal`, 'nothing_waiting');
    if (input.code !== order.pickupCode) {
      const message = 'El código no corresponde a este pedido';
      throw badRequest(message, { code: message });
    }
    await tx
      .update(shipments)
      .set({ deliveredAt: sql`now()` })
      .where(
        inArray(
          shipments.id,
          waiting.map((w) => w.id),
        ),
      );
    await tx
      .update(orders)
      .set({ collectedByName: input.name, collectedById: input.idDocument, collectedAt: sql`now()` })
      .where(eq(orders.number, number));
    await deliverOrderIfDone(tx, order, who);
    await writeAudit(tx, who.actor, {
      action: 'order.pickup_collected',
      entityType: 'order',
      entityId: number,
      after: { shipments: waiting.map((w) => w.seq), name: input.name, idDocument: input.idDocument },
    });
  });
}

/**
 * The jobs registry's 'pickup-reminders' round: an order ready at a branch for `pickupReminderDays` and not collected
 * gets one reminder (pickup_reminded_at, and the mail's dedupe key, make it once).
 */
export async function pickupReminderRound(db: Db, publicUrl: string, now = new Date()): Promise<number> {
  const days = shop.shipping.pickupReminderDays;
  const cutoff = new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
  const due = await db
    .selectDistinct({ number: orders.number })
    .from(orders)
    .innerJoin(shipments, eq(shipments.orderNumber, orders.number))
    .where(
      and(
        eq(orders.deliveryMethod, 'pickup'),
        isNull(orders.pickupRemindedAt),
        eq(shipments.carrier, 'pickup'),
        isNull(shipments.deliveredAt),
        lt(shipments.shippedAt, cutoff),
      ),
    );
  let sent = 0;
  for (const { number } of due) {
    await db.transaction(async (tx) => {
      const order = await lockOrder(tx, number);
      const branch = order && branchOf(order);
      if (!order || !branch || !order.pickupCode || order.pickupRemindedAt || order.status === 'cancelled')
        return;
      await tx.update(orders).set({ pickupRemindedAt: sql`now()` }).where(eq(orders.number, number));
      await enqueuePickupReminderMail(tx, order, order.pickupCode, branch, days, publicUrl);
      sent += 1;
    });
  }
  return sent;
}
