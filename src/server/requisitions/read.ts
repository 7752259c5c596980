import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { canInstitution } from '../../shared/institutions.ts';
import {
  REQUISITION_EVENT_LABELS,
  REQUISITION_STATE_LABELS,
  requisitionFolio,
} from '../../shared/requisitions.ts';
import type { RequisitionDetail, RequisitionSummary } from '../../shared/schemas/requisitions.ts';
import type { Db, Tx } from '../db/client.ts';
import { institutionMembers, quotations, requisitionEvents, requisitions, users } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import type { Membership } from '../institutions/membership.ts';
import { checkSpendingLimits } from '../institutions/spending.ts';
import { currentRevision } from '../quotations/service.ts';
import { canMove, REQUISITION_NOT_FOUND, type RequisitionRow } from './transitions.ts';

/** What a member may see of their institution's requisitions (decision 059), and how it reads. */

export const personName = (u: { nombre: string; apellidoPat: string; apellidoMat: string }) =>
  [u.nombre, u.apellidoPat, u.apellidoMat].filter(Boolean).join(' ');

/** A solicitante sees their own; aprobador, comprador and administrador see the institution's. Others: none. */
export const maySee = (membership: Membership, userId: number, row: RequisitionRow) =>
  row.institutionId === membership.institution.id &&
  (row.requesterId === userId || canInstitution(membership.role, 'orders.read_all'));

/** The requisition if the member may see it; another institution's, or another requester's, is a 404. */
export async function visibleRequisition(db: Db | Tx, membership: Membership, userId: number, id: number) {
  const [row] = await db.select().from(requisitions).where(eq(requisitions.id, id));
  if (!row || !maySee(membership, userId, row)) throw notFound(REQUISITION_NOT_FOUND);
  return row;
}

/** May this member approve this requisition: the role, not their own, and a limit that covers it. */
export const mayApprove = (membership: Membership, userId: number, row: RequisitionRow) =>
  canInstitution(membership.role, 'requisition.approve') &&
  row.requesterId !== userId &&
  (membership.approvalLimitCents === null || membership.approvalLimitCents >= row.totalCents);

/** What the member may do now; the service checks each again when asked. */
export function actionsOf(membership: Membership, userId: number, row: RequisitionRow) {
  const approver = canInstitution(membership.role, 'requisition.approve');
  const placer = canInstitution(membership.role, 'order.place');
  const own = row.requesterId === userId;
  return {
    approve: canMove(row.state, 'approve') && mayApprove(membership, userId, row),
    reject: canMove(row.state, 'reject') && approver,
    return: (row.state === 'pendiente' && approver) || (row.state === 'aprobada' && placer),
    place: canMove(row.state, 'place') && placer,
    edit: canMove(row.state, 'resend') && own,
    cancel: canMove(row.state, 'cancel') && (own || membership.role === 'administrador'),
  };
}

/** People by id, with their names (one query). */
async function peopleById(db: Db | Tx, ids: readonly number[]) {
  if (ids.length === 0) return new Map<number, { name: string; email: string }>();
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      nombre: users.nombre,
      apellidoPat: users.apellidoPat,
      apellidoMat: users.apellidoMat,
    })
    .from(users)
    .where(inArray(users.id, [...new Set(ids)]));
  return new Map(rows.map((u) => [u.id, { name: personName(u), email: u.email }]));
}

function summaryOf(row: RequisitionRow, requesterName: string): RequisitionSummary {
  return {
    id: row.id,
    folio: requisitionFolio(row.id),
    state: row.state,
    stateLabel: REQUISITION_STATE_LABELS[row.state],
    requesterName,
    totalCents: row.totalCents,
    lineCount: row.lineCount,
    costCentre: row.costCentre,
    project: row.project,
    createdAt: row.createdAt.toISOString(),
    orderNumber: row.orderNumber,
  };
}

