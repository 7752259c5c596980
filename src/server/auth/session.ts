import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isStaffRole, type StaffRole } from '../../shared/staff-roles.ts';
import type { AppConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { sessions, users } from '../db/schema.ts';
import { unauthorized } from '../http/errors.ts';

/** The signed-in shopper, as every feature sees them (identity comes from the session only). */
export type SessionUser = {
  id: number;
  email: string;
  role: 'customer' | 'staff';
  nombre: string;
  apellidoPat: string;
  apellidoMat: string;
  telefono: string;
};

/**
 * A staff member's standing in this session (issue 36, decision 064), read with the session itself: the role (null:
 * none or unknown), whether an administrator deactivated the account, whether TOTP is enrolled and whether this
 * session passed the second factor. Null for a shopper.
 */
export type StaffSession = {
  role: StaffRole | null;
  disabled: boolean;
  totpEnrolled: boolean;
  secondFactorPassed: boolean;
  /** The SHA-256 of this session's token (to mark it as having passed the second factor). */
  tokenHash: string;
};

export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;
/** lastSeenAt is written at most once a minute per session, not on every request. */
const TOUCH_EVERY_MS = 60 * 1000;

/** `__Host-` (Secure, Path=/, no Domain) in production; a plain name over http in development. */
export const sessionCookieName = (config: AppConfig) => (config.env === 'production' ? '__Host-sid' : 'sid');

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export type SessionMeta = { userAgent?: string | undefined; ip?: string | undefined };

/**
 * A new session: a 256-bit random token for the cookie; only its SHA-256 is stored. `secondFactorAt` is for a
 * session that starts with the second factor already passed (an invited staff member's first sign-in never does;
 * test fixtures do).
 */
export async function createSession(
  db: Db,
  userId: number,
  meta: SessionMeta = {},
  options: { secondFactorAt?: Date } = {},
) {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + SESSION_ABSOLUTE_MS);
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    expiresAt,
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
    ip: meta.ip ?? null,
    secondFactorAt: options.secondFactorAt ?? null,
  });
  return { token, expiresAt };
}

export async function deleteSessionByToken(db: Db, token: string) {
  await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
}

/** Ends every session of a user (after a recovery or a password change), optionally but one. */
export async function deleteUserSessions(db: Db, userId: number, keepTokenHash?: string) {
  await db
    .delete(sessions)
    .where(
      keepTokenHash
        ? and(eq(sessions.userId, userId), sql`${sessions.tokenHash} <> ${keepTokenHash}`)
        : eq(sessions.userId, userId),
    );
}

export function setSessionCookie(
  reply: FastifyReply,
  config: AppConfig,
  session: { token: string; expiresAt: Date },
) {
  reply.setCookie(sessionCookieName(config), session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.env === 'production',
    expires: session.expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, config: AppConfig) {
  reply.clearCookie(sessionCookieName(config), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.env === 'production',
  });
}

export function readSessionToken(request: FastifyRequest): string | undefined {
  const token = request.cookies[sessionCookieName(request.server.config)];
  // A well-formed token is 43 base64url characters; anything else is not worth a query.
  return token && /^[A-Za-z0-9_-]{43}$/.test(token) ? token : undefined;
}

type Resolved = { user: SessionUser; staff: StaffSession | null };
const resolved = new WeakMap<FastifyRequest, Promise<Resolved | null>>();

function resolve(request: FastifyRequest): Promise<Resolved | null> {
  let pending = resolved.get(request);
  if (!pending) {
    pending = lookup(request);
    resolved.set(request, pending);
  }
  return pending;
}

/**
 * The user of the request's session cookie, or null when there is none or it expired (idle 7 days,
 * absolute 30 days). Memoised per request.
 */
export async function getSessionUser(request: FastifyRequest): Promise<SessionUser | null> {
  return (await resolve(request))?.user ?? null;
}

/** The staff standing of the request's session (null for a visitor or a shopper); the same memoised lookup. */
export async function getSessionStaff(request: FastifyRequest): Promise<StaffSession | null> {
  return (await resolve(request))?.staff ?? null;
}

/** Forget the memoised answer (after sign-in or sign-out within the same request). */
export function forgetSessionUser(request: FastifyRequest) {
  resolved.delete(request);
}

async function lookup(request: FastifyRequest): Promise<Resolved | null> {
  const token = readSessionToken(request);
  if (!token) return null;
  const db = request.server.db;
  const tokenHash = hashToken(token);
  const now = new Date();
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      nombre: users.nombre,
      apellidoPat: users.apellidoPat,
      apellidoMat: users.apellidoMat,
      telefono: users.telefono,
      lastSeenAt: sessions.lastSeenAt,
      staffRole: users.staffRole,
      staffDisabledAt: users.staffDisabledAt,
      totpEnabledAt: users.totpEnabledAt,
      secondFactorAt: sessions.secondFactorAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, tokenHash),
        gt(sessions.expiresAt, now),
        gt(sessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_MS)),
      ),
    )
    .limit(1);
  if (!row) return null;
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.tokenHash, tokenHash));
  }
  const { lastSeenAt: _seen, role, staffRole, staffDisabledAt, totpEnabledAt, secondFactorAt, ...user } = row;
  const staff: StaffSession | null =
    role === 'staff'
      ? {
          role: isStaffRole(staffRole) ? staffRole : null,
          disabled: staffDisabledAt !== null,
          totpEnrolled: totpEnabledAt !== null,
          secondFactorPassed: secondFactorAt !== null,
          tokenHash,
        }
      : null;
  return { user: { ...user, role: role === 'staff' ? 'staff' : 'customer' }, staff };
}

/** The signed-in user, or 401 'Inicie sesión para continuar'. */
export async function requireUser(request: FastifyRequest): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) throw unauthorized('Inicie sesión para continuar');
  return user;
}
