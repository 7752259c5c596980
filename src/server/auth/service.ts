import { and, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  loginSchema,
  recoveryRequestSchema,
  recoveryResetSchema,
  registerSchema,
  registerVerifySchema,
} from '../../shared/schemas/auth.ts';
import { STAFF_DISABLED, STAFF_DISABLED_MESSAGE } from '../../shared/staff-roles.ts';
import type { Db } from '../db/client.ts';
import { pendingRegistrations, recoveryCodes, users } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { enqueueMail } from '../mail/outbox.ts';
import {
  existingAccountMail,
  passwordChangedMail,
  recoveryCodeMail,
  verificationCodeMail,
  welcomeMail,
} from './mails.ts';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password.ts';
import {
  CODE_MAX_ATTEMPTS,
  CODE_TTL_MS,
  generateRecoveryCode,
  generateVerificationCode,
  RECOVERY_MAX_ATTEMPTS,
  RECOVERY_TTL_MS,
} from './recovery-code.ts';
import { createSession, deleteUserSessions, type SessionMeta, type SessionUser } from './session.ts';
import {
  assertNotThrottled,
  checkAddress,
  clearFailures,
  countRequest,
  recordFailure,
  type ThrottleSubject,
} from './throttle.ts';

/** Registration, sign-in and recovery: the rules; routes only parse and reply. */

export const MESSAGES = {
  badCredentials: 'Correo o contraseña incorrectos',
  registered: 'Cuenta creada con éxito',
  registerCodeSent: (email: string) =>
    `Le enviamos un código de verificación a ${email}. Escríbalo aquí para terminar su registro.`,
  verificationInvalid: 'El código de verificación no es válido o ya venció',
  signedIn: 'Sesión iniciada',
  signedOut: 'Sesión cerrada',
  recoverySent:
    'Si el correo está registrado, le enviamos un código de recuperación. Revise su bandeja de entrada.',
  recoveryInvalid: 'El código de recuperación no es válido o ya venció',
  recoveryDone: 'Contraseña actualizada. Ingrese con su nueva contraseña.',
} as const;

/** The client: its address, and the proof of work its browser solved when the address had to give one. */
type Client = { ip: string; proof?: string | undefined };
type Meta = SessionMeta & Client;
type Signed = { user: SessionUser; session: { token: string; expiresAt: Date } };

const toSessionUser = (row: typeof users.$inferSelect): SessionUser => ({
  id: row.id,
  email: row.email,
  role: row.role === 'staff' ? 'staff' : 'customer',
  nombre: row.nombre,
  apellidoPat: row.apellidoPat,
  apellidoMat: row.apellidoMat,
  telefono: row.telefono,
});

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return row;
}

/**
 * Registration, step 1 (issue 23): the same answer whether or not the e-mail has an account. A new
 * e-mail gets a 6-digit code and the form waits in pending_registrations; an e-mail that has an account
 * gets a mail saying someone tried to register with it (with the way to recover the password) and no
 * code. Both cost the same argon2 work. The account is created by verifyRegistration.
 */
export async function register(
  db: Db,
  input: z.output<typeof registerSchema>,
  meta: Meta,
  publicUrl: string,
): Promise<{ message: string }> {
  await countRequest(db, 'register', { email: input.username, ip: meta.ip, proof: meta.proof });
  const passwordHash = await hashPassword(input.password);
  const code = generateVerificationCode();
  const codeHash = await hashPassword(code);
  await db.transaction(async (tx) => {
    const existing = await findUserByEmail(tx, input.username);
    if (existing) {
      const hour = Math.floor(Date.now() / 3_600_000);
      await enqueueMail(tx, {
        ...existingAccountMail(existing, publicUrl),
        dedupeKey: `register-existing:${existing.id}:${hour}`,
      });
      return;
    }
    const now = new Date();
    // Only the newest pending registration of an e-mail counts.
    await tx
      .update(pendingRegistrations)
      .set({ usedAt: now })
      .where(
        and(
          sql`lower(${pendingRegistrations.email}) = ${input.username.toLowerCase()}`,
          isNull(pendingRegistrations.usedAt),
        ),
      );
    const [pending] = await tx
      .insert(pendingRegistrations)
      .values({
        email: input.username,
        passwordHash,
        nombre: input.nombre,
        apellidoPat: input.apellidoPat,
        apellidoMat: input.apellidoMat,
        telefono: input.telefono,
        codeHash,
        expiresAt: new Date(now.getTime() + CODE_TTL_MS),
      })
      .returning({ id: pendingRegistrations.id });
    await enqueueMail(tx, {
      ...verificationCodeMail({ email: input.username, nombre: input.nombre }, code, publicUrl),
      dedupeKey: `register-code:${pending?.id ?? code}`,
    });
  });
  return { message: MESSAGES.registerCodeSent(input.username) };
}

