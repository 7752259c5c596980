import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { products } from './catalog.ts';
import { institutions } from './institutions.ts';

/**
 * An institution's contract prices (issue 34, decision 059): per product code, IVA included, for the days
 * valid_from..valid_to inclusive (Mexico City dates). While one is valid it is the unit price the cart, the
 * quotation, the order and so the CFDI use for the institution, in place of the list and volume prices — through
 * the one pricing rule (`cart/quote.ts quoteCart`). Set by staff; the list of an institution is replaced whole.
 */
export const institutionPrices = pgTable(
  'institution_prices',
  {
    id: serial('id').primaryKey(),
    institutionId: integer('institution_id')
      .notNull()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    productCode: text('product_code')
      .notNull()
      .references(() => products.code),
    priceCents: bigint('price_cents', { mode: 'number' }).notNull(),
    validFrom: date('valid_from').notNull(),
    validTo: date('valid_to').notNull(),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('institution_prices_period_uq').on(t.institutionId, t.productCode, t.validFrom),
    index('institution_prices_code_idx').on(t.productCode),
    check('institution_prices_price_chk', sql`${t.priceCents} > 0`),
    check('institution_prices_dates_chk', sql`${t.validTo} >= ${t.validFrom}`),
  ],
);
