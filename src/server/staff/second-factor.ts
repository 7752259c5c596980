import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import QRCode from 'qrcode';
import { shop } from '../../shared/shop.ts';
import { type Actor, actorOf, writeAudit } from '../audit/log.ts';
import { assertNotThrottled, clearFailures, recordFailure } from '../auth/throttle.ts';
import type { Db } from '../db/client.ts';
import { sessions, staffRecoveryCodes, users } from '../db/schema.ts';
import { AppError, conflict } from '../http/errors.ts';
import { groupedSecret, matchTotp, newTotpSecret, otpauthUri } from './totp.ts';

/**
 * The staff's second factor (issue 36, decision 064): TOTP enrolment with ten single-use recovery codes, the code
 * asked after the password, and an administrator's reset. A session counts as signed in to the back office only once
 * sessions.second_factor_at is set. Wrong codes are braked per account and address (throttle.ts 'second-factor');
 * a TOTP step is accepted once (users.totp_last_step moves forward in one conditional UPDATE, so two requests racing
 * with one code cannot both pass); a recovery code is claimed by one conditional UPDATE too.
 */

export const RECOVERY_CODE_COUNT = 10;

export const SECOND_FACTOR_MESSAGES = {
  alreadyEnrolled: 'Su cuenta ya tiene configurada la verificación en dos pasos',
  notEnrolled: 'Primero configure la verificación en dos pasos',
  invalid:
    'El código no es válido. Revise que la hora de su teléfono sea correcta y escriba el código que muestra ahora.',
  replayed: 'Ese código ya se usó. Espere el siguiente código de su aplicación (cambia cada 30 segundos).',
  invalidRecovery: 'El código de respaldo no es válido o ya se usó',
  enrolled: 'Verificación en dos pasos activada',
  verified: 'Acceso confirmado',
} as const;

const invalidCode = (message: string) => new AppError(400, 'invalid_code', message, { code: message });

type Who = { id: number; email: string };
type Client = { ip: string };

const hashRecoveryCode = (code: string) =>
  createHash('sha256').update(code.replace(/[\s-]/g, '').toUpperCase()).digest('hex');

