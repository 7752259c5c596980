import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    nombre: text('nombre').notNull(),
    apellidoPat: text('apellido_pat').notNull(),
    apellidoMat: text('apellido_mat').notNull().default(''),
    lada: text('lada').notNull().default('52'),
    telefono: text('telefono').notNull(),
    /** 'customer' or 'staff'. */
    role: text('role').notNull().default('customer'),
    /** Staff's flag: this buyer's institution needs a purchase-order number on every order (issue 20). */
    requiresPurchaseOrder: boolean('requires_purchase_order').notNull().default(false),
    /**
     * A staff member's role (issue 36, decision 064): 'ventas', 'almacen', 'contabilidad' or 'administrador'
     * (src/shared/staff-roles.ts); null for shoppers.
     */
    staffRole: text('staff_role'),
    /** An administrator deactivated this staff account: no session, no sign-in. */
    staffDisabledAt: timestamp('staff_disabled_at', { withTimezone: true }),
    /** TOTP (RFC 6238) shared secret, base32; set at enrolment, confirmed when totpEnabledAt is set. */
    totpSecret: text('totp_secret'),
    totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true }),
    /** The last 30-second step accepted: a code of that step or an earlier one is a replay. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`)],
);

/** Only the SHA-256 of the session token is stored. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** Absolute expiry; the idle expiry is computed from lastSeenAt. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    userAgent: text('user_agent'),
    ip: text('ip'),
    /**
     * The institution this session is buying for (issue 34), chosen in the header; null = buying for oneself.
     * Checked against a live membership on every use (src/server/institutions/membership.ts).
     */
    institutionId: integer('institution_id'),
    /** Staff (issue 36): when this session passed the second factor (TOTP or a recovery code); null = not yet. */
    secondFactorAt: timestamp('second_factor_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** A staff member's single-use recovery codes (issue 36): only the SHA-256 of each code is kept. */
export const staffRecoveryCodes = pgTable(
  'staff_recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('staff_recovery_codes_user_idx').on(t.userId)],
);

export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

/**
 * A registration waiting for its e-mailed 6-digit code (issue 23): the account is created only when the
 * shopper types the code, so registering never tells whether an e-mail already has an account.
 */
export const pendingRegistrations = pgTable(
  'pending_registrations',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    nombre: text('nombre').notNull(),
    apellidoPat: text('apellido_pat').notNull(),
    apellidoMat: text('apellido_mat').notNull().default(''),
    telefono: text('telefono').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('pending_registrations_email_idx').on(sql`lower(${t.email})`)],
);

/** Failed sign-in / recovery attempts, counted in the database so limits hold across instances. */
export const authAttempts = pgTable(
  'auth_attempts',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('auth_attempts_lookup_idx').on(t.kind, t.key, t.createdAt)],
);

/**
 * A user's shipping addresses ('Mis direcciones', issue 20: lab, warehouse, campus), each with a short name;
 * exactly one is the default (a partial unique index). Field names follow the spec. Orders keep a snapshot.
 */
export const shippingAddresses = pgTable(
  'shipping_addresses',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The buyer's short name for it ('Laboratorio de química', 'Almacén'). */
    alias: text('alias').notNull().default('Principal'),
    isDefault: boolean('is_default').notNull().default(false),
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
  (t) => [
    index('shipping_addresses_user_idx').on(t.userId),
    uniqueIndex('shipping_addresses_one_default_idx').on(t.userId).where(sql`${t.isDefault}`),
  ],
);

/** The signed-in shopper's cart, so it follows them across devices. */
export const carts = pgTable('carts', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  items: jsonb('items').$type<{ code: string; quantity: number }[]>().notNull().default([]),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A buyer's saved fiscal data (issue 20): what the invoice form asks, kept so it is not typed again, offered in
 * the invoice form and used by 'Facturar esta compra'. Checked with the invoice form's own SAT rules.
 */
export const fiscalProfiles = pgTable(
  'fiscal_profiles',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rfc: text('rfc').notNull(),
    nombreFiscal: text('nombre_fiscal').notNull(),
    regimenFiscal: text('regimen_fiscal').notNull(),
    cp: text('cp').notNull(),
    usoCfdi: text('uso_cfdi').notNull(),
    /** Where this profile's invoices are mailed; empty: the account's e-mail. */
    email: text('email').notNull().default(''),
    /** The buyer confirmed an RFC whose check digit does not match (as the invoice form allows). */
    rfcConfirmado: boolean('rfc_confirmado').notNull().default(false),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('fiscal_profiles_user_idx').on(t.userId)],
);

/**
 * An administrator's invitation to join the staff (issue 36, decision 064): a 256-bit token mailed as a link, only its
 * SHA-256 stored, valid 7 days, accepted once; the invitee sets name and password and gets `staffRole`.
 */
export const staffInvitations = pgTable(
  'staff_invitations',
  {
    id: serial('id').primaryKey(),
    /** Lower-case. */
    email: text('email').notNull(),
    staffRole: text('staff_role').notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: integer('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedBy: integer('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('staff_invitations_token_idx').on(t.tokenHash),
    index('staff_invitations_email_idx').on(t.email),
    check(
      'staff_invitations_role_chk',
      sql`${t.staffRole} in ('ventas', 'almacen', 'contabilidad', 'administrador')`,
    ),
  ],
);
