import { z } from 'zod';
import { CREDIT_TERMS_DAYS, INSTITUTION_ACTIONS, INSTITUTION_ROLES } from '../institutions.ts';
import { parsePriceToCents } from '../money.ts';
import { savedAddressSchema, shippingAddressSchema } from './account.ts';
import { page, pageInfoSchema } from './admin/common.ts';
import { auditEntrySchema } from './admin/orders.ts';
import { emailSchema } from './auth.ts';
import { invoiceRequestSchema } from './invoice.ts';

/**
 * Institution accounts (issue 34, decisions 057 and 058): the payloads of staff's back office
 * (/api/admin/institutions) and of the members' own area (/api/institutions). The fiscal identity is checked by the
 * invoice form's own schema (RFC, régimen by persona, uso de CFDI by régimen, postal code), never a copy of it.
 */

export const MAX_LIMIT_CENTS = 100_000_000_00;
export const LIMIT_MESSAGE =
  'Escriba un importe en pesos, p. ej. 15000 o 15,000.50, o déjelo vacío (sin límite)';

/** A limit typed in pesos ('15000', '15,000.50'); empty = no limit (null). */
export const limitTextSchema = z
  .string({ error: LIMIT_MESSAGE })
  .trim()
  .max(20, LIMIT_MESSAGE)
  .transform((v, ctx) => {
    if (v === '') return null;
    const cents = parsePriceToCents(v);
    if (cents === null || cents <= 0 || cents > MAX_LIMIT_CENTS) {
      ctx.addIssue({ code: 'custom', message: LIMIT_MESSAGE });
      return z.NEVER;
    }
    return cents;
  });

const roleSchema = z.enum(INSTITUTION_ROLES, { error: 'Elija un papel de la lista' });

const label = (what: string) =>
  z
    .string({ error: `Escriba ${what}` })
    .trim()
    .min(2, `Escriba ${what}`)
    .max(60, `${what[0]?.toUpperCase()}${what.slice(1)}: hasta 60 caracteres`);

const optionalEmail = z.union([z.literal(''), emailSchema]);

/** The limits of a member (or of an invitation), in pesos as typed. */
export const memberLimitsSchema = z.object({
  approvalLimit: limitTextSchema.prefault(''),
  orderLimit: limitTextSchema.prefault(''),
  monthlyLimit: limitTextSchema.prefault(''),
});

/** Staff create an institution: its fiscal identity (the invoice form's rules), its billing mailbox, and who administers it. */
export const institutionCreateSchema = invoiceRequestSchema.safeExtend({
  billingEmail: optionalEmail.optional().default(''),
  /** The first administrador, invited by mail at once (optional: staff may invite later). */
  adminEmail: optionalEmail.optional().default(''),
});
export type InstitutionCreateInput = z.input<typeof institutionCreateSchema>;

/** Staff set the terms: the credit line (both or neither), the purchase-order rule and the field labels. */
export const institutionTermsSchema = z
  .object({
    creditLimit: limitTextSchema.prefault(''),
    creditDays: z
      .union([z.literal(null), z.literal(''), z.coerce.number()])
      .optional()
      .transform((v) => (v === '' || v === undefined ? null : v))
      .refine(
        (v) => v === null || (CREDIT_TERMS_DAYS as readonly number[]).includes(v),
        `Elija los días de crédito: ${CREDIT_TERMS_DAYS.join(', ')}`,
      ),
    requiresPurchaseOrder: z.boolean({ error: 'Indique si la orden de compra es obligatoria' }),
    costCentreLabel: label('el nombre del campo de centro de costos'),
    projectLabel: label('el nombre del campo de proyecto'),
    billingEmail: optionalEmail.optional().default(''),
  })
  .superRefine((v, ctx) => {
    if ((v.creditLimit === null) !== (v.creditDays === null)) {
      ctx.addIssue({
        code: 'custom',
        path: [v.creditLimit === null ? 'creditLimit' : 'creditDays'],
        message: 'Una línea de crédito lleva límite y días de crédito; o deje ambos vacíos',
      });
    }
  });
export type InstitutionTermsInput = z.input<typeof institutionTermsSchema>;

/** The administrador's own settings: what staff's terms leave to the institution. */
export const institutionSettingsSchema = z.object({
  requiresPurchaseOrder: z.boolean({ error: 'Indique si la orden de compra es obligatoria' }),
  costCentreLabel: label('el nombre del campo de centro de costos'),
  projectLabel: label('el nombre del campo de proyecto'),
  billingEmail: optionalEmail.optional().default(''),
});
export type InstitutionSettingsInput = z.input<typeof institutionSettingsSchema>;

export const invitationCreateSchema = memberLimitsSchema.extend({ email: emailSchema, role: roleSchema });
export type InvitationCreateInput = z.input<typeof invitationCreateSchema>;
export const memberUpdateSchema = memberLimitsSchema.extend({ role: roleSchema });
export type MemberUpdateInput = z.input<typeof memberUpdateSchema>;

