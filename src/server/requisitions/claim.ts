import { eq } from 'drizzle-orm';
import { canInstitution } from '../../shared/institutions.ts';
import { formatMoney } from '../../shared/money.ts';
import type { Tx } from '../db/client.ts';
import { quotations } from '../db/schema.ts';
import { conflict, forbidden } from '../http/errors.ts';
import { membershipOf } from '../institutions/membership.ts';
import { checkSpendingLimits } from '../institutions/spending.ts';
import { currentRevision } from '../quotations/service.ts';
import { enqueueRequisitionMail } from './mail.ts';
import { personOf } from './read.ts';
import { applyRequisitionTransition, canMove, lockRequisition, refusal } from './transitions.ts';

/**
 * Inside checkout's order transaction (decision 059): placing an approved requisition is converting its quotation
 * into an order for the institution. Here, under the requisition's row lock: its state, who places it, that the
 * quotation is still the one approved, and the requester's spending limits (their member row locked).
 */
export type RequisitionClaim = { id: number; auto: boolean };

export async function claimRequisitionForOrder(
  tx: Tx,
  userId: number,
  claim: RequisitionClaim,
  folio: string | undefined,
) {
  const row = await lockRequisition(tx, claim.id);
  if (!canMove(row.state, 'place')) throw conflict(refusal(row, 'place'), 'requisition_state');
  const m = await membershipOf(tx, userId, row.institutionId);
  const allowed = claim.auto
    ? m?.institution.approvalPlacesOrder === true && row.decidedBy === userId
    : m !== null && canInstitution(m.role, 'order.place');
  if (!m || !allowed)
    throw forbidden('Solo un comprador o el administrador de la institución coloca el pedido');
  const [q] = await tx.select().from(quotations).where(eq(quotations.id, row.quotationId));
  if (!q || q.folio !== folio)
    throw conflict('La solicitud no corresponde a la cotización de la requisición', 'quotation_mismatch');
  const revision = await currentRevision(tx, q);
  if (revision.totalCents !== row.totalCents)
    throw conflict(
      `La cotización ${q.folio} cambió desde que se aprobó (${formatMoney(row.totalCents)} → ${formatMoney(revision.totalCents)}). Devuelva la requisición para que se envíe de nuevo.`,
      'requisition_changed',
    );
  const requester = await personOf(tx, row.requesterId);
  await checkSpendingLimits(
    tx,
    {
      institutionId: row.institutionId,
      userId: row.requesterId,
      institution: m.institution.razonSocial,
      name: requester.name,
    },
    row.totalCents,
    { lock: true },
  );
  return { row, institution: m.institution, requester, auto: claim.auto };
}

export type ClaimedRequisition = Awaited<ReturnType<typeof claimRequisitionForOrder>>;

/** The order written: the requisition is placed, in the same transaction, and its requester told. */
export async function markRequisitionPlaced(
  tx: Tx,
  claimed: ClaimedRequisition,
  orderNumber: number,
  userId: number,
  publicUrl: string,
) {
  const updated = await applyRequisitionTransition(
    tx,
    claimed.row,
    'place',
    {
      actorId: claimed.auto ? null : userId,
      reason: claimed.auto ? 'Colocado al aprobarse, por la regla de la institución' : null,
      orderNumber,
    },
    { placedBy: userId, orderNumber },
  );
  await enqueueRequisitionMail(
    tx,
    updated,
    claimed.institution,
    [claimed.requester],
    { kind: 'placed', orderNumber },
    publicUrl,
    String(orderNumber),
  );
}
