import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { NO_PERMISSION } from '../../shared/schemas/admin.ts';
import {
  SECOND_FACTOR_MESSAGE,
  SECOND_FACTOR_REQUIRED,
  STAFF_DISABLED,
  STAFF_DISABLED_MESSAGE,
  STAFF_PERMISSIONS,
  type StaffPermission,
  type StaffRole,
  staffMay,
} from '../../shared/staff-roles.ts';
import { getSessionStaff, getSessionUser, type SessionUser } from '../auth/session.ts';
import { AppError, forbidden, unauthorized } from '../http/errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The one permission a back-office route needs (issue 36, src/shared/staff-roles.ts). */
    permission?: StaffPermission;
  }
}

/** A signed-in staff member who passed every check but the route's permission. */
export type StaffUser = SessionUser & { staffRole: StaffRole };

const staffOf = new WeakMap<FastifyRequest, StaffUser>();

/**
 * The signed-in staff member, and — when a permission is named — that their role holds it. In order: 401 for a
 * visitor; 403 for a shopper, a staff account without a known role, a deactivated one (its own code), a session that
 * has not passed the second factor (code 'second_factor_required', so the screen asks for the code), and a role
 * without the permission. The messages name no route, role table or account detail.
 */
export async function requireStaff(
  request: FastifyRequest,
  permission?: StaffPermission,
): Promise<StaffUser> {
  let user = staffOf.get(request);
  if (!user) {
    const session = await getSessionUser(request);
    if (!session) throw unauthorized('Inicie sesión para continuar');
    const staff = await getSessionStaff(request);
    if (session.role !== 'staff' || !staff || !staff.role) throw forbidden(NO_PERMISSION);
    if (staff.disabled) throw new AppError(403, STAFF_DISABLED, STAFF_DISABLED_MESSAGE);
    if (!staff.secondFactorPassed) throw new AppError(403, SECOND_FACTOR_REQUIRED, SECOND_FACTOR_MESSAGE);
    user = { ...session, staffRole: staff.role };
    staffOf.set(request, user);
  }
  if (permission && !staffMay(user.staffRole, permission)) throw forbidden(NO_PERMISSION);
  return user;
}

export type AdminRoute = { method: string; url: string; permission: StaffPermission };
const tables = new WeakMap<FastifyInstance, AdminRoute[]>();

/**
 * One check per back-office route (decision 064): installed at the root before any route, so it sees every
 * /api/admin route wherever it is registered. A route without `config.permission` (or with one the table does not
 * know) stops the server at start-up with its name; every other gets `requireStaff(request, permission)` as its
 * first onRequest hook. The table of what was registered is kept for the role × route test.
 */
export function guardAdminRoutes(app: FastifyInstance) {
  const table: AdminRoute[] = [];
  tables.set(app, table);
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith('/api/admin')) return;
    const methods = [route.method].flat();
    const permission = route.config?.permission;
    if (!permission || !Object.hasOwn(STAFF_PERMISSIONS, permission)) {
      throw new Error(
        `La ruta ${methods.join(',')} ${route.url} no declara config.permission (src/shared/staff-roles.ts)`,
      );
    }
    const check = async (request: FastifyRequest) => {
      await requireStaff(request, permission);
    };
    route.onRequest = [check, ...[route.onRequest ?? []].flat()];
    for (const method of methods) table.push({ method, url: route.url, permission });
  });
}

/** Every /api/admin route the app registered, with its permission. */
export const adminRouteTable = (app: FastifyInstance): readonly AdminRoute[] => tables.get(app) ?? [];
