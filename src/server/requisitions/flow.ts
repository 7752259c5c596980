import type { RequisitionContext } from '../../shared/schemas/requisitions.ts';
import type { SessionUser } from '../auth/session.ts';
import { AppError } from '../http/errors.ts';
import type { Membership } from '../institutions/membership.ts';
import type { OrderContext } from '../orders/context.ts';
import { type Decision, decide } from './decisions.ts';
import { placeRequisition } from './place.ts';
import { detailOf, visibleRequisition } from './read.ts';
import type { RequisitionCtx } from './service.ts';

/** The answers of the decision routes (decision 059): the requisition as it is after, and any order placed. */

export function requisitionContextOf(m: Membership | null): RequisitionContext {
  if (!m) return { institution: null };
  const { id, razonSocial, costCentreLabel, projectLabel } = m.institution;
  return { institution: { id, razonSocial, role: m.role, costCentreLabel, projectLabel } };
}

export async function decideAndRead(
  ctx: RequisitionCtx,
  user: SessionUser,
  m: Membership | null,
  id: number,
  event: Decision,
  reason: string | null,
) {
  const row = await decide(ctx, user, m, id, event, reason);
  return { requisition: await detailOf(ctx.db, m!, user.id, row), placed: null, placeError: null };
}

/**
 * Approve; when the institution's rule says so, place the order at once as the approver. A placement refused
 * (the requester's monthly limit, stock, an expired quotation) leaves it approved, for a comprador, and says why.
 */
export async function approveAndPlace(
  ctx: RequisitionCtx,
  orderCtx: OrderContext,
  user: SessionUser,
  m: Membership | null,
  id: number,
  reason: string | null,
) {
  const row = await decide(ctx, user, m, id, 'approve', reason);
  let placed: { orderNumber: number } | null = null;
  let placeError: string | null = null;
  if (m!.institution.approvalPlacesOrder) {
    try {
      placed = { orderNumber: await placeRequisition(orderCtx, user, m, id, { auto: true }) };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      placeError = error.message;
    }
  }
  const after = placed ? await visibleRequisition(ctx.db, m!, user.id, id) : row;
  return { requisition: await detailOf(ctx.db, m!, user.id, after), placed, placeError };
}

export async function placeAndRead(
  ctx: RequisitionCtx,
  orderCtx: OrderContext,
  user: SessionUser,
  m: Membership | null,
  id: number,
  purchaseOrder: string | undefined,
) {
  const orderNumber = await placeRequisition(orderCtx, user, m, id, purchaseOrder ? { purchaseOrder } : {});
  const row = await visibleRequisition(ctx.db, m!, user.id, id);
  return { requisition: await detailOf(ctx.db, m!, user.id, row), placed: { orderNumber }, placeError: null };
}
