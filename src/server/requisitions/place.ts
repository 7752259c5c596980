import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { SessionUser } from '../auth/session.ts';
import { placeOrder } from '../checkout/place-order.ts';
import { quotations } from '../db/schema.ts';
import { AppError, conflict, notFound } from '../http/errors.ts';
import { type Membership, requireInstitution } from '../institutions/membership.ts';
import type { OrderContext } from '../orders/context.ts';
import { currentRevision } from '../quotations/service.ts';
import { visibleRequisition } from './read.ts';
import {
  applyRequisitionTransition,
  canMove,
  lockRequisition,
  REQUISITION_NOT_FOUND,
  refusal,
} from './transitions.ts';

/**
 * Placing an approved requisition (decision 059) is the quotation's conversion through checkout's one order
 * path (`placeOrder`): the quotation's lines at its prices, the order for the institution, by transfer (SPEI: the
 * reference goes to whoever places it, the institution pays it like any supplier's invoice). Checkout's
 * transaction claims the requisition under its row lock and checks the requester's spending limits there.
 */
export async function placeRequisition(
  ctx: OrderContext,
  user: SessionUser,
  membership: Membership | null,
  id: number,
  options: { purchaseOrder?: string; auto?: boolean } = {},
): Promise<number> {
  const m = options.auto ? membership! : requireInstitution(membership, 'order.place');
  const row = await visibleRequisition(ctx.db, m, user.id, id);
  if (!canMove(row.state, 'place')) throw conflict(refusal(row, 'place'), 'requisition_state');
  const [q] = await ctx.db.select().from(quotations).where(eq(quotations.id, row.quotationId));
  if (!q) throw notFound(REQUISITION_NOT_FOUND);
  const revision = await currentRevision(ctx.db, q);
  const result = await placeOrder(
    ctx,
    user,
    randomUUID(),
    {
      items: revision.lines.map((l) => ({ code: l.code, quantity: l.quantity })),
      quotation: q.folio,
      paymentMethod: 'spei',
      ...(options.purchaseOrder ? { purchaseOrder: options.purchaseOrder } : {}),
    },
    { requisition: { id, auto: options.auto ?? false } },
  );
  switch (result.kind) {
    case 'awaiting':
    case 'paid':
    case 'redirect':
      return result.number;
    case 'refused':
      throw new AppError(409, result.code, result.message);
    case 'error':
    case 'failed':
      // The order was written and released at once (no reference was made): the requisition is approved again.
      await ctx.db.transaction(async (tx) => {
        const locked = await lockRequisition(tx, id);
        if (locked.state === 'colocada' && locked.orderNumber === result.number)
          await applyRequisitionTransition(
            tx,
            locked,
            'reopen',
            { actorId: null, reason: result.message, orderNumber: result.number },
            { orderNumber: null, placedBy: null },
          );
      });
      throw new AppError(503, 'payment_error', result.message);
    default:
      throw new AppError(
        503,
        'payment_unknown',
        'No pudimos generar la referencia de pago en este momento. Revise la requisición en unos minutos antes de intentar de nuevo.',
      );
  }
}