const invalidVerification = () =>
  new AppError(400, 'invalid_code', MESSAGES.verificationInvalid, { code: MESSAGES.verificationInvalid });

/**
 * Registration, step 2: the code from the mail creates the account and signs the shopper in (welcome
 * mail). Valid 15 minutes, single use, 5 wrong tries per code, throttled like recovery codes.
 */
export async function verifyRegistration(
  db: Db,
  input: z.output<typeof registerVerifySchema>,
  meta: Meta,
  publicUrl: string,
): Promise<Signed> {
  const who: ThrottleSubject = { email: input.username, ip: meta.ip, proof: meta.proof };
  await assertNotThrottled(db, 'recovery', who);
  await checkAddress(db, 'recovery', who);
  // The try is counted before the slow comparison, in one statement: requests racing in parallel each take one of
  // the code's tries or none, so no more than CODE_MAX_ATTEMPTS codes are ever compared (issue 37).
  const newest = db
    .select({ id: pendingRegistrations.id })
    .from(pendingRegistrations)
    .where(
      and(
        sql`lower(${pendingRegistrations.email}) = ${input.username.toLowerCase()}`,
        isNull(pendingRegistrations.usedAt),
        gt(pendingRegistrations.expiresAt, new Date()),
      ),
    )
    .orderBy(desc(pendingRegistrations.createdAt), desc(pendingRegistrations.id))
    .limit(1);
  const [pending] = await db
    .update(pendingRegistrations)
    .set({ attempts: sql`${pendingRegistrations.attempts} + 1` })
    .where(
      and(inArray(pendingRegistrations.id, newest), lt(pendingRegistrations.attempts, CODE_MAX_ATTEMPTS)),
    )
    .returning();
  const ok = pending
    ? await verifyPassword(pending.codeHash, input.code)
    : await verifyAgainstDummy(input.code);
  if (!pending || !ok) {
    await recordFailure(db, 'recovery', who);
    throw invalidVerification();
  }
  const signed = await db.transaction(async (tx) => {
    // Single use even when two confirmations race: only one UPDATE finds it unused.
    const claimed = await tx
      .update(pendingRegistrations)
      .set({ usedAt: new Date() })
      .where(and(eq(pendingRegistrations.id, pending.id), isNull(pendingRegistrations.usedAt)))
      .returning({ id: pendingRegistrations.id });
    if (claimed.length === 0) throw invalidVerification();
    const [row] = await tx
      .insert(users)
      .values({
        email: pending.email,
        passwordHash: pending.passwordHash,
        nombre: pending.nombre,
        apellidoPat: pending.apellidoPat,
        apellidoMat: pending.apellidoMat,
        lada: '52',
        telefono: pending.telefono,
      })
      .onConflictDoNothing()
      .returning();
    // Registered meanwhile (another pending registration of the same e-mail won): nothing to create.
    if (!row) throw invalidVerification();
    await enqueueMail(tx, { ...welcomeMail(row, publicUrl), dedupeKey: `welcome:${row.id}` });
    const session = await createSession(tx, row.id, meta);
    return { user: toSessionUser(row), session };
  });
  await clearFailures(db, 'recovery', input.username);
  return signed;
}

/**
 * Sign-in, throttled fairly (throttle.ts: growing delays per account, a high per-address ceiling); an
 * unknown e-mail costs the same argon2 verification and gets the same answer as a wrong password.
 */
export async function login(db: Db, input: z.output<typeof loginSchema>, meta: Meta): Promise<Signed> {
  const keys: ThrottleSubject = { email: input.username, ip: meta.ip, proof: meta.proof };
  await assertNotThrottled(db, 'login', keys);
  await checkAddress(db, 'login', keys);
  const row = await findUserByEmail(db, input.username);
  const ok = row
    ? await verifyPassword(row.passwordHash, input.password)
    : await verifyAgainstDummy(input.password);
  if (!row || !ok) {
    await recordFailure(db, 'login', keys);
    throw new AppError(401, 'bad_credentials', MESSAGES.badCredentials);
  }
  await clearFailures(db, 'login', input.username);
  // A deactivated staff account (decision 064): told only after the right password, so a guesser learns nothing.
  if (row.role === 'staff' && row.staffDisabledAt)
    throw new AppError(403, STAFF_DISABLED, STAFF_DISABLED_MESSAGE);
  const session = await createSession(db, row.id, meta);
  return { user: toSessionUser(row), session };
}

