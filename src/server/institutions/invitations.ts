import { and, eq, isNull } from 'drizzle-orm';
import type { InstitutionRole } from '../../shared/institutions.ts';
import { mexicoLongDate } from '../../shared/mexico-time.ts';
import type { InvitationPreview } from '../../shared/schemas/institutions.ts';
import type { Actor } from '../audit/log.ts';
import { linkState, newLinkToken } from '../auth/link-token.ts';
import { hashToken, type SessionUser } from '../auth/session.ts';
import type { Db, Tx } from '../db/client.ts';
import { institutionInvitations, institutionMembers, institutions, users } from '../db/schema.ts';
import { AppError, conflict, forbidden, notFound } from '../http/errors.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { writeInstitutionAudit } from './audit.ts';
import { invitationMail } from './mails.ts';

/**
 * Invitations (decision 058): a random 256-bit token mailed as a link, only its SHA-256 stored (as sessions do), valid
 * 7 days, accepted once by the signed-in person whose e-mail it names. A new invitation to the same address revokes
 * the one still pending, so one link at a time is live.
 */
export const INVITATION_DAYS = 7;

export const INVITATION_UNKNOWN =
  'Este enlace de invitación no existe o está incompleto; ábralo tal como llegó en el correo';
export const INVITATION_USED =
  'Esta invitación ya se usó. Si es suya, la institución ya aparece en «Mis instituciones».';
export const INVITATION_REVOKED =
  'La institución retiró esta invitación; pida al administrador que le envíe otra';
export const invitationExpired = (at: Date) =>
  `Esta invitación venció el ${mexicoLongDate(at)}; pida al administrador que le envíe otra`;
export const ALREADY_MEMBER =
  'Esa persona ya es miembro de la institución; cambie su papel en la lista de miembros';

const gone = (code: string, message: string) => new AppError(410, code, message);

export type InvitationInput = {
  email: string;
  role: InstitutionRole;
  approvalLimit: number | null;
  orderLimit: number | null;
  monthlyLimit: number | null;
};

/** Invites `input.email` (lower-case already) in the caller's transaction, with its mail in the outbox. */
export async function createInvitation(
  tx: Tx,
  who: { actor: Actor; userId: number; name: string },
  institutionId: number,
  input: InvitationInput,
  publicUrl: string,
): Promise<{ id: number }> {
  const [institution] = await tx
    .select()
    .from(institutions)
    .where(eq(institutions.id, institutionId))
    .for('update');
  if (!institution) throw notFound('Institución no encontrada');
  const [member] = await tx
    .select({ userId: institutionMembers.userId })
    .from(institutionMembers)
    .innerJoin(users, eq(users.id, institutionMembers.userId))
    .where(
      and(
        eq(institutionMembers.institutionId, institutionId),
        eq(users.email, input.email),
        isNull(institutionMembers.removedAt),
      ),
    );
  if (member) throw conflict(ALREADY_MEMBER, 'already_member');
  const now = new Date();
  await tx
    .update(institutionInvitations)
    .set({ revokedAt: now })
    .where(
      and(
        eq(institutionInvitations.institutionId, institutionId),
        eq(institutionInvitations.email, input.email),
        isNull(institutionInvitations.acceptedAt),
        isNull(institutionInvitations.revokedAt),
      ),
    );
  const { token, tokenHash, expiresAt } = newLinkToken(INVITATION_DAYS, now);
  const [row] = await tx
    .insert(institutionInvitations)
    .values({
      institutionId,
      email: input.email,
      role: input.role,
      approvalLimitCents: input.approvalLimit,
      orderLimitCents: input.orderLimit,
      monthlyLimitCents: input.monthlyLimit,
      tokenHash,
      invitedBy: who.userId,
      expiresAt,
    })
    .returning({ id: institutionInvitations.id });
  await enqueueMail(
    tx,
    invitationMail({
      to: input.email,
      institution: institution.razonSocial,
      role: input.role,
      invitedBy: who.name,
      url: `${publicUrl}/cuenta/instituciones/invitacion/${token}`,
      expiresAt,
      publicUrl,
    }),
  );
  await writeInstitutionAudit(tx, who.actor, institutionId, 'institution.invite', {
    after: {
      email: input.email,
      role: input.role,
      orderLimitCents: input.orderLimit,
      monthlyLimitCents: input.monthlyLimit,
      approvalLimitCents: input.approvalLimit,
    },
  });
  return { id: row!.id };
}