export const institutionAddressSchema = shippingAddressSchema.omit({ alias: true, isDefault: true }).extend({
  alias: z
    .string({ error: 'Escriba un nombre para la dirección' })
    .trim()
    .min(2, 'Escriba un nombre para la dirección (p. ej. «Campus Norte — Laboratorio 3»)')
    .max(60, 'El nombre de la dirección admite hasta 60 caracteres'),
});
export type InstitutionAddressInput = z.input<typeof institutionAddressSchema>;
export const institutionAddressViewSchema = savedAddressSchema.omit({ isDefault: true });
export type InstitutionAddress = z.infer<typeof institutionAddressViewSchema>;

const idOf = (message: string) =>
  z.coerce.number({ error: message }).int(message).min(1, message).max(2_147_483_647, message);
export const INSTITUTION_NOT_FOUND = 'Institución no encontrada';
export const institutionParamsSchema = z.object({ id: idOf(INSTITUTION_NOT_FOUND) });
export const memberParamsSchema = institutionParamsSchema.extend({ userId: idOf('Miembro no encontrado') });
export const invitationParamsSchema = institutionParamsSchema.extend({
  invitationId: idOf('Invitación no encontrada'),
});
export const institutionAddressParamsSchema = institutionParamsSchema.extend({
  addressId: idOf('Dirección no encontrada'),
});
export const invitationTokenParamsSchema = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'El enlace de invitación no es válido'),
});
export const institutionListQuerySchema = z.object({ q: z.string().trim().max(80).optional(), page });
export const chooseInstitutionSchema = z.object({
  institutionId: z
    .number({ error: INSTITUTION_NOT_FOUND })
    .int(INSTITUTION_NOT_FOUND)
    .min(1, INSTITUTION_NOT_FOUND)
    .max(2_147_483_647, INSTITUTION_NOT_FOUND)
    .nullable(),
});

/** What a member (and staff) see of an institution. */
export const institutionViewSchema = z.object({
  id: z.number().int(),
  razonSocial: z.string(),
  rfc: z.string(),
  regimenFiscal: z.string(),
  cp: z.string(),
  usoCfdi: z.string(),
  billingEmail: z.string(),
  requiresPurchaseOrder: z.boolean(),
  costCentreLabel: z.string(),
  projectLabel: z.string(),
  creditLimitCents: z.number().int().nullable(),
  creditDays: z.number().int().nullable(),
  verified: z.boolean(),
  verifiedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type InstitutionView = z.infer<typeof institutionViewSchema>;

export const memberViewSchema = z.object({
  userId: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: roleSchema,
  approvalLimitCents: z.number().int().nullable(),
  orderLimitCents: z.number().int().nullable(),
  monthlyLimitCents: z.number().int().nullable(),
  /** What the member has spent this calendar month (Mexico City) in orders for the institution. */
  spentThisMonthCents: z.number().int(),
  since: z.string(),
});
export type MemberView = z.infer<typeof memberViewSchema>;

export const invitationViewSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  role: roleSchema,
  expiresAt: z.string(),
  status: z.enum(['pending', 'accepted', 'expired', 'revoked']),
  createdAt: z.string(),
});
export type InvitationView = z.infer<typeof invitationViewSchema>;

export const membersResponseSchema = z.object({
  members: z.array(memberViewSchema),
  invitations: z.array(invitationViewSchema),
});
export type MembersResponse = z.infer<typeof membersResponseSchema>;

/** A person's membership as the header's chooser and the account page show it. */
export const membershipViewSchema = z.object({
  institution: institutionViewSchema,
  role: roleSchema,
  /** What this role may do (INSTITUTION_PERMISSIONS): the screens hide the rest; the server checks each call. */
  actions: z.array(z.enum(INSTITUTION_ACTIONS)),
  orderLimitCents: z.number().int().nullable(),
  monthlyLimitCents: z.number().int().nullable(),
  approvalLimitCents: z.number().int().nullable(),
});
export type MembershipView = z.infer<typeof membershipViewSchema>;
export const myInstitutionsSchema = z.object({
  memberships: z.array(membershipViewSchema),
  /** The institution this session buys for; null = for the person themself. */
  activeId: z.number().int().nullable(),
});
export type MyInstitutions = z.infer<typeof myInstitutionsSchema>;

export const invitationPreviewSchema = z.object({
  institution: z.string(),
  role: roleSchema,
  email: z.string(),
  expiresAt: z.string(),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

export const institutionAuditSchema = z.object({ items: z.array(auditEntrySchema), ...pageInfoSchema });
export const institutionAuditQuerySchema = z.object({ page });

export const adminInstitutionRowSchema = institutionViewSchema.extend({ members: z.number().int() });
export const adminInstitutionListSchema = z.object({
  items: z.array(adminInstitutionRowSchema),
  ...pageInfoSchema,
});
export const adminInstitutionDetailSchema = z.object({
  institution: institutionViewSchema,
  members: z.array(memberViewSchema),
  invitations: z.array(invitationViewSchema),
});
export type AdminInstitutionDetail = z.infer<typeof adminInstitutionDetailSchema>;

export const institutionOrdersSchema = z.object({
  orders: z.array(
    z.object({
      number: z.number().int(),
      date: z.string(),
      buyer: z.string(),
      status: z.string(),
      purchaseOrder: z.string().nullable(),
      totalCents: z.number().int(),
    }),
  ),
});
