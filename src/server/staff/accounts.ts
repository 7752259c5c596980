import { and, desc, eq, gt, isNotNull, isNull, max, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { StaffInvitationPreview, StaffList, staffAcceptSchema } from '../../shared/schemas/staff.ts';
import { isStaffRole, STAFF_ROLE_LABELS, type StaffRole } from '../../shared/staff-roles.ts';
import { type Actor, writeAudit } from '../audit/log.ts';
import { linkState, newLinkToken } from '../auth/link-token.ts';
import { hashPassword } from '../auth/password.ts';
import { createSession, hashToken, type SessionMeta } from '../auth/session.ts';
import type { Db, Tx } from '../db/client.ts';
import { sessions, staffInvitations, users } from '../db/schema.ts';
import { AppError, conflict, notFound } from '../http/errors.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { staffInvitationMail } from './mails.ts';

/**
 * The staff accounts an administrator manages (issue 36, decision 064): the list, invitations by mail, roles,
 * deactivation. The shop always keeps one active administrador: demoting or deactivating the last one is refused
 * (409), with the active administrators' rows locked so two administrators demoting each other at once cannot both
 * succeed.
 */

export const STAFF_INVITATION_DAYS = 7;

export const STAFF_MESSAGES = {
  lastAdmin:
    'La tienda debe conservar al menos un administrador activo; nombre a otro administrador antes de hacer este cambio',
  notFound: 'Cuenta de personal no encontrada',
  alreadyStaff: 'Esa persona ya es parte del personal; cambie su rol en la lista',
  customerAccount:
    'Ese correo ya tiene una cuenta de cliente de la tienda; invite al personal con otro correo (por ejemplo, el de la empresa)',
  selfDeactivate: 'No puede desactivar su propia cuenta',
  invitationUnknown:
    'Este enlace de invitación no existe o está incompleto; ábralo tal como llegó en el correo',
  invitationUsed: 'Esta invitación ya se usó. Entre con su correo y contraseña en la administración.',
  invitationRevoked: 'Esta invitación se retiró; pida a un administrador que le envíe otra',
  invitationExpired: 'Esta invitación venció; pida a un administrador que le envíe otra',
  invited: (email: string) => `Invitación enviada a ${email}`,
  roleChanged: (role: StaffRole) => `Rol cambiado a ${STAFF_ROLE_LABELS[role]}`,
  deactivated: 'Cuenta desactivada; sus sesiones se cerraron',
  reactivated: 'Cuenta reactivada',
  secondFactorReset: 'Verificación en dos pasos restablecida; la configurará de nuevo al entrar',
  accepted: 'Acceso creado. Ahora configure la verificación en dos pasos.',
} as const;

export async function listStaff(db: Db): Promise<StaffList> {
  const lastSeen = db
    .select({ userId: sessions.userId, at: max(sessions.lastSeenAt).as('at') })
    .from(sessions)
    .groupBy(sessions.userId)
    .as('last_seen');
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      nombre: users.nombre,
      apellidoPat: users.apellidoPat,
      role: users.staffRole,
      disabledAt: users.staffDisabledAt,
      totpEnabledAt: users.totpEnabledAt,
      lastSeenAt: lastSeen.at,
    })
    .from(users)
    .leftJoin(lastSeen, eq(lastSeen.userId, users.id))
    .where(eq(users.role, 'staff'))
    .orderBy(sql`${users.staffDisabledAt} is not null`, users.email);
  const invitations = await db
    .select()
    .from(staffInvitations)
    .where(
      and(
        isNull(staffInvitations.acceptedAt),
        isNull(staffInvitations.revokedAt),
        gt(staffInvitations.expiresAt, new Date()),
      ),
    )
    .orderBy(desc(staffInvitations.createdAt));
  return {
    members: rows.map((r) => ({
      id: r.id,
      email: r.email,
      name: `${r.nombre} ${r.apellidoPat}`.trim(),
      role: isStaffRole(r.role) ? r.role : null,
      active: r.disabledAt === null,
      totpEnrolled: r.totpEnabledAt !== null,
      lastSeenAt: r.lastSeenAt ? new Date(r.lastSeenAt).toISOString() : null,
    })),
    invitations: invitations.flatMap((i) =>
      isStaffRole(i.staffRole)
        ? [{ id: i.id, email: i.email, role: i.staffRole, expiresAt: i.expiresAt.toISOString() }]
        : [],
    ),
  };
}

