import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { orders } from './orders.ts';

/** One controlled product of an order, as the buyer declared it (decision 030). */
export type DeclaredProduct = { code: string; name: string; quantity: number };

/**
 * The end-use declaration of an order with controlled chemicals (decision 030): written in the order's own
 * transaction, never changed. The RFC and razón social are copied from the buyer's fiscal profile at that moment,
 * and the declaration's text is kept as accepted (its version and its words), so a later edit of the profile or of
 * the text does not change what this buyer declared.
 */
export const controlledDeclarations = pgTable(
  'controlled_declarations',
  {
    orderNumber: integer('order_number')
      .primaryKey()
      .references(() => orders.number, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    products: jsonb('products').$type<DeclaredProduct[]>().notNull(),
    rfc: text('rfc').notNull(),
    razonSocial: text('razon_social').notNull(),
    /** The fiscal profile the RFC came from (informative; the profile may be edited or deleted later). */
    fiscalProfileId: integer('fiscal_profile_id'),
    declaredUse: text('declared_use').notNull(),
    textVersion: text('text_version').notNull(),
    acceptedText: text('accepted_text').notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('controlled_declarations_accepted_idx').on(t.acceptedAt)],
);
