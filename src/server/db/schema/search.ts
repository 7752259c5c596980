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