/**
 * Sends a recovery code when the account exists; the answer and its cost are the same either way.
 * Every request counts (each sends a mail): growing waits per account, so nobody can flood a mailbox.
 */
export async function requestRecovery(
  db: Db,
  input: z.output<typeof recoveryRequestSchema>,
  client: Client,
  publicUrl: string,
) {
  const keys: ThrottleSubject = { email: input.username, ...client };
  await countRequest(db, 'recovery-request', keys);
  const user = await findUserByEmail(db, input.username);
  const code = generateRecoveryCode();
  const codeHash = await hashPassword(code);
  if (!user) return { message: MESSAGES.recoverySent };
  await db.transaction(async (tx) => {
    const now = new Date();
    // Only the newest code is valid.
    await tx
      .update(recoveryCodes)
      .set({ usedAt: now })
      .where(and(eq(recoveryCodes.userId, user.id), isNull(recoveryCodes.usedAt)));
    const [inserted] = await tx
      .insert(recoveryCodes)
      .values({ userId: user.id, codeHash, expiresAt: new Date(now.getTime() + RECOVERY_TTL_MS) })
      .returning({ id: recoveryCodes.id });
    await enqueueMail(tx, {
      ...recoveryCodeMail(user, code, publicUrl),
      dedupeKey: `recovery:${inserted?.id ?? code}`,
    });
  });
  return { message: MESSAGES.recoverySent };
}

const invalidCode = () =>
  new AppError(400, 'invalid_code', MESSAGES.recoveryInvalid, { recCode: MESSAGES.recoveryInvalid });

/**
 * A new password from a recovery code: valid 15 minutes, single use, 5 attempts. Success ends every
 * session of the user; they sign in again with the new password.
 */
export async function resetWithCode(
  db: Db,
  input: z.output<typeof recoveryResetSchema>,
  client: Client,
  publicUrl: string,
) {
  const keys: ThrottleSubject = { email: input.username, ...client };
  await assertNotThrottled(db, 'recovery', keys);
  await checkAddress(db, 'recovery', keys);
  const user = await findUserByEmail(db, input.username);
  // Counted before the slow comparison, atomically (as in verifyRegistration): at most RECOVERY_MAX_ATTEMPTS
  // codes are compared however many requests race.
  const [code] = user
    ? await db
        .update(recoveryCodes)
        .set({ attempts: sql`${recoveryCodes.attempts} + 1` })
        .where(
          and(
            inArray(
              recoveryCodes.id,
              db
                .select({ id: recoveryCodes.id })
                .from(recoveryCodes)
                .where(
                  and(
                    eq(recoveryCodes.userId, user.id),
                    isNull(recoveryCodes.usedAt),
                    gt(recoveryCodes.expiresAt, new Date()),
                  ),
                )
                .orderBy(desc(recoveryCodes.createdAt), desc(recoveryCodes.id))
                .limit(1),
            ),
            lt(recoveryCodes.attempts, RECOVERY_MAX_ATTEMPTS),
          ),
        )
        .returning()
    : [];
  const ok = code
    ? await verifyPassword(code.codeHash, input.recCode)
    : await verifyAgainstDummy(input.recCode);
  if (!user || !code || !ok) {
    await recordFailure(db, 'recovery', keys);
    throw invalidCode();
  }
  const passwordHash = await hashPassword(input.newPass);
  await db.transaction(async (tx) => {
    // Single use even when two resets race: only one UPDATE finds the code unused.
    const claimed = await tx
      .update(recoveryCodes)
      .set({ usedAt: new Date() })
      .where(and(eq(recoveryCodes.id, code.id), isNull(recoveryCodes.usedAt)))
      .returning({ id: recoveryCodes.id });
    if (claimed.length === 0) throw invalidCode();
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, user.id));
    await deleteUserSessions(tx, user.id);
    await enqueueMail(tx, passwordChangedMail(user, publicUrl));
  });
  await clearFailures(db, 'recovery', input.username);
  await clearFailures(db, 'login', input.username);
  return { message: MESSAGES.recoveryDone };
}
