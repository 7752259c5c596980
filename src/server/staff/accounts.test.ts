import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  createStaff,
  outbox,
  type Shopper,
  signInWithPassword,
} from '../../../tests/server/support/staff.ts';
import { STAFF_DISABLED } from '../../shared/staff-roles.ts';
import { STAFF_MESSAGES } from './accounts.ts';

/**
 * The administrator's staff screen through the API (issue 36, decision 064): invite → accept → role; change a role;
 * deactivate ends the sessions and the sign-in; the last active administrador cannot be demoted or deactivated.
 */

let t: CheckoutTestApp;
let admin: Shopper;
beforeAll(async () => {
  t = await createCheckoutApp();
  admin = await createStaff(t);
});
afterAll(() => t.close());

const PASSWORD = 'Almacen#2026lab';
const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload: payload as object } : {}) });

async function invite(email: string, role: string) {
  const res = await send('POST', '/api/admin/staff/invitations', admin.cookie, { email, role });
  expect(res.statusCode, res.body).toBe(200);
  const mail = (await outbox(t, 'staff-invitation')).filter((m) => m.to === email).at(-1)!;
  const token = /\/admin\/invitacion\/([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!;
  return { token, mail };
}

async function accept(token: string) {
  return t.app.inject({
    method: 'POST',
    url: `/api/staff/invitations/${token}/accept`,
    payload: { nombre: 'Ramiro', apellidoPat: 'Almacén', telefono: '3312345678', password: PASSWORD },
  });
}

const idOf = async (email: string) =>
  (await t.db.execute<{ id: number }>(sql`select id from users where email = ${email}`)).rows[0]!.id;

describe('invitations', () => {
  it('invite → the mail with a single-use link → the invitee sets name and password and gets the role', async () => {
    const email = 'ramiro.almacen@ciencia-occidente.mx';
    const { token, mail } = await invite(email, 'almacen');
    expect(mail.subject).toMatch(/^Invitación al personal de /);
    expect(mail.text).toContain('Almacén');

    const preview = await t.app.inject({ url: `/api/staff/invitations/${token}` });
    expect(preview.json()).toMatchObject({ email, role: 'almacen' });
    const listed = (await send('GET', '/api/admin/staff', admin.cookie)).json();
    expect(listed.invitations).toContainEqual(expect.objectContaining({ email, role: 'almacen' }));

    const accepted = await accept(token);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const cookie = accepted.cookies.find((c) => c.name === 'sid')!;
    const me = await send('GET', '/api/staff/me', `sid=${cookie.value}`);
    expect(me.json()).toMatchObject({ email, role: 'almacen', secondFactor: 'enrol' });

    const twice = await accept(token);
    expect(twice.statusCode).toBe(410);
    expect(twice.json().error.message).toBe(STAFF_MESSAGES.invitationUsed);

    const members = (await send('GET', '/api/admin/staff', admin.cookie)).json();
    expect(members.members).toContainEqual(
      expect.objectContaining({
        email,
        role: 'almacen',
        active: true,
        totpEnrolled: false,
        name: 'Ramiro Almacén',
      }),
    );
    expect(members.invitations.map((i: { email: string }) => i.email)).not.toContain(email);
    const log = (
      await t.db.execute<{ action: string; actor_label: string }>(
        sql`select action, actor_label from audit_log where action in ('staff.invite', 'staff.join') order by id`,
      )
    ).rows;
    expect(log).toEqual([
      { action: 'staff.invite', actor_label: admin.email },
      { action: 'staff.join', actor_label: email },
    ]);
  });

  it('refuses an address already on the staff or with a shopper account, and a made-up or withdrawn link', async () => {
    const staffTaken = await send('POST', '/api/admin/staff/invitations', admin.cookie, {
      email: admin.email,
      role: 'ventas',
    });
    expect([staffTaken.statusCode, staffTaken.json().error.message]).toEqual([
      409,
      STAFF_MESSAGES.alreadyStaff,
    ]);
    const shopper = await createShopper(t);
    const customer = await send('POST', '/api/admin/staff/invitations', admin.cookie, {
      email: shopper.email,
      role: 'ventas',
    });
    expect([customer.statusCode, customer.json().error.message]).toEqual([
      409,
      STAFF_MESSAGES.customerAccount,
    ]);
    const badRole = await send('POST', '/api/admin/staff/invitations', admin.cookie, {
      email: 'otra@ciencia-occidente.mx',
      role: 'gerente',
    });
    expect(badRole.statusCode).toBe(400);
    expect(badRole.json().error.message).toMatch(/rol/i);

    const unknown = await t.app.inject({ url: `/api/staff/invitations/${'A'.repeat(43)}` });
    expect([unknown.statusCode, unknown.json().error.message]).toEqual([
      404,
      STAFF_MESSAGES.invitationUnknown,
    ]);

    const { token: old } = await invite('ventas.uno@ciencia-occidente.mx', 'ventas');
    const { token: newer } = await invite('ventas.uno@ciencia-occidente.mx', 'contabilidad');
    expect((await accept(old)).json().error.message).toBe(STAFF_MESSAGES.invitationRevoked);
    expect((await accept(newer)).statusCode).toBe(200);
    const me = await signInWithPassword(t, 'ventas.uno@ciencia-occidente.mx', PASSWORD);
    expect((await send('GET', '/api/staff/me', me.cookie)).json().role).toBe('contabilidad');
  });
});

describe('roles and deactivation', () => {
  it('changes a role; deactivation ends the sessions and the sign-in; reactivation lets in again', async () => {
    const email = 'lucia.ventas@ciencia-occidente.mx';
    const { token } = await invite(email, 'ventas');
    const accepted = await accept(token);
    const session = `sid=${accepted.cookies.find((c) => c.name === 'sid')!.value}`;
    const id = await idOf(email);

    const changed = await send('PUT', `/api/admin/staff/${id}/role`, admin.cookie, { role: 'contabilidad' });
    expect(changed.json().message).toBe('Rol cambiado a Contabilidad');
    expect((await send('GET', '/api/staff/me', session)).json().role).toBe('contabilidad');

    const off = await send('POST', `/api/admin/staff/${id}/deactivate`, admin.cookie);
    expect(off.statusCode, off.body).toBe(200);
    expect((await send('GET', '/api/staff/me', session)).statusCode).toBe(401);
    const sessions = (
      await t.db.execute<{ n: number }>(sql`select count(*)::int as n from sessions where user_id = ${id}`)
    ).rows[0]!.n;
    expect(sessions).toBe(0);
    const refused = await signInWithPassword(t, email, PASSWORD);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe(STAFF_DISABLED);
    const wrongPassword = await signInWithPassword(t, email, 'Incorrecta#2026');
    expect(wrongPassword.status).toBe(401);
    const listed = (await send('GET', '/api/admin/staff', admin.cookie)).json();
    expect(listed.members).toContainEqual(expect.objectContaining({ email, active: false }));

    const on = await send('POST', `/api/admin/staff/${id}/reactivate`, admin.cookie);
    expect(on.statusCode).toBe(200);
    expect((await signInWithPassword(t, email, PASSWORD)).status).toBe(200);
    const actions = (
      await t.db.execute<{ action: string }>(
        sql`select action from audit_log where entity_type = 'user' and entity_id = ${String(id)} order by id`,
      )
    ).rows.map((r) => r.action);
    expect(actions).toEqual(['staff.join', 'staff.role', 'staff.deactivate', 'staff.reactivate']);
  });

  it('never leaves the shop without an active administrador, even when two demote each other at once', async () => {
    const other = await createStaff(t, 'administrador');
    // Leave exactly two active administrators: `admin` and `other`.
    await t.db.execute(
      sql`update users set staff_role = 'ventas' where role = 'staff' and staff_role = 'administrador' and id not in (${admin.id}, ${other.id})`,
    );
    const [a, b] = await Promise.all([
      send('PUT', `/api/admin/staff/${other.id}/role`, admin.cookie, { role: 'almacen' }),
      send('PUT', `/api/admin/staff/${admin.id}/role`, other.cookie, { role: 'almacen' }),
    ]);
    const statuses = [a, b].map((r) => r.statusCode).sort();
    // The loser either met the last-administrator rule (409) or had already lost the permission (403).
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const admins = (
      await t.db.execute<{ id: number }>(
        sql`select id from users where role = 'staff' and staff_role = 'administrador' and staff_disabled_at is null`,
      )
    ).rows;
    expect(admins).toHaveLength(1);
    const last = admins[0]!.id;
    const lastCookie = last === admin.id ? admin.cookie : other.cookie;
    const demote = await send('PUT', `/api/admin/staff/${last}/role`, lastCookie, { role: 'ventas' });
    expect([demote.statusCode, demote.json().error.message]).toEqual([409, STAFF_MESSAGES.lastAdmin]);
    const self = await send('POST', `/api/admin/staff/${last}/deactivate`, lastCookie);
    expect([self.statusCode, self.json().error.message]).toEqual([409, STAFF_MESSAGES.selfDeactivate]);
    const still = await send('PUT', `/api/admin/staff/${last}/role`, lastCookie, { role: 'administrador' });
    expect(still.statusCode).toBe(200);
  });

  it('a missing staff member is 404 in Spanish, a shopper id too', async () => {
    const shopper = await createShopper(t);
    for (const id of [999_999, shopper.id]) {
      const res = await send('PUT', `/api/admin/staff/${id}/role`, admin.cookie, { role: 'ventas' });
      expect([res.statusCode, res.json().error.message]).toEqual([404, STAFF_MESSAGES.notFound]);
    }
  });
});
