import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createSession, sessionCookieName } from '../../../src/server/auth/session.ts';
import { users } from '../../../src/server/db/schema.ts';
import type { StaffRole } from '../../../src/shared/staff-roles.ts';
import {
  type CheckoutTestApp,
  createShopper,
  placeOrderRequest,
  productWithStock,
  type Shopper,
  sandboxToken,
} from './checkout.ts';

export { createCheckoutApp, createShopper, productWithStock, stockOf } from './checkout.ts';
export type { CheckoutTestApp, Shopper };

/**
 * A staff member with `role` (administrador unless told) and a live session that has passed the second factor — as
 * after the password and the TOTP code (src/server/staff/second-factor.test.ts tests those steps themselves).
 */
export async function createStaff(t: CheckoutTestApp, role: StaffRole = 'administrador'): Promise<Shopper> {
  const email = `personal.${randomUUID().slice(0, 8)}@ciencia-occidente.mx`;
  const [user] = await t.db
    .insert(users)
    .values({
      email,
      passwordHash: 'x',
      nombre: 'Laura',
      apellidoPat: 'Gómez',
      telefono: '3311112222',
      role: 'staff',
      staffRole: role,
    })
    .returning({ id: users.id });
  const session = await createSession(t.db, user!.id, {}, { secondFactorAt: new Date() });
  return { id: user!.id, email, cookie: `${sessionCookieName(t.app.config)}=${session.token}` };
}

/** A paid order of `shopper` (through the real checkout with an approved sandbox card). */
export async function paidOrder(
  t: CheckoutTestApp,
  shopper: Shopper,
  lines: { code: string; quantity: number }[],
): Promise<number> {
  const res = await placeOrderRequest(t, shopper, {
    items: lines,
    cardToken: await sandboxToken(t, '4111111111111111'),
    deviceSessionId: 'admin-tests',
  });
  if (res.statusCode !== 201) throw new Error(`order: ${res.statusCode} ${res.body}`);
  return (res.json() as { number: number }).number;
}

/** A paid order of one product with its own stock (index picks a different product per test). */
export async function paidOrderOfNew(t: CheckoutTestApp, index: number, quantity = 2) {
  const shopper = await createShopper(t);
  const product = await productWithStock(t, 10, index);
  const number = await paidOrder(t, shopper, [{ code: product.code, quantity }]);
  return { shopper, product, number };
}

export async function auditRows(t: CheckoutTestApp, entityType: string, entityId: string) {
  return (
    await t.db.execute<{
      action: string;
      actor_label: string;
      actor_user_id: number | null;
      before: unknown;
      after: unknown;
    }>(sql`select action, actor_label, actor_user_id, before, after from audit_log
      where entity_type = ${entityType} and entity_id = ${entityId} order by id`)
  ).rows;
}

export async function outbox(t: CheckoutTestApp, kind: string) {
  return (
    await t.db.execute<{ to: string; subject: string; text: string }>(
      sql`select "to", subject, text from mail_outbox where kind = ${kind} order by id`,
    )
  ).rows;
}

/** Signs in with e-mail and password through the API: the session cookie (a staff session short of the second factor). */
export async function signInWithPassword(t: CheckoutTestApp, email: string, password: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: email, password },
  });
  if (res.statusCode !== 200) return { status: res.statusCode, cookie: '', body: res.json() };
  const set = res.cookies.find((c) => c.name === sessionCookieName(t.app.config));
  return { status: res.statusCode, cookie: `${set!.name}=${set!.value}`, body: res.json() };
}