/** Mails a single-use link to join the staff with `role`; a newer invitation to the same address revokes the older. */
export async function inviteStaff(
  db: Db,
  who: { actor: Actor; userId: number; name: string },
  input: { email: string; role: StaffRole },
  publicUrl: string,
) {
  const email = input.email.toLowerCase();
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ role: users.role })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email));
    if (existing?.role === 'staff') throw conflict(STAFF_MESSAGES.alreadyStaff, 'already_staff');
    if (existing) throw conflict(STAFF_MESSAGES.customerAccount, 'customer_account');
    const now = new Date();
    await tx
      .update(staffInvitations)
      .set({ revokedAt: now })
      .where(
        and(
          eq(staffInvitations.email, email),
          isNull(staffInvitations.acceptedAt),
          isNull(staffInvitations.revokedAt),
        ),
      );
    const { token, tokenHash, expiresAt } = newLinkToken(STAFF_INVITATION_DAYS, now);
    const [row] = await tx
      .insert(staffInvitations)
      .values({ email, staffRole: input.role, tokenHash, invitedBy: who.userId, expiresAt })
      .returning({ id: staffInvitations.id });
    await enqueueMail(tx, {
      ...staffInvitationMail({
        to: email,
        role: input.role,
        invitedBy: who.name,
        url: `${publicUrl}/admin/invitacion/${token}`,
        expiresAt,
        publicUrl,
      }),
      dedupeKey: `staff-invitation:${row!.id}`,
    });
    await writeAudit(tx, who.actor, {
      action: 'staff.invite',
      entityType: 'user',
      entityId: email,
      after: { email, role: input.role },
    });
    return { id: row!.id, message: STAFF_MESSAGES.invited(email) };
  });
}

/** An administrator withdraws a pending invitation. */
export async function revokeStaffInvitation(db: Db, actor: Actor, id: number) {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(staffInvitations)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(staffInvitations.id, id),
          isNull(staffInvitations.acceptedAt),
          isNull(staffInvitations.revokedAt),
        ),
      )
      .returning();
    if (!row) throw notFound('Invitación no encontrada o ya usada');
    await writeAudit(tx, actor, {
      action: 'staff.invitation_revoke',
      entityType: 'user',
      entityId: row.email,
      after: { email: row.email, role: row.staffRole },
    });
  });
}

async function invitationByToken(db: Db, token: string, lock: boolean) {
  const query = db
    .select()
    .from(staffInvitations)
    .where(eq(staffInvitations.tokenHash, hashToken(token)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row || !isStaffRole(row.staffRole)) throw notFound(STAFF_MESSAGES.invitationUnknown);
  const state = linkState(row);
  if (state === 'used') throw new AppError(410, 'invitation_used', STAFF_MESSAGES.invitationUsed);
  if (state === 'revoked') throw new AppError(410, 'invitation_revoked', STAFF_MESSAGES.invitationRevoked);
  if (state === 'expired') throw new AppError(410, 'invitation_expired', STAFF_MESSAGES.invitationExpired);
  return { ...row, staffRole: row.staffRole };
}

export async function previewStaffInvitation(db: Db, token: string): Promise<StaffInvitationPreview> {
  const row = await invitationByToken(db, token, false);
  return { email: row.email, role: row.staffRole, expiresAt: row.expiresAt.toISOString() };
}

/**
 * The invitee sets name and password: the staff account is made with the invitation's role and signed in — a session
 * that has not passed the second factor, so the back office asks them to enrol TOTP first.
 */
export async function acceptStaffInvitation(
  db: Db,
  token: string,
  input: z.output<typeof staffAcceptSchema>,
  meta: SessionMeta,
) {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const invitation = await invitationByToken(tx, token, true);
    const [user] = await tx
      .insert(users)
      .values({
        email: invitation.email,
        passwordHash,
        nombre: input.nombre,
        apellidoPat: input.apellidoPat,
        telefono: input.telefono,
        role: 'staff',
        staffRole: invitation.staffRole,
      })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (!user) throw conflict(STAFF_MESSAGES.customerAccount, 'customer_account');
    await tx
      .update(staffInvitations)
      .set({ acceptedAt: new Date(), acceptedBy: user.id })
      .where(eq(staffInvitations.id, invitation.id));
    await writeAudit(
      tx,
      { userId: user.id, label: invitation.email },
      {
        action: 'staff.join',
        entityType: 'user',
        entityId: user.id,
        after: { email: invitation.email, role: invitation.staffRole },
      },
    );
    const session = await createSession(tx, user.id, meta);
    return { session, message: STAFF_MESSAGES.accepted };
  });
}

