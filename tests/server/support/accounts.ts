import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/** Test helpers for the accounts' API tests (app.inject). */

export const PASSWORD = 'Matraz#2024x';

let counter = 0;
export const newEmail = (tag = 'cliente') => `${tag}.${process.pid}.${++counter}@example.com`;

export const registration = (overrides: Record<string, unknown> = {}) => ({
  username: newEmail(),
  nombre: 'Ana María',
  apellidoPat: 'López',
  apellidoMat: 'Núñez',
  telefono: '3312345678',
  password: PASSWORD,
  ...overrides,
});

/** The `name=value` part of the session cookie set by a response, or undefined. */
export function sessionCookie(res: LightMyRequestResponse): string | undefined {
  const header = res.headers['set-cookie'];
  const all = Array.isArray(header) ? header : header ? [header] : [];
  const found = all.find((c) => /^(__Host-)?sid=[^;]/.test(c));
  return found?.split(';')[0];
}

/** The newest registration code mailed to `email` (the outbox keeps what was sent). */
export async function registrationCode(app: FastifyInstance, email: string): Promise<string> {
  const { rows } = await app.db.execute<{ subject: string }>(
    sql`select subject from mail_outbox where "to" = ${email} and kind = 'register-code' order by id desc limit 1`,
  );
  const code = /(\d{6})\s*$/.exec(rows[0]?.subject ?? '')?.[1];
  if (!code) throw new Error(`sin código de verificación para ${email}`);
  return code;
}

/**
 * Registration as the shopper does it (issue 23): the form, then the 6-digit code from the mail. Answers
 * the verification's response (session cookie, user).
 */
export async function registerWithCode(
  app: FastifyInstance,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/register', payload: body, headers });
  if (res.statusCode !== 200) return res;
  const code = await registrationCode(app, body.username as string);
  return app.inject({
    method: 'POST',
    url: '/api/auth/register/verify',
    payload: { username: body.username, code },
    headers,
  });
}

export async function signUp(app: FastifyInstance, overrides: Record<string, unknown> = {}) {
  const body = registration(overrides);
  const res = await registerWithCode(app, body);
  if (res.statusCode !== 200) throw new Error(`registro falló: ${res.statusCode} ${res.body}`);
  const cookie = sessionCookie(res);
  if (!cookie) throw new Error(`registro sin cookie: ${res.body}`);
  return { email: body.username as string, password: body.password as string, cookie, user: res.json().user };
}

export const signIn = (
  app: FastifyInstance,
  username: string,
  password: string,
  headers: Record<string, string> = {},
  remoteAddress = '127.0.0.1',
) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username, password },
    headers,
    remoteAddress,
  });

export const whoAmI = async (app: FastifyInstance, cookie: string | undefined) =>
  (await app.inject({ url: '/api/auth/session', headers: cookie ? { cookie } : {} })).json().user as {
    id: number;
    email: string;
  } | null;