/** The requisitions the member may see, newest first (the requester's own for a solicitante). */
export async function listRequisitions(db: Db, membership: Membership, userId: number) {
  const all = canInstitution(membership.role, 'orders.read_all');
  const rows = await db
    .select()
    .from(requisitions)
    .where(
      and(
        eq(requisitions.institutionId, membership.institution.id),
        all ? undefined : eq(requisitions.requesterId, userId),
      ),
    )
    .orderBy(desc(requisitions.createdAt), desc(requisitions.id))
    .limit(200);
  const people = await peopleById(
    db,
    rows.map((r) => r.requesterId),
  );
  const { razonSocial, costCentreLabel, projectLabel } = membership.institution;
  return {
    institution: { razonSocial, costCentreLabel, projectLabel },
    canReadTrail: canInstitution(membership.role, 'audit.read'),
    requisitions: rows.map((r) => summaryOf(r, people.get(r.requesterId)?.name ?? '')),
  };
}

export async function detailOf(
  db: Db | Tx,
  membership: Membership,
  userId: number,
  row: RequisitionRow,
): Promise<RequisitionDetail> {
  const [q] = await db.select().from(quotations).where(eq(quotations.id, row.quotationId));
  const revision = await currentRevision(db as Db, q!);
  const trail = await db
    .select()
    .from(requisitionEvents)
    .where(eq(requisitionEvents.requisitionId, row.id))
    .orderBy(asc(requisitionEvents.id));
  const people = await peopleById(db, [
    row.requesterId,
    ...trail.map((e) => e.actorId).filter((id): id is number => id !== null),
  ]);
  const requester = people.get(row.requesterId);
  const actions = actionsOf(membership, userId, row);
  let placeNote: string | null = null;
  if (actions.place) {
    try {
      await checkSpendingLimits(
        db,
        {
          institutionId: row.institutionId,
          userId: row.requesterId,
          institution: membership.institution.razonSocial,
          name: requester?.name ?? '',
        },
        row.totalCents,
      );
    } catch (error) {
      placeNote = (error as Error).message;
    }
  }
  const inst = membership.institution;
  return {
    ...summaryOf(row, requester?.name ?? ''),
    institution: {
      razonSocial: inst.razonSocial,
      rfc: inst.rfc,
      costCentreLabel: inst.costCentreLabel,
      projectLabel: inst.projectLabel,
      approvalPlacesOrder: inst.approvalPlacesOrder,
    },
    note: row.note,
    requesterEmail: requester?.email ?? '',
    quotationFolio: q!.folio,
    validUntil: q!.validUntil.toISOString(),
    lines: revision.lines.map((l) => ({
      code: l.code,
      description: l.description,
      unitPriceCents: l.unitPriceCents,
      quantity: l.quantity,
      amountCents: l.amountCents,
    })),
    subtotalCents: revision.subtotalCents,
    shippingCents: revision.shippingCents,
    ivaCents: revision.ivaCents,
    reason: row.reason,
    trail: trail.map((e) => ({
      event: e.event,
      label: REQUISITION_EVENT_LABELS[e.event],
      actor: e.actorId === null ? 'La tienda (regla de la institución)' : (people.get(e.actorId)?.name ?? ''),
      reason: e.reason,
      orderNumber: e.orderNumber,
      at: e.at.toISOString(),
    })),
    actions,
    placeNote,
  };
}

/**
 * The members to tell of a requisition waiting: aprobadores and administradores whose approval limit covers
 * `totalCents` (or who have none), never the requester.
 */
export async function approversFor(db: Db | Tx, institutionId: number, totalCents: number, except: number) {
  const rows = await db
    .select({
      email: users.email,
      nombre: users.nombre,
      apellidoPat: users.apellidoPat,
      apellidoMat: users.apellidoMat,
    })
    .from(institutionMembers)
    .innerJoin(users, eq(users.id, institutionMembers.userId))
    .where(
      and(
        eq(institutionMembers.institutionId, institutionId),
        isNull(institutionMembers.removedAt),
        inArray(institutionMembers.role, ['aprobador', 'administrador']),
        or(
          isNull(institutionMembers.approvalLimitCents),
          sql`${institutionMembers.approvalLimitCents} >= ${totalCents}`,
        ),
        sql`${institutionMembers.userId} <> ${except}`,
      ),
    )
    .orderBy(users.email);
  return rows.map((u) => ({ email: u.email, name: personName(u) }));
}

export async function personOf(db: Db | Tx, userId: number) {
  const p = (await peopleById(db, [userId])).get(userId);
  if (!p) throw notFound('Usuario no encontrado');
  return p;
}