/**
 * Locks every active administrador and the target, and refuses when the change would leave none. Returns the target.
 */
async function lockForChange(tx: Tx, userId: number, leavesAdmin: boolean) {
  // The administrators first, in id order, then the target: every change takes its locks in the same order.
  const admins = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'staff'), eq(users.staffRole, 'administrador'), isNull(users.staffDisabledAt)))
    .orderBy(users.id)
    .for('update');
  const [target] = await tx
    .select({
      id: users.id,
      email: users.email,
      role: users.staffRole,
      disabledAt: users.staffDisabledAt,
    })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.role, 'staff')))
    .for('update');
  if (!target) throw notFound(STAFF_MESSAGES.notFound);
  const isActiveAdmin = admins.some((a) => a.id === userId);
  if (isActiveAdmin && !leavesAdmin && admins.length <= 1) {
    throw conflict(STAFF_MESSAGES.lastAdmin, 'last_admin');
  }
  return target;
}

export async function changeStaffRole(db: Db, actor: Actor, userId: number, role: StaffRole) {
  await db.transaction(async (tx) => {
    const target = await lockForChange(tx, userId, role === 'administrador');
    if (target.role === role) return;
    await tx.update(users).set({ staffRole: role, updatedAt: new Date() }).where(eq(users.id, userId));
    await writeAudit(tx, actor, {
      action: 'staff.role',
      entityType: 'user',
      entityId: userId,
      before: { role: target.role },
      after: { role, email: target.email },
    });
  });
  return { message: STAFF_MESSAGES.roleChanged(role) };
}

/** Deactivates a staff account: no sign-in, and every session of theirs ends now. */
export async function deactivateStaff(db: Db, actor: Actor, userId: number) {
  if (actor.userId === userId) throw conflict(STAFF_MESSAGES.selfDeactivate, 'self');
  await db.transaction(async (tx) => {
    const target = await lockForChange(tx, userId, false);
    if (target.disabledAt) return;
    await tx
      .update(users)
      .set({ staffDisabledAt: new Date(), updatedAt: new Date() })
      .where(eq(users.id, userId));
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    await writeAudit(tx, actor, {
      action: 'staff.deactivate',
      entityType: 'user',
      entityId: userId,
      after: { email: target.email },
    });
  });
  return { message: STAFF_MESSAGES.deactivated };
}

export async function reactivateStaff(db: Db, actor: Actor, userId: number) {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ staffDisabledAt: null, updatedAt: new Date() })
      .where(and(eq(users.id, userId), eq(users.role, 'staff'), isNotNull(users.staffDisabledAt)))
      .returning({ email: users.email });
    if (!row) {
      const [exists] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, userId), eq(users.role, 'staff')));
      if (!exists) throw notFound(STAFF_MESSAGES.notFound);
      return;
    }
    await writeAudit(tx, actor, {
      action: 'staff.reactivate',
      entityType: 'user',
      entityId: userId,
      after: { email: row.email },
    });
  });
  return { message: STAFF_MESSAGES.reactivated };
}
