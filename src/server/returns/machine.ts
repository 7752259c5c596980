import { and, eq, sql } from 'drizzle-orm';
import { formatMoney } from '../../shared/money.ts';
import {
  mustQuarantine,
  RESTOCK_LABELS,
  RETURN_STATE_LABELS,
  type RestockDisposition,
  type ReturnState,
} from '../../shared/returns.ts';
import type { ReturnView } from '../../shared/schemas/returns.ts';
import { writeAudit } from '../audit/log.ts';
import type { Tx } from '../db/client.ts';
import { products, returnLines, returns, stockMovements } from '../db/schema.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import type { OrderContext } from '../orders/context.ts';
import { lockOrder } from '../orders/lock.ts';
import { completePartialRefund, openPartialRefund } from '../orders/partial-refund.ts';
import { refundView } from '../orders/refunds.ts';
import type { StaffRequest } from '../orders/requester.ts';
import { enqueueReturnMail } from './mail.ts';
import { productFacts, returnById } from './view.ts';

/**
 * A return's life (decision 062), one table and one function: requested → authorized | refused; authorized →
 * received; received → refunded | closed. `moveReturn` takes the order's lock, then the return's row lock, checks
 * the table, applies the step with its effects, audits it and mails the buyer, all in one transaction — so two
 * staff members clicking at once get one step and a 409, never two refunds.
 */
export type ReturnMove =
  | { event: 'authorize'; instructions: string; labelUrl?: string | undefined }
  | { event: 'refuse'; reason: string }
  | { event: 'receive'; note?: string | undefined }
  | {
      event: 'refund';
      lines: { lineNo: number; disposition: RestockDisposition }[];
      note?: string | undefined;
    }
  | { event: 'close'; reason: string };

export const RETURN_MOVES: Record<ReturnMove['event'], { from: ReturnState; to: ReturnState; verb: string }> =
  {
    authorize: { from: 'requested', to: 'authorized', verb: 'autorizar' },
    refuse: { from: 'requested', to: 'refused', verb: 'rechazar' },
    receive: { from: 'authorized', to: 'received', verb: 'marcar como recibida' },
    refund: { from: 'received', to: 'refunded', verb: 'reembolsar' },
    close: { from: 'received', to: 'closed', verb: 'cerrar sin reembolso' },
  };

export const RETURN_NOT_FOUND = 'Devolución no encontrada';

