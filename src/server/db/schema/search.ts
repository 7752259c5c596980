import {
  date,
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

/**
 * The lab's vocabulary (issue 18, decision 020): a term shoppers type ('ácido muriático', 'sosa cáustica',
 * 'sulfuric acid') and the catalogue's words it stands for ('ácido clorhídrico'). `term_key` is the term in
 * lower case without accents or punctuation (catalog/vocabulary.ts termKey), unique. Staff edit it in the back office;
 * any change bumps the catalogue version (migration 0014), so cached search plans are recomputed.
 */
export const searchSynonyms = pgTable(
  'search_synonyms',
  {
    id: serial('id').primaryKey(),
    term: text('term').notNull(),
    termKey: text('term_key').notNull(),
    canonical: text('canonical').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('search_synonyms_term_key_idx').on(t.termKey)],
);

/**
 * Searches that found nothing or little, per day (no shopper, address or session: only the normalized words).
 * `results` is what the last such search found; `searches` how many times it was asked that day.
 */
export const searchMisses = pgTable(
  'search_misses',
  {
    day: date('day', { mode: 'string' }).notNull(),
    term: text('term').notNull(),
    results: integer('results').notNull(),
    searches: integer('searches').notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.day, t.term] }), index('search_misses_term_idx').on(t.term)],
);

/** 'Mis listas': a signed-in shopper's named lists of products with quantities, shareable read-only by token. */
export const shoppingLists = pgTable(
  'shopping_lists',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Random, unguessable; the read-only share link /listas/compartida/{token}. */
    shareToken: text('share_token').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('shopping_lists_user_idx').on(t.userId),
    uniqueIndex('shopping_lists_share_idx').on(t.shareToken),
  ],
);

export const shoppingListItems = pgTable(
  'shopping_list_items',
  {
    listId: integer('list_id')
      .notNull()
      .references(() => shoppingLists.id, { onDelete: 'cascade' }),
    productCode: text('product_code').notNull(),
    quantity: integer('quantity').notNull(),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.listId, t.productCode] })],
);
