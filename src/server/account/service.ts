import { eq } from 'drizzle-orm';
import type { PasswordChangeInput, ProfileUpdateInput } from '../../shared/schemas/account.ts';
import { passwordChangedMail } from '../auth/mails.ts';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import { createSession, deleteUserSessions, type SessionMeta, type SessionUser } from '../auth/session.ts';
import { assertNotThrottled, recordFailure } from '../auth/throttle.ts';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { AppError, unauthorized } from '../http/errors.ts';
import { enqueueMail } from '../mail/outbox.ts';

/** The account area: profile and password of a user (the shipping addresses: addresses.ts). */

export const WRONG_CURRENT_PASSWORD = 'La contraseña actual es incorrecta';

export async function getProfile(db: Db, userId: number) {
  const [row] = await db
    .select({
      email: users.email,
      nombre: users.nombre,
      apellidoPat: users.apellidoPat,
      apellidoMat: users.apellidoMat,
      lada: users.lada,
      telefono: users.telefono,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw unauthorized();
  return row;
}

/**
 * The current password guards profile and password changes. Wrong guesses count like failed
 * sign-ins, so a stolen session cannot be used to guess the password.
 */
async function checkCurrentPassword(db: Db, user: SessionUser, password: string, ip: string) {
  const keys = { email: user.email, ip };
  await assertNotThrottled(db, 'login', keys);
  const [row] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id));
  if (!row) throw unauthorized();
  if (!(await verifyPassword(row.hash, password))) {
    await recordFailure(db, 'login', keys);
    throw new AppError(400, 'wrong_password', WRONG_CURRENT_PASSWORD, { password: WRONG_CURRENT_PASSWORD });
  }
}

export async function updateProfile(
  db: Db,
  user: SessionUser,
  input: Required<Omit<ProfileUpdateInput, 'password'>> & { password: string },
  ip: string,
) {
  await checkCurrentPassword(db, user, input.password, ip);
  await db
    .update(users)
    .set({
      nombre: input.nombre,
      apellidoPat: input.apellidoPat,
      apellidoMat: input.apellidoMat,
      telefono: input.telefono,
      updatedAt: new Date(),
    })
    .where(eq(users.id, user.id));
  return getProfile(db, user.id);
}

/**
 * A new password ends every session of the user and opens a fresh one for this browser (the spec's
 * "signed in again with the new password"); the owner gets a mail about it.
 */
export async function changePassword(
  db: Db,
  user: SessionUser,
  input: PasswordChangeInput,
  meta: SessionMeta & { ip: string },
  publicUrl: string,
) {
  await checkCurrentPassword(db, user, input.password, meta.ip);
  const passwordHash = await hashPassword(input.newPass);
  return db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, user.id));
    await deleteUserSessions(tx, user.id);
    await enqueueMail(tx, passwordChangedMail(user, publicUrl));
    return createSession(tx, user.id, meta);
  });
}
