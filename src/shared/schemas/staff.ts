import { z } from 'zod';
import { STAFF_PERMISSIONS, STAFF_ROLES, type StaffPermission } from '../staff-roles.ts';
import { apellidoPatSchema, emailSchema, newPasswordSchema, nombreSchema, phoneSchema } from './auth.ts';

/**
 * The staff's own API (issue 36, decision 064): who the signed-in staff member is and what they may do
 * (/api/staff/me), the second factor (/api/staff/second-factor/*), invitations (/api/staff/invitations/*), and the
 * administrator's staff screen (/api/admin/staff*).
 */

const roleSchema = z.enum(STAFF_ROLES, {
  error: 'Elija un rol: ventas, almacén, contabilidad o administrador',
});

/** What the back office needs to know about its user: the role, its permissions and the second-factor step. */
export const staffMeSchema = z.object({
  email: z.string(),
  nombre: z.string(),
  role: roleSchema.nullable(),
  permissions: z.array(z.enum(Object.keys(STAFF_PERMISSIONS) as [StaffPermission, ...StaffPermission[]])),
  /** 'enrol': set up TOTP now; 'verify': type a code; 'done': the session passed the second factor. */
  secondFactor: z.enum(['enrol', 'verify', 'done']),
  disabled: z.boolean(),
});
export type StaffMe = z.infer<typeof staffMeSchema>;

export const enrolmentSchema = z.object({
  secretGrouped: z.string(),
  uri: z.string(),
  qrSvg: z.string(),
});
export type EnrolmentDto = z.infer<typeof enrolmentSchema>;

const CODE_MESSAGE = 'Escriba el código de 6 dígitos de su aplicación o uno de sus códigos de respaldo';
export const totpCodeSchema = z.object({
  code: z
    .string({ error: 'Escriba el código de 6 dígitos de su aplicación' })
    .trim()
    .regex(/^\d{6}$/, 'Escriba el código de 6 dígitos de su aplicación'),
});
export const secondFactorCodeSchema = z.object({
  code: z
    .string({ error: CODE_MESSAGE })
    .trim()
    .min(6, CODE_MESSAGE)
    .max(20, CODE_MESSAGE)
    .regex(/^[0-9A-Za-z\s-]+$/, CODE_MESSAGE),
});
export const enrolResponseSchema = z.object({ message: z.string(), recoveryCodes: z.array(z.string()) });
export const verifyResponseSchema = z.object({
  message: z.string(),
  recoveryCodesLeft: z.number().int().nullable(),
});

/** The administrator's list. */
export const staffMemberSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: roleSchema.nullable(),
  active: z.boolean(),
  totpEnrolled: z.boolean(),
  /** The last request of any of their sessions (ISO), null if none is open. */
  lastSeenAt: z.string().nullable(),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;
export const staffInvitationRowSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  role: roleSchema,
  expiresAt: z.string(),
});
export const staffListSchema = z.object({
  members: z.array(staffMemberSchema),
  invitations: z.array(staffInvitationRowSchema),
});
export type StaffList = z.infer<typeof staffListSchema>;

export const staffInviteSchema = z.object({ email: emailSchema, role: roleSchema });
export type StaffInviteInput = z.input<typeof staffInviteSchema>;
export const staffRoleChangeSchema = z.object({ role: roleSchema });
export const staffIdParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'Cuenta de personal no encontrada' })
    .int('Cuenta de personal no encontrada')
    .min(1, 'Cuenta de personal no encontrada')
    .max(2_147_483_647, 'Cuenta de personal no encontrada'),
});

export const staffInvitationTokenSchema = z.object({
  token: z
    .string()
    .regex(
      /^[A-Za-z0-9_-]{43}$/,
      'Este enlace de invitación no existe o está incompleto; ábralo tal como llegó',
    ),
});
export const staffInvitationPreviewSchema = z.object({
  email: z.string(),
  role: roleSchema,
  expiresAt: z.string(),
});
export type StaffInvitationPreview = z.infer<typeof staffInvitationPreviewSchema>;
export const staffAcceptSchema = z.object({
  nombre: nombreSchema,
  apellidoPat: apellidoPatSchema,
  telefono: phoneSchema,
  password: newPasswordSchema,
});
export type StaffAcceptInput = z.input<typeof staffAcceptSchema>;
