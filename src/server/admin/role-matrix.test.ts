import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createStaff,
  type Shopper,
} from '../../../tests/server/support/staff.ts';
import { NO_PERMISSION } from '../../shared/schemas/admin.ts';
import {
  SECOND_FACTOR_REQUIRED,
  STAFF_DISABLED,
  STAFF_PERMISSIONS,
  STAFF_ROLES,
  type StaffRole,
  staffMay,
} from '../../shared/staff-roles.ts';
import { createSession, sessionCookieName } from '../auth/session.ts';
import { users } from '../db/schema.ts';
import { adminRouteTable, guardAdminRoutes } from './guard.ts';

/**
 * The role × route matrix (issue 36, decision 064): every /api/admin route the app registered — read from the app's
 * own table, kept by the onRoute hook — called by each role. A role without the route's permission gets 403 with the
 * plain message; a role with it never gets 403 (a 400 for the empty body or a 404 for the made-up id is the route
 * working). Also: a session short of the second factor, a deactivated account and a staff account without a role are
 * refused everywhere.
 */

let t: CheckoutTestApp;
const byRole = {} as Record<StaffRole, Shopper>;
beforeAll(async () => {
  t = await createCheckoutApp();
  for (const role of STAFF_ROLES) byRole[role] = await createStaff(t, role);
});
afterAll(() => t.close());

/** The app's admin routes (HEAD copies aside) with their parameters filled by ids that match nothing. */
function routes() {
  return adminRouteTable(t.app)
    .filter((r) => r.method !== 'HEAD')
    .map((r) => ({ ...r, path: r.url.replace(/:[A-Za-z]+/g, '999999') }));
}

const call = (route: { method: string; path: string }, cookie: string) =>
  t.app.inject({ method: route.method as 'GET', url: route.path, headers: { cookie } });

async function staffWith(values: Partial<typeof users.$inferInsert>, secondFactor: boolean) {
  const [user] = await t.db
    .insert(users)
    .values({
      email: `matriz.${Math.random().toString(36).slice(2, 10)}@ciencia-occidente.mx`,
      passwordHash: 'x',
      nombre: 'Prueba',
      apellidoPat: 'Matriz',
      telefono: '3311112222',
      role: 'staff',
      staffRole: 'administrador',
      ...values,
    })
    .returning({ id: users.id });
  const session = await createSession(t.db, user!.id, {}, secondFactor ? { secondFactorAt: new Date() } : {});
  return `${sessionCookieName(t.app.config)}=${session.token}`;
}

describe('the role × route matrix', () => {
  it('reads the whole back office from the route table, each route with a known permission', () => {
    const list = routes();
    const spec = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(spec.paths)
      .filter(([path]) => path.startsWith('/api/admin'))
      .flatMap(([, methods]) => Object.keys(methods));
    expect(list.length).toBe(documented.length);
    expect(list.length).toBeGreaterThanOrEqual(90);
    for (const route of list) expect(Object.keys(STAFF_PERMISSIONS)).toContain(route.permission);
    expect(list).toContainEqual(
      expect.objectContaining({ method: 'POST', url: '/api/admin/orders/:number/cancel' }),
    );
    expect(list).toContainEqual(expect.objectContaining({ method: 'GET', url: '/api/admin/staff' }));
  });

  it('refuses exactly the roles without the permission and lets through those with it: 0 exceptions', async () => {
    const list = routes();
    let allowed = 0;
    let refused = 0;
    const exceptions: string[] = [];
    for (const route of list) {
      for (const role of STAFF_ROLES) {
        const res = await call(route, byRole[role].cookie);
        const may = staffMay(role, route.permission);
        if (may) {
          allowed++;
          if (res.statusCode === 403 || res.statusCode === 401 || res.statusCode >= 500)
            exceptions.push(
              `${role} ${route.method} ${route.url}: ${res.statusCode} ${res.body.slice(0, 120)}`,
            );
        } else {
          refused++;
          const body = res.json() as { error?: { code?: string; message?: string } };
          if (res.statusCode !== 403 || body.error?.message !== NO_PERMISSION)
            exceptions.push(`${role} ${route.method} ${route.url}: ${res.statusCode} instead of 403`);
        }
      }
    }
    console.log(
      `Matriz rol × ruta: ${list.length} rutas × ${STAFF_ROLES.length} roles = ${list.length * STAFF_ROLES.length} llamadas; ` +
        `permitidas ${allowed}, rechazadas ${refused}, excepciones ${exceptions.length}`,
    );
    expect(exceptions).toEqual([]);
    expect(allowed + refused).toBe(list.length * STAFF_ROLES.length);
    // Each role but the administrador is refused somewhere; the administrador nowhere.
    for (const role of STAFF_ROLES) {
      const some = list.some((r) => !staffMay(role, r.permission));
      expect(some, role).toBe(role !== 'administrador');
    }
  });

  it('refuses every route to a session short of the second factor, a deactivated account and one without a role', async () => {
    const pending = await staffWith({}, false);
    const disabled = await staffWith({ staffDisabledAt: new Date() }, true);
    const roleless = await staffWith({ staffRole: null }, true);
    const unknown = await staffWith({ staffRole: 'gerente' }, true);
    const before = (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from audit_log`)).rows[0]!
      .n;
    for (const route of routes()) {
      const a = await call(route, pending);
      expect([a.statusCode, a.json().error.code], `${route.method} ${route.url}`).toEqual([
        403,
        SECOND_FACTOR_REQUIRED,
      ]);
      const b = await call(route, disabled);
      expect([b.statusCode, b.json().error.code], `${route.method} ${route.url}`).toEqual([
        403,
        STAFF_DISABLED,
      ]);
      for (const cookie of [roleless, unknown]) {
        const c = await call(route, cookie);
        expect([c.statusCode, c.json().error.message], `${route.method} ${route.url}`).toEqual([
          403,
          NO_PERMISSION,
        ]);
      }
    }
    const after = (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from audit_log`)).rows[0]!
      .n;
    expect(after).toBe(before);
  });
});

describe('a back-office route without its permission', () => {
  it('stops the server at start-up, naming the route', async () => {
    const app = Fastify();
    guardAdminRoutes(app);
    expect(() => app.get('/api/admin/olvidada', async () => ({ ok: true }))).toThrow(
      'La ruta GET /api/admin/olvidada no declara config.permission (src/shared/staff-roles.ts)',
    );
    // Outside the back office nothing is asked.
    expect(() => app.get('/api/catalogo-libre', async () => ({ ok: true }))).not.toThrow();
    await app.close().catch(() => undefined);
  });

  it('and one naming a permission the table does not have', async () => {
    const app = Fastify();
    guardAdminRoutes(app);
    expect(() =>
      app.get('/api/admin/rara', { config: { permission: 'todo.poder' as 'tablero.ver' } }, async () => ({})),
    ).toThrow(/La ruta GET \/api\/admin\/rara no declara config.permission/);
    await app.close().catch(() => undefined);
  });
});
