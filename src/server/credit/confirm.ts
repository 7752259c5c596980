import { removeOrderedFromSavedCart } from '../cart/service.ts';
import type { OrderContext } from '../orders/context.ts';
import { lockOrder } from '../orders/lock.ts';
import { enqueueOrderPaidMail } from '../orders/mail.ts';
import { applyTransition } from '../orders/transitions.ts';

/**
 * pending_payment → on_credit (decision 060): an institution's order placed on its credit line is confirmed without
 * payment. Its stock stays taken as for a paid order (the reservation no longer expires); its 'credit_sale' was
 * written with the order, under the institution's lock. The buyer is mailed. False when not pending any more (a
 * retry of the same request finds it confirmed).
 */
export async function confirmOnCredit(ctx: OrderContext, number: number, userId: number): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, number);
    if (order?.status !== 'pending_payment' || order.paymentMethod !== 'credit') return false;
    const confirmed = await applyTransition(
      tx,
      order,
      'confirm_on_credit',
      { kind: 'shopper', userId },
      { reservedUntil: null },
    );
    await enqueueOrderPaidMail(tx, confirmed, ctx.publicUrl);
    await removeOrderedFromSavedCart(tx, order.userId, number);
    return true;
  });
}