export async function moveReturn(
  ctx: OrderContext,
  id: number,
  who: StaffRequest,
  move: ReturnMove,
): Promise<{ view: ReturnView; message: string }> {
  const [head] = await ctx.db
    .select({ orderNumber: returns.orderNumber })
    .from(returns)
    .where(eq(returns.id, id));
  if (!head) throw notFound(RETURN_NOT_FOUND);
  const step = RETURN_MOVES[move.event];

  const opened = await ctx.db.transaction(async (tx) => {
    // The order's lock first, as every change of an order takes it; then the return's.
    const order = await lockOrder(tx, head.orderNumber);
    if (!order) throw notFound(RETURN_NOT_FOUND);
    const [ret] = await tx.select().from(returns).where(eq(returns.id, id)).for('update');
    if (!ret) throw notFound(RETURN_NOT_FOUND);
    if (ret.state !== step.from)
      throw conflict(
        `La devolución #${id} está «${RETURN_STATE_LABELS[ret.state]}»: no se puede ${step.verb}`,
        'invalid_transition',
      );
    const lines = await tx
      .select()
      .from(returnLines)
      .where(eq(returnLines.returnId, id))
      .orderBy(returnLines.lineNo);
    const valueCents = lines.reduce((s, l) => s + l.unitPriceCents * l.quantity, 0);

    const set: Partial<typeof returns.$inferInsert> = {};
    let refund = null as Awaited<ReturnType<typeof openPartialRefund>> | null;
    if (move.event === 'authorize') {
      set.instructions = move.instructions;
      set.labelUrl = move.labelUrl ?? null;
    } else if (move.event === 'refuse' || move.event === 'close') {
      set.staffNote = move.reason;
    } else if (move.event === 'receive') {
      set.staffNote = move.note ?? null;
    } else {
      await restock(tx, id, order.number, who, lines, move.lines);
      refund = await openPartialRefund(
        tx,
        order,
        who,
        { amountCents: valueCents, reason: `Devolución #${id} del pedido #${order.number}` },
        ctx.publicUrl,
      );
      set.refundId = refund.id;
      if (move.note) set.staffNote = move.note;
    }
    await tx
      .update(returns)
      .set({ ...set, state: step.to, updatedAt: sql`now()` })
      .where(eq(returns.id, id));
    await writeAudit(tx, who.actor, {
      action: `return.${move.event}`,
      entityType: 'order',
      entityId: order.number,
      before: { returnId: id, state: ret.state },
      after: {
        returnId: id,
        state: step.to,
        ...(move.event === 'refund'
          ? { amount: formatMoney(valueCents), restock: move.lines, refundId: refund?.id }
          : {}),
        ...('reason' in move ? { reason: move.reason } : {}),
      },
    });
    await enqueueReturnMail(
      tx,
      step.to,
      {
        id,
        orderNumber: order.number,
        userId: ret.userId,
        lines,
        valueCents,
        instructions: set.instructions ?? ret.instructions,
        labelUrl: set.labelUrl ?? ret.labelUrl,
        staffNote: set.staffNote ?? ret.staffNote,
        refundSentence: refund ? refundView(refund).sentence : null,
      },
      ctx.publicUrl,
    );
    return refund;
  });

  let message = `Devolución #${id}: ${RETURN_STATE_LABELS[step.to]}`;
  if (opened) {
    // After commit, as a staff partial refund: the card asked of Openpay, the credit note issued (tax papers).
    const { refund, outcome } = await completePartialRefund(ctx, opened, who);
    message =
      outcome === 'refunded'
        ? `Devolución #${id} reembolsada: ${formatMoney(refund.amountCents)} a la tarjeta del cliente.`
        : `Devolución #${id}: reembolso de ${formatMoney(refund.amountCents)} pendiente por transferencia a la CLABE del cliente.`;
  }
  return { view: (await returnById(ctx.db, id, true))!, message };
}

/**
 * The received units' destination, line by line (staff's inspection): sellable → back in stock with a ledger row
 * ('return_restock'); quarantine → a 'return_quarantine' row of delta 0 naming the units set apart, so the stock
 * ledger records them without making them sellable. Reagents and controlled chemicals go to quarantine only.
 */
async function restock(
  tx: Tx,
  id: number,
  orderNumber: number,
  who: StaffRequest,
  lines: (typeof returnLines.$inferSelect)[],
  chosen: { lineNo: number; disposition: RestockDisposition }[],
) {
  const facts = await productFacts(tx, [...new Set(lines.map((l) => l.productCode))]);
  if (chosen.length !== lines.length || lines.some((l) => !chosen.some((c) => c.lineNo === l.lineNo)))
    throw badRequest('Indique a dónde va cada producto devuelto', {
      lines: 'Indique a dónde va cada producto devuelto',
    });
  const sorted = [...lines].sort((a, b) => (a.productCode < b.productCode ? -1 : 1));
  for (const line of sorted) {
    const disposition = chosen.find((c) => c.lineNo === line.lineNo)!.disposition;
    if (disposition === 'sellable' && mustQuarantine(facts.get(line.productCode)!))
      throw conflict(
        `${line.description}: un reactivo o producto controlado devuelto no vuelve a la venta; elija «${RESTOCK_LABELS.quarantine}»`,
        'must_quarantine',
      );
    if (disposition === 'sellable')
      await tx
        .update(products)
        .set({ stock: sql`${products.stock} + ${line.quantity}`, updatedAt: sql`now()` })
        .where(eq(products.code, line.productCode));
    await tx.insert(stockMovements).values({
      productCode: line.productCode,
      delta: disposition === 'sellable' ? line.quantity : 0,
      reason: disposition === 'sellable' ? 'return_restock' : 'return_quarantine',
      orderNumber,
      note:
        disposition === 'sellable'
          ? `Devolución #${id}: ${line.quantity} a la venta`
          : `Devolución #${id}: ${line.quantity} en cuarentena (no se vende)`,
      actorUserId: who.actor.userId,
    });
    await tx
      .update(returnLines)
      .set({ disposition })
      .where(and(eq(returnLines.returnId, id), eq(returnLines.lineNo, line.lineNo)));
  }
}
