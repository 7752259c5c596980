import { sql } from 'drizzle-orm';
import {
  bigserial,
  check,
  date,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { bytea, products } from './catalog.ts';

/**
 * The safety data sheet (HDS, NOM-018-STPS-2015) of a product family (decision 028): one PDF per family, kept
 * under the family's base code, so every presentation (500 mL, 1 L, 4 L) shows the same sheet — the substance,
 * not the bottle, is what the 16 sections describe. Beside `products.datasheet`, not in it: the bytes stay out
 * of the catalogue's hot row and the catalogue-version trigger.
 */
export const productSafetySheets = pgTable('product_safety_sheets', {
  familyCode: text('family_code')
    .primaryKey()
    .references(() => products.code, { onDelete: 'cascade' }),
  data: bytea('data').notNull(),
  /** Short content hash (the same as the datasheet's), used in the URL and as the ETag. */
  hash: text('hash').notNull(),
  bytes: integer('bytes').notNull(),
  uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
  /** The staff member who uploaded it; null for the demo seed and the command-line import. */
  uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
});

/**
 * Certificates of analysis, one PDF per lot of a product family (decision 028). A lot is unique per family
 * whatever its letter case ('sh1234' is lot 'SH1234'): the buyer types it from the label.
 */
export const lotCertificates = pgTable(
  'lot_certificates',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    familyCode: text('family_code')
      .notNull()
      .references(() => products.code, { onDelete: 'cascade' }),
    /** As printed on the label (trimmed; printable, ≤ 40 characters: src/shared/lots.ts). */
    lot: text('lot').notNull(),
    data: bytea('data').notNull(),
    hash: text('hash').notNull(),
    bytes: integer('bytes').notNull(),
    analysisDate: date('analysis_date', { mode: 'string' }),
    expiryDate: date('expiry_date', { mode: 'string' }),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('lot_certificates_family_lot_idx').on(t.familyCode, sql`upper(${t.lot})`),
    index('lot_certificates_family_uploaded_idx').on(t.familyCode, t.uploadedAt),
    check('lot_certificates_lot_length', sql`char_length(${t.lot}) between 1 and 40`),
  ],
);
