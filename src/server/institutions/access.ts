import type { FastifyRequest } from 'fastify';
import type { InstitutionAction } from '../../shared/institutions.ts';
import { INSTITUTION_NOT_FOUND } from '../../shared/schemas/institutions.ts';
import { requireUser, type SessionUser } from '../auth/session.ts';
import { notFound } from '../http/errors.ts';
import { type Membership, membershipOf, requireInstitution } from './membership.ts';

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
