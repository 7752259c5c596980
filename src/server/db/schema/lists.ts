import { sql } from 'drizzle-orm';
import {
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
import { users } from './accounts.ts';
import { institutions } from './institutions.ts';

/**
 * 'Mis listas' (issue 18, decision 031): a signed-in shopper's named lists of products with quantities
 * ('Consumibles mensuales'), added to the cart in one step and shared read-only by an unguessable link.
 */
export const savedLists = pgTable(
  'saved_lists',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The read-only link's secret (/listas/compartida/<token>); null when the list is not shared. */
    shareToken: text('share_token'),
    /** Made while buying for this institution (issue 34): shared with its members; null = the person's own. */
    institutionId: integer('institution_id').references(() => institutions.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('saved_lists_user_idx').on(t.userId),
    index('saved_lists_institution_idx').on(t.institutionId).where(sql`${t.institutionId} is not null`),
    // One name per account, compared without case ('Reactivos' and 'reactivos' are the same list to a person).
    uniqueIndex('saved_lists_user_name_idx')
      .on(t.userId, sql`lower(${t.name})`)
      .where(sql`${t.institutionId} is null`),
    // An institution's shared lists (decision 058): one name per institution, whoever made them.
    uniqueIndex('saved_lists_institution_name_idx')
      .on(t.institutionId, sql`lower(${t.name})`)
      .where(sql`${t.institutionId} is not null`),
    uniqueIndex('saved_lists_share_token_idx').on(t.shareToken),
  ],
);

/**
 * A list's lines: a product code (a presentation's own code, decision 021) and a quantity. No foreign key to
 * products on purpose: a product deleted later shows as 'ya no está a la venta', the list is not broken.
 */
export const savedListLines = pgTable(
  'saved_list_lines',
  {
    listId: integer('list_id')
      .notNull()
      .references(() => savedLists.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    quantity: integer('quantity').notNull(),
    /** The order the shopper added them in. */
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.listId, t.code] }),
    check('saved_list_lines_quantity_positive', sql`${t.quantity} >= 1`),
  ],
);
