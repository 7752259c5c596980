import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  numeric,
  pgSequence,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { institutions } from './institutions.ts';

/**
 * One line of a quotation revision, a snapshot: what was quoted stays as quoted whatever the catalogue does
 * later. listPriceCents is the catalogue's list price (one unit) when the revision was made; volumePriceCents the
 * catalogue's price for this quantity (its volume price, decision 021); basePriceCents the price staff agreed
 * (the volume price unless they set one); unitPriceCents the quoted price, basePriceCents less the revision's
 * percentage. All IVA included, like every price of the shop. Revisions written before decision 053 have no
 * volumePriceCents: their listPriceCents was the volume price (read it as both).
 */
export type QuotationLineSnapshot = {
  code: string;
  description: string;
  listPriceCents: number;
  volumePriceCents?: number;
  /** The price before the revision's percentage: the volume price, or the one staff set for this line. */
  basePriceCents: number;
  unitPriceCents: number;
  quantity: number;
  amountCents: number;
  /** Of one unit, in kg (the order's lines keep it). */
  unitWeightKg: number;
};

/** Folio numbers: COT-YYYY-NNNNNN, YYYY the year of issue and NNNNNN this sequence (decision 022). */
export const quotationFolioSeq = pgSequence('quotation_folio_seq', { startWith: 1 });

/**
 * A quotation (cotización, issue 20): one folio, its revisions in quotation_revisions (never rewritten; the
 * current one is `revision`). status is what was decided ('open' or 'cancelled'); vigente / vencida /
 * convertida come from validUntil and the order made from it (src/server/quotations/rules.ts).
 */
export const quotations = pgTable(
  'quotations',
  {
    id: serial('id').primaryKey(),
    folio: text('folio').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    status: text('status').$type<'open' | 'cancelled'>().notNull().default('open'),
    revision: integer('revision').notNull().default(1),
    validUntil: timestamp('valid_until', { withTimezone: true }).notNull(),
    /** The buyer as printed: the account's name, and the institution and RFC they typed, if any. */
    buyerName: text('buyer_name').notNull(),
    institution: text('institution').notNull().default(''),
    rfc: text('rfc').notNull().default(''),
    purchaseOrder: text('purchase_order'),
    /**
     * Made while buying for this institution (issue 34): shared with its members, and priced by its contract prices
     * now and when renewed (decision 059); null = the person's own.
     */
    institutionId: integer('institution_id').references(() => institutions.id),
    /** The order it became (the one paid or still being paid); null while not converted. */
    orderNumber: integer('order_number'),
    convertedAt: timestamp('converted_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('quotations_folio_idx').on(t.folio),
    index('quotations_user_idx').on(t.userId, t.createdAt),
    index('quotations_institution_idx').on(t.institutionId).where(sql`${t.institutionId} is not null`),
    index('quotations_order_idx').on(t.orderNumber).where(sql`${t.orderNumber} is not null`),
    // The dashboard's quotations of the last 30 days (migration 0035).
    index('quotations_created_idx').on(t.createdAt),
  ],
);

/** Every version of a quotation, kept: the first, staff's adjustments, extensions, renewals at new prices. */
export const quotationRevisions = pgTable(
  'quotation_revisions',
  {
    quotationId: integer('quotation_id')
      .notNull()
      .references(() => quotations.id, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    /** 'created', 'adjusted' (staff prices/discount/note), 'extended' (validity), 'renewed' (today's prices). */
    reason: text('reason').$type<'created' | 'adjusted' | 'extended' | 'renewed'>().notNull(),
    lines: jsonb('lines').$type<QuotationLineSnapshot[]>().notNull(),
    /** Percentage staff took off the list prices (0 when none), kept to print it. */
    discountPercent: numeric('discount_percent', { precision: 5, scale: 2, mode: 'number' })
      .notNull()
      .default(0),
    subtotalCents: bigint('subtotal_cents', { mode: 'number' }).notNull(),
    /** List amount minus quoted amount of the lines (already deducted from subtotalCents). */
    discountCents: bigint('discount_cents', { mode: 'number' }).notNull().default(0),
    shippingCents: bigint('shipping_cents', { mode: 'number' }).notNull(),
    ivaCents: bigint('iva_cents', { mode: 'number' }).notNull(),
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    note: text('note').notNull().default(''),
    validUntil: timestamp('valid_until', { withTimezone: true }).notNull(),
    /** The staff member who made it (null: the buyer). */
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.quotationId, t.revision] })],
);
