import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { canInstitution, INSTITUTION_ROLE_LABELS } from '../../shared/institutions.ts';
import { formatMoney } from '../../shared/money.ts';
import type { requisitionFieldsSchema } from '../../shared/schemas/requisitions.ts';
import type { SessionUser } from '../auth/session.ts';
import { quotations } from '../db/schema.ts';
import { conflict, forbidden, notFound } from '../http/errors.ts';
import { type Membership, requireInstitution } from '../institutions/membership.ts';
import { currentRevision, stateOfRow } from '../quotations/service.ts';
import { enqueueRequisitionMail } from './mail.ts';
import { approversFor, detailOf, maySee, personName, personOf } from './read.ts';
import type { RequisitionCtx } from './service.ts';
import {
  applyRequisitionTransition,
  lockRequisition,
  REQUISITION_NOT_FOUND,
  type RequisitionRow,
} from './transitions.ts';

/**
 * Approve, reject with a reason, return for changes, resend, cancel (decision 059): each one transaction, the
 * requisition locked first, then who may (403), then the state (409, from the one transition table).
 */

export type Decision = 'approve' | 'reject' | 'return';

function mayDecide(m: Membership, userId: number, row: RequisitionRow, event: Decision) {
  const role = INSTITUTION_ROLE_LABELS[m.role];
  if (event === 'return' && row.state === 'aprobada') {
    if (!canInstitution(m.role, 'order.place'))
      throw forbidden(`Su papel (${role}) no permite devolver una requisición aprobada`);
    return;
  }
  requireInstitution(m, 'requisition.approve');
  if (event !== 'approve') return;
  if (row.requesterId === userId) throw forbidden('No puede aprobar su propia requisición');
  if (m.approvalLimitCents !== null && m.approvalLimitCents < row.totalCents)
    throw forbidden(
      `Su límite de aprobación es de ${formatMoney(m.approvalLimitCents)}; esta requisición es de ${formatMoney(row.totalCents)}. La verá un aprobador con un límite mayor.`,
    );
}

/** POST /api/requisitions/:id/{approve,reject,return}. */
export async function decide(
  ctx: RequisitionCtx,
  user: SessionUser,
  membership: Membership | null,
  id: number,
  event: Decision,
  reason: string | null,
) {
  if (!membership) requireInstitution(membership, 'requisition.approve');
  const m = membership!;
  const row = await ctx.db.transaction(async (tx) => {
    const locked = await lockRequisition(tx, id);
    if (!maySee(m, user.id, locked)) throw notFound(REQUISITION_NOT_FOUND);
    mayDecide(m, user.id, locked, event);
    const updated = await applyRequisitionTransition(tx, locked, event, { actorId: user.id, reason });
    const mail =
      event === 'approve'
        ? {
            kind: 'approved' as const,
            approverName: personName(user),
            reason,
            placesAtOnce: m.institution.approvalPlacesOrder,
          }
        : {
            kind: event === 'reject' ? ('rejected' as const) : ('returned' as const),
            approverName: personName(user),
            reason: reason ?? '',
          };
    await enqueueRequisitionMail(
      tx,
      updated,
      m.institution,
      [await personOf(tx, updated.requesterId)],
      mail,
      ctx.publicUrl,
      String(updated.updatedAt.getTime()),
    );
    return updated;
  });
  return row;
}

type Fields = z.infer<typeof requisitionFieldsSchema>;

/**
 * POST /api/requisitions/:id/resend: the requester, after a return, with the note and free fields corrected;
 * the quotation must still be valid and unchanged, and the approvers are mailed again.
 */
export async function resend(
  ctx: RequisitionCtx,
  user: SessionUser,
  membership: Membership | null,
  id: number,
  fields: Fields,
) {
  const m = requireInstitution(membership, 'requisition.create');
  const row = await ctx.db.transaction(async (tx) => {
    const locked = await lockRequisition(tx, id);
    if (!maySee(m, user.id, locked)) throw notFound(REQUISITION_NOT_FOUND);
    if (locked.requesterId !== user.id) throw forbidden('Solo quien la solicitó puede reenviarla');
    const [q] = await tx.select().from(quotations).where(eq(quotations.id, locked.quotationId));
    if (!q) throw notFound(REQUISITION_NOT_FOUND);
    if ((await stateOfRow(tx, q)) !== 'vigente')
      throw conflict(
        `La cotización ${q.folio} de esta requisición ya no está vigente: envíe el carrito a aprobación de nuevo`,
        'quotation_not_valid',
      );
    if ((await currentRevision(tx, q)).totalCents !== locked.totalCents)
      throw conflict(
        `La cotización ${q.folio} cambió: envíe el carrito a aprobación de nuevo`,
        'requisition_changed',
      );
    const updated = await applyRequisitionTransition(
      tx,
      locked,
      'resend',
      { actorId: user.id, reason: fields.note || null },
      {
        note: fields.note ?? locked.note,
        costCentre: fields.costCentre ?? locked.costCentre,
        project: fields.project ?? locked.project,
      },
    );
    await enqueueRequisitionMail(
      tx,
      updated,
      m.institution,
      await approversFor(tx, m.institution.id, updated.totalCents, user.id),
      { kind: 'sent', requesterName: personName(user), resent: true },
      ctx.publicUrl,
      String(updated.updatedAt.getTime()),
    );
    return updated;
  });
  return detailOf(ctx.db, m, user.id, row);
}

/** POST /api/requisitions/:id/cancel: the requester (their own) or the administrador, before it is placed. */
export async function cancel(
  ctx: RequisitionCtx,
  user: SessionUser,
  membership: Membership | null,
  id: number,
  reason: string | null,
) {
  const m = requireInstitution(membership, 'requisition.create');
  const row = await ctx.db.transaction(async (tx) => {
    const locked = await lockRequisition(tx, id);
    if (!maySee(m, user.id, locked)) throw notFound(REQUISITION_NOT_FOUND);
    if (locked.requesterId !== user.id && m.role !== 'administrador')
      throw forbidden('Solo quien la solicitó o el administrador pueden cancelarla');
    return applyRequisitionTransition(tx, locked, 'cancel', { actorId: user.id, reason });
  });
  return detailOf(ctx.db, m, user.id, row);
}
