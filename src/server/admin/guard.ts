import type { FastifyRequest } from 'fastify';
import { NO_PERMISSION } from '../../shared/schemas/admin.ts';
import type { StaffPermission } from '../../shared/staff-roles.ts';
import { getSessionUser, type SessionUser } from '../auth/session.ts';
import { forbidden, unauthorized } from '../http/errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The one permission a back-office route needs (issue 36, src/shared/staff-roles.ts). */
    permission?: StaffPermission;
  }
}

const staffOf = new WeakMap<FastifyRequest, SessionUser>();

/** The signed-in staff member: 401 for a visitor, 403 for a shopper. */
export async function requireStaff(request: FastifyRequest): Promise<SessionUser> {
  const known = staffOf.get(request);
  if (known) return known;
  const user = await getSessionUser(request);
  if (!user) throw unauthorized('Inicie sesión para continuar');
  if (user.role !== 'staff') throw forbidden(NO_PERMISSION);
  staffOf.set(request, user);
  return user;
}
