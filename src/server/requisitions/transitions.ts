import { eq } from 'drizzle-orm';
import {
  REQUISITION_STATE_LABELS,
  type RequisitionEvent,
  type RequisitionState,
  requisitionFolio,
} from '../../shared/requisitions.ts';
import type { Tx } from '../db/client.ts';
import { requisitionEvents, requisitions } from '../db/schema.ts';
import { conflict, notFound } from '../http/errors.ts';

/**
 * The one table of a requisition's life (decision 059): event × state → next state. Every change of
 * `requisitions.state` goes through `applyRequisitionTransition`, under the requisition's row lock, so two
 * approvers, or an approval and a cancellation at the same moment, resolve to one outcome: the second finds the
 * state the first left and is refused with a 409 that says so. Who may ask for each event (the roles, the
 * approval limit, the requester) is checked by the service before, against the membership row.
 */
export const REQUISITION_TRANSITIONS: Record<
  RequisitionEvent,
  { from: readonly (RequisitionState | null)[]; to: RequisitionState }
> = {
  send: { from: [null], to: 'pendiente' },
  resend: { from: ['devuelta'], to: 'pendiente' },
  approve: { from: ['pendiente'], to: 'aprobada' },
  reject: { from: ['pendiente'], to: 'rechazada' },
  // An approved one may come back too: the comprador finds the quotation expired, or a product out of sale.
  return: { from: ['pendiente', 'aprobada'], to: 'devuelta' },
  place: { from: ['aprobada'], to: 'colocada' },
  // The order was written but its SPEI reference could not be made (the order is released): approved again.
  reopen: { from: ['colocada'], to: 'aprobada' },
  cancel: { from: ['pendiente', 'devuelta', 'aprobada'], to: 'cancelada' },
};

export const REQUISITION_NOT_FOUND = 'Requisición no encontrada';

export type RequisitionRow = typeof requisitions.$inferSelect;

export const canMove = (state: RequisitionState, event: RequisitionEvent) =>
  REQUISITION_TRANSITIONS[event].from.includes(state);

/** The requisition's row, locked for the rest of the transaction. */
export async function lockRequisition(tx: Tx, id: number): Promise<RequisitionRow> {
  const [row] = await tx.select().from(requisitions).where(eq(requisitions.id, id)).for('update');
  if (!row) throw notFound(REQUISITION_NOT_FOUND);
  return row;
}

/** Why `event` cannot happen to a requisition in `state`, in Spanish. */
export function refusal(row: Pick<RequisitionRow, 'id' | 'state' | 'orderNumber'>, event: RequisitionEvent) {
  const folio = requisitionFolio(row.id);
  if (row.state === 'colocada')
    return `La requisición ${folio} ya se colocó como el pedido #${row.orderNumber}`;
  const verb: Record<RequisitionEvent, string> = {
    send: 'enviarse',
    resend: 'reenviarse',
    approve: 'aprobarse',
    reject: 'rechazarse',
    return: 'devolverse',
    place: 'colocarse',
    reopen: 'reabrirse',
    cancel: 'cancelarse',
  };
  return `La requisición ${folio} está «${REQUISITION_STATE_LABELS[row.state].toLowerCase()}» y ya no puede ${verb[event]}`;
}

/**
 * Moves a locked requisition by `event`, writes the change and its line of the trail, in the caller's
 * transaction. `row` must come from `lockRequisition` in the same transaction.
 */
export async function applyRequisitionTransition(
  tx: Tx,
  row: RequisitionRow,
  event: RequisitionEvent,
  by: { actorId: number | null; reason?: string | null; orderNumber?: number | null; at?: Date },
  patch: Partial<Pick<RequisitionRow, 'note' | 'costCentre' | 'project' | 'placedBy' | 'orderNumber'>> = {},
): Promise<RequisitionRow> {
  const rule = REQUISITION_TRANSITIONS[event];
  if (!rule.from.includes(row.state)) throw conflict(refusal(row, event), 'requisition_state');
  const at = by.at ?? new Date();
  const decision = event === 'approve' || event === 'reject' || event === 'return';
  const [updated] = await tx
    .update(requisitions)
    .set({
      ...patch,
      state: rule.to,
      updatedAt: at,
      ...(decision ? { decidedBy: by.actorId, decidedAt: at, reason: by.reason ?? null } : {}),
      ...(event === 'resend' ? { decidedBy: null, decidedAt: null, reason: null } : {}),
    })
    .where(eq(requisitions.id, row.id))
    .returning();
  await tx.insert(requisitionEvents).values({
    requisitionId: row.id,
    actorId: by.actorId,
    event,
    fromState: row.state,
    toState: rule.to,
    reason: by.reason ?? null,
    orderNumber: by.orderNumber ?? null,
    at,
  });
  return updated!;
}

/** The first line of a new requisition's trail (its row was just inserted in `tx`). */
export async function recordSent(tx: Tx, row: RequisitionRow, actorId: number, at: Date) {
  await tx.insert(requisitionEvents).values({
    requisitionId: row.id,
    actorId,
    event: 'send',
    fromState: null,
    toState: 'pendiente',
    reason: row.note || null,
    at,
  });
}
