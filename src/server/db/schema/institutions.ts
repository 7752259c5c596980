import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { InstitutionRole } from '../../../shared/institutions.ts';
import { users } from './accounts.ts';

/**
 * An institution that buys on account (issue 34, decision 057): its fiscal identity (the receptor of its CFDI),
 * its purchasing rules and, once staff grant it, its credit line. Created by staff or requested by a buyer; only a
 * verified institution may buy on credit.
 */
export const institutions = pgTable(
  'institutions',
  {
    id: serial('id').primaryKey(),
    razonSocial: text('razon_social').notNull(),
    rfc: text('rfc').notNull(),
    regimenFiscal: text('regimen_fiscal').notNull(),
    /** The domicilio fiscal's código postal (the CFDI receptor's DomicilioFiscalReceptor). */
    cp: text('cp').notNull(),
    usoCfdi: text('uso_cfdi').notNull().default('G03'),
    /** Where the institution's invoices, CFDI de pago and statements are mailed (cuentas por pagar). */
    billingEmail: text('billing_email').notNull().default(''),
    /** Every order needs the institution's purchase-order number. */
    requiresPurchaseOrder: boolean('requires_purchase_order').notNull().default(false),
    /** The names the institution gives to the two free fields of a requisition (e.g. 'Centro de costos'). */
    costCentreLabel: text('cost_centre_label').notNull().default('Centro de costos'),
    projectLabel: text('project_label').notNull().default('Proyecto o convenio'),
    /** The institution's rule (decision 059): an approved requisition is placed at once, without a comprador. */
    approvalPlacesOrder: boolean('approval_places_order').notNull().default(false),
    /** Credit line granted by staff: limit in centavos and terms in days; null = no credit. */
    creditLimitCents: bigint('credit_limit_cents', { mode: 'number' }),
    creditDays: integer('credit_days'),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    verifiedBy: integer('verified_by').references(() => users.id),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('institutions_rfc_idx').on(t.rfc),
    check(
      'institutions_credit_chk',
      sql`(${t.creditLimitCents} is null) = (${t.creditDays} is null) and coalesce(${t.creditLimitCents}, 0) >= 0`,
    ),
  ],
);

/**
 * A person's membership of an institution and its role; limits in centavos (null = none). A person may belong to
 * several institutions. A removed member keeps the row (the audit trail names them) with removedAt set.
 */
export const institutionMembers = pgTable(
  'institution_members',
  {
    institutionId: integer('institution_id')
      .notNull()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<InstitutionRole>().notNull(),
    /** Aprobador: the largest requisition they may approve. */
    approvalLimitCents: bigint('approval_limit_cents', { mode: 'number' }),
    /** Spending limits for the orders this member places or requests. */
    orderLimitCents: bigint('order_limit_cents', { mode: 'number' }),
    monthlyLimitCents: bigint('monthly_limit_cents', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    removedAt: timestamp('removed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.institutionId, t.userId] }),
    index('institution_members_user_idx').on(t.userId),
    check(
      'institution_members_role_chk',
      sql`${t.role} in ('solicitante', 'aprobador', 'comprador', 'administrador')`,
    ),
  ],
);

/**
 * An invitation to join an institution (decision 058): mailed as a single-use link whose random token is never
 * stored, only its SHA-256. Accepted once, by the signed-in person whose e-mail it names, within 7 days; the
 * administrador (or staff) may revoke it before. The limits are those the member will have.
 */
export const institutionInvitations = pgTable(
  'institution_invitations',
  {
    id: serial('id').primaryKey(),
    institutionId: integer('institution_id')
      .notNull()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    /** Lower-case; compared with the e-mail of the account that accepts. */
    email: text('email').notNull(),
    role: text('role').$type<InstitutionRole>().notNull(),
    approvalLimitCents: bigint('approval_limit_cents', { mode: 'number' }),
    orderLimitCents: bigint('order_limit_cents', { mode: 'number' }),
    monthlyLimitCents: bigint('monthly_limit_cents', { mode: 'number' }),
    tokenHash: text('token_hash').notNull(),
    invitedBy: integer('invited_by').references(() => users.id),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedBy: integer('accepted_by').references(() => users.id),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('institution_invitations_token_idx').on(t.tokenHash),
    index('institution_invitations_institution_idx').on(t.institutionId, t.createdAt),
    check(
      'institution_invitations_role_chk',
      sql`${t.role} in ('solicitante', 'aprobador', 'comprador', 'administrador')`,
    ),
  ],
);

/**
 * The institution's shipping addresses (campuses, laboratories, the central store), shared by its members and
 * offered at checkout when a member buys for it. Same fields and validation as a person's saved address.
 */
export const institutionAddresses = pgTable(
  'institution_addresses',
  {
    id: serial('id').primaryKey(),
    institutionId: integer('institution_id')
      .notNull()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    /** 'Campus Norte — Laboratorio de bioquímica', 'Almacén central'. */
    alias: text('alias').notNull(),
    nombreEnvio: text('nombre_envio').notNull(),
    telefonoEnvio: text('telefono_envio').notNull(),
    cpEnvio: text('cp_envio').notNull(),
    calleEnvio: text('calle_envio').notNull(),
    numExtEnvio: text('num_ext_envio').notNull(),
    numIntEnvio: text('num_int_envio').notNull().default(''),
    coloniaEnvio: text('colonia_envio').notNull(),
    municipioEnvio: text('municipio_envio').notNull(),
    ciudadEnvio: text('ciudad_envio').notNull(),
    estadoEnvio: text('estado_envio').notNull(),
    paisEnvio: text('pais_envio').notNull().default('México'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('institution_addresses_institution_idx').on(t.institutionId)],
);