async function findByToken(db: Db, token: string, lock: boolean) {
  const query = db
    .select({ invitation: institutionInvitations, institution: institutions.razonSocial })
    .from(institutionInvitations)
    .innerJoin(institutions, eq(institutions.id, institutionInvitations.institutionId))
    .where(eq(institutionInvitations.tokenHash, hashToken(token)));
  const [row] = lock ? await query.for('update', { of: institutionInvitations }) : await query;
  if (!row) throw notFound(INVITATION_UNKNOWN);
  const { invitation } = row;
  const state = linkState(invitation);
  if (state === 'used') throw gone('invitation_used', INVITATION_USED);
  if (state === 'revoked') throw gone('invitation_revoked', INVITATION_REVOKED);
  if (state === 'expired') throw gone('invitation_expired', invitationExpired(invitation.expiresAt));
  return row;
}

/** What the invitation page shows before accepting: which institution, which role, for which address. */
export async function previewInvitation(db: Db, token: string): Promise<InvitationPreview> {
  const { invitation, institution } = await findByToken(db, token, false);
  return {
    institution,
    role: invitation.role,
    email: invitation.email,
    expiresAt: invitation.expiresAt.toISOString(),
  };
}

const masked = (email: string) => {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}…@${domain}`;
};

/**
 * The signed-in person accepts: the invitation row is locked, so two clicks (or two tabs) make one membership and the
 * second reads «ya se usó». A removed member invited again comes back with the invitation's role and limits.
 */
export async function acceptInvitation(db: Db, user: SessionUser, token: string) {
  return db.transaction(async (tx) => {
    const { invitation, institution } = await findByToken(tx, token, true);
    if (invitation.email !== user.email.toLowerCase()) {
      throw forbidden(
        `Esta invitación es para ${masked(invitation.email)}. Cierre sesión e inicie con esa cuenta para aceptarla.`,
      );
    }
    const limits = {
      role: invitation.role,
      approvalLimitCents: invitation.approvalLimitCents,
      orderLimitCents: invitation.orderLimitCents,
      monthlyLimitCents: invitation.monthlyLimitCents,
    };
    await tx
      .insert(institutionMembers)
      .values({ institutionId: invitation.institutionId, userId: user.id, ...limits })
      .onConflictDoUpdate({
        target: [institutionMembers.institutionId, institutionMembers.userId],
        set: { ...limits, removedAt: null, createdAt: new Date() },
      });
    await tx
      .update(institutionInvitations)
      .set({ acceptedAt: new Date(), acceptedBy: user.id })
      .where(eq(institutionInvitations.id, invitation.id));
    await writeInstitutionAudit(
      tx,
      { userId: user.id, label: user.email },
      invitation.institutionId,
      'institution.join',
      { after: { email: user.email, ...limits } },
    );
    return { institutionId: invitation.institutionId, institution };
  });
}

/** The administrador (or staff) withdraws a pending invitation; its link then reads «retiró esta invitación». */
export async function revokeInvitation(db: Db, actor: Actor, institutionId: number, invitationId: number) {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(institutionInvitations)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(institutionInvitations.id, invitationId),
          eq(institutionInvitations.institutionId, institutionId),
          isNull(institutionInvitations.acceptedAt),
          isNull(institutionInvitations.revokedAt),
        ),
      )
      .returning();
    if (!row) throw notFound('Invitación no encontrada o ya usada');
    await writeInstitutionAudit(tx, actor, institutionId, 'institution.invitation_revoke', {
      before: { email: row.email, role: row.role },
    });
  });
}