/** Ten codes like 'K7Q2M-XW4PD': 50 random bits each, from 32 letters and digits without look-alikes (0/O, 1/I). */
function newRecoveryCodes(): string[] {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(10);
    const chars = Array.from(bytes, (b) => alphabet[b & 31]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** A staff member's TOTP secret and when it was confirmed (null: not yet). */
async function totpStateOf(db: Db, userId: number) {
  const [row] = await db
    .select({ secret: users.totpSecret, enabledAt: users.totpEnabledAt })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

export type Enrolment = { secret: string; secretGrouped: string; uri: string; qrSvg: string };

/**
 * The secret to enrol (made once and kept until confirmed, so reloading the page shows the same QR). Refused once
 * the second factor is on: the secret is never shown again.
 */
export async function enrolmentOf(db: Db, who: Who): Promise<Enrolment> {
  const row = await totpStateOf(db, who.id);
  if (row?.enabledAt) throw conflict(SECOND_FACTOR_MESSAGES.alreadyEnrolled, 'already_enrolled');
  let secret = row?.secret ?? null;
  if (!secret) {
    const [made] = await db
      .update(users)
      .set({ totpSecret: newTotpSecret() })
      .where(and(eq(users.id, who.id), isNull(users.totpSecret), isNull(users.totpEnabledAt)))
      .returning({ secret: users.totpSecret });
    secret =
      made?.secret ??
      (await db.select({ secret: users.totpSecret }).from(users).where(eq(users.id, who.id)))[0]?.secret ??
      null;
  }
  if (!secret) throw conflict(SECOND_FACTOR_MESSAGES.alreadyEnrolled, 'already_enrolled');
  const uri = otpauthUri(secret, who.email, shop.tradeName);
  const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
  return { secret, secretGrouped: groupedSecret(secret), uri, qrSvg };
}

async function passSession(db: Db, tokenHash: string) {
  await db.update(sessions).set({ secondFactorAt: new Date() }).where(eq(sessions.tokenHash, tokenHash));
}

/**
 * Confirms enrolment with a code of the new secret: the second factor turns on, this session passes it, and the ten
 * recovery codes are returned — the only time they are ever shown (only their SHA-256 is kept).
 */
export async function confirmEnrolment(
  db: Db,
  who: Who,
  tokenHash: string,
  code: string,
  client: Client,
): Promise<{ recoveryCodes: string[] }> {
  const subject = { email: who.email, ip: client.ip };
  await assertNotThrottled(db, 'second-factor', subject);
  const row = await totpStateOf(db, who.id);
  if (row?.enabledAt) throw conflict(SECOND_FACTOR_MESSAGES.alreadyEnrolled, 'already_enrolled');
  const step = row?.secret ? matchTotp(row.secret, code) : null;
  if (!row?.secret || step === null) {
    await recordFailure(db, 'second-factor', subject);
    throw invalidCode(SECOND_FACTOR_MESSAGES.invalid);
  }
  const codes = newRecoveryCodes();
  await db.transaction(async (tx) => {
    const claimed = await tx
      .update(users)
      .set({ totpEnabledAt: new Date(), totpLastStep: step, updatedAt: new Date() })
      .where(and(eq(users.id, who.id), eq(users.totpSecret, row.secret!), isNull(users.totpEnabledAt)))
      .returning({ id: users.id });
    if (claimed.length === 0) throw conflict(SECOND_FACTOR_MESSAGES.alreadyEnrolled, 'already_enrolled');
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, who.id));
    await tx
      .insert(staffRecoveryCodes)
      .values(codes.map((c) => ({ userId: who.id, codeHash: hashRecoveryCode(c) })));
    await passSession(tx, tokenHash);
    await writeAudit(tx, actorOf(who), {
      action: 'staff.totp_enrol',
      entityType: 'user',
      entityId: who.id,
      after: { recoveryCodes: RECOVERY_CODE_COUNT },
    });
  });
  await clearFailures(db, 'second-factor', who.email);
  return { recoveryCodes: codes };
}

/**
 * The second step of a staff sign-in: a 6-digit TOTP code (current step ±1, never one at or before the last step
 * accepted) or one of the recovery codes (each once). Success marks this session.
 */
export async function verifySecondFactor(
  db: Db,
  who: Who,
  tokenHash: string,
  code: string,
  client: Client,
): Promise<{ method: 'totp' | 'recovery'; recoveryCodesLeft: number | null }> {
  const subject = { email: who.email, ip: client.ip };
  await assertNotThrottled(db, 'second-factor', subject);
  const row = await totpStateOf(db, who.id);
  if (!row?.enabledAt || !row.secret) throw conflict(SECOND_FACTOR_MESSAGES.notEnrolled, 'not_enrolled');
  const fail = async (message: string) => {
    await recordFailure(db, 'second-factor', subject);
    return invalidCode(message);
  };
  const typed = code.replace(/\s/g, '');
  if (/^\d{6}$/.test(typed)) {
    const step = matchTotp(row.secret, typed);
    if (step === null) throw await fail(SECOND_FACTOR_MESSAGES.invalid);
    // One step, once: the UPDATE moves the last step forward only if this one is newer (a replay, or a second request
    // racing with the same code, finds no row).
    const moved = await db
      .update(users)
      .set({ totpLastStep: step })
      .where(and(eq(users.id, who.id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
      .returning({ id: users.id });
    if (moved.length === 0) throw await fail(SECOND_FACTOR_MESSAGES.replayed);
    await db.transaction(async (tx) => {
      await passSession(tx, tokenHash);
      await writeAudit(tx, actorOf(who), {
        action: 'staff.second_factor',
        entityType: 'user',
        entityId: who.id,
        after: { method: 'totp' },
      });
    });
    await clearFailures(db, 'second-factor', who.email);
    return { method: 'totp', recoveryCodesLeft: null };
  }
  const left = await db.transaction(async (tx) => {
    const used = await tx
      .update(staffRecoveryCodes)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(staffRecoveryCodes.userId, who.id),
          eq(staffRecoveryCodes.codeHash, hashRecoveryCode(typed)),
          isNull(staffRecoveryCodes.usedAt),
        ),
      )
      .returning({ id: staffRecoveryCodes.id });
    if (used.length === 0) return null;
    const [remaining] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(staffRecoveryCodes)
      .where(and(eq(staffRecoveryCodes.userId, who.id), isNull(staffRecoveryCodes.usedAt)));
    await passSession(tx, tokenHash);
    await writeAudit(tx, actorOf(who), {
      action: 'staff.second_factor',
      entityType: 'user',
      entityId: who.id,
      after: { method: 'recovery', recoveryCodesLeft: remaining?.n ?? 0 },
    });
    return remaining?.n ?? 0;
  });
  if (left === null) throw await fail(SECOND_FACTOR_MESSAGES.invalidRecovery);
  await clearFailures(db, 'second-factor', who.email);
  return { method: 'recovery', recoveryCodesLeft: left };
}

/**
 * An administrator turns a staff member's second factor off (a lost phone): secret, last step and recovery codes go,
 * their sessions end; at the next sign-in they enrol again.
 */
export async function resetSecondFactor(db: Db, actor: Actor, userId: number) {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null, updatedAt: new Date() })
      .where(and(eq(users.id, userId), eq(users.role, 'staff')))
      .returning({ id: users.id, email: users.email });
    if (!row) throw new AppError(404, 'not_found', 'Cuenta de personal no encontrada');
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId));
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    await writeAudit(tx, actor, {
      action: 'staff.totp_reset',
      entityType: 'user',
      entityId: userId,
      after: { email: row.email },
    });
  });
}
