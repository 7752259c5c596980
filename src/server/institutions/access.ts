import type { FastifyRequest } from 'fastify';
import type { InstitutionAction } from '../../shared/institutions.ts';
import { INSTITUTION_NOT_FOUND } from '../../shared/schemas/institutions.ts';
import { requireUser, type SessionUser } from '../auth/session.ts';
import { notFound } from '../http/errors.ts';
import { buyingFor, type Membership, membershipOf, requireInstitution } from './membership.ts';

/**
 * The signed-in member of institution `id` allowed `action`. Someone who is not a live member reads «Institución no
 * encontrada» (404), exactly as for an id that does not exist: another institution's existence never leaks. A member
 * whose role may not take the action gets requireInstitution's 403 naming the role.
 */
export async function memberFor(
  request: FastifyRequest,
  id: number,
  action: InstitutionAction | null,
): Promise<{ user: SessionUser; membership: Membership }> {
  const user = await requireUser(request);
  const membership = await membershipOf(request.server.db, user.id, id);
  if (!membership) throw notFound(INSTITUTION_NOT_FOUND);
  if (action) requireInstitution(membership, action);
  return { user, membership };
}

/**
 * Whose shared things a request works on (saved lists, quotations): the person's own, or — while the session buys
 * for an institution — the institution's, when the member's role may `action`.
 */
export async function buyerScope(
  request: FastifyRequest,
  action: InstitutionAction,
): Promise<{ userId: number; institutionId: number | null }> {
  const user = await requireUser(request);
  const membership = await buyingFor(request);
  if (!membership) return { userId: user.id, institutionId: null };
  requireInstitution(membership, action);
  return { userId: user.id, institutionId: membership.institution.id };
}
