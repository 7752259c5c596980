import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { products } from '../db/schema.ts';
import { listed } from './listed.ts';

/**
 * Catalogue search (migration 0003_catalog-search): PostgreSQL full-text search over the stored,
 * weighted `products.search_vector` (Spanish stemming after unaccent: configuration `es_unaccent`),
 * every word as a prefix; when that finds fewer than FEW products, each word is widened with the
 * catalogue words most similar to it (pg_trgm over `search_words`), so 'balansa' finds balanzas.
 */
export type Search = { where: SQL; rank: SQL; tsquery: string; corrected: boolean };

const MAX_TOKENS = 8;
const MAX_TOKEN_LENGTH = 40;
const FEW = 3;
const SIMILAR_PER_WORD = 3;
const MIN_SIMILARITY = 0.3;

const WORD = /[\p{L}\p{N}]+/gu;

/** Words of a query: letters and digits only, so nothing the shopper types reaches SQL or tsquery as syntax. */
export function searchTokens(q: string): string[] {
  const words = q.normalize('NFC').toLowerCase().slice(0, 1000).match(WORD) ?? [];
  return [...new Set(words.map((w) => w.slice(0, MAX_TOKEN_LENGTH)))].slice(0, MAX_TOKENS);
}

/** The exact code the shopper may have typed (codes are stored in upper case). */
const codeCandidate = (q: string) => {
  const c = q.trim().toUpperCase();
  return c.length > 0 && c.length <= 64 && /^[\p{L}\p{N}][\p{L}\p{N}._/-]*$/u.test(c) ? c : null;
};

/**
 * A word this short is matched whole, not as a prefix: '1' as a prefix is every code (CRX-10000…), 'b' every
 * word starting with b — '#1' listed the whole catalogue, 'a/b' hundreds while 'a' (a stop word) found none.
 */
const MIN_PREFIX_LENGTH = 2;

/** tsquery text: AND across words; within a word, its prefix OR any similar catalogue word. */
function tsqueryText(tokens: string[], similar: Map<string, string[]> = new Map()): string {
  return tokens
    .map((t) => {
      const own = t.length < MIN_PREFIX_LENGTH ? `'${t}'` : `'${t}':*`;
      const alts = [own, ...(similar.get(t) ?? []).map((w) => `'${w}'`)];
      return alts.length === 1 ? alts[0] : `(${alts.join(' | ')})`;
    })
    .join(' & ');
}

function condition(tsquery: string, code: string | null): { where: SQL; rank: SQL } {
  const query = sql`to_tsquery('es_unaccent', ${tsquery})`;
  const vector = sql.raw('"products"."search_vector"');
  const where = code
    ? sql`(${vector} @@ ${query} or ${products.code} = ${code})`
    : sql`${vector} @@ ${query}`;
  // Weights D, C, B, A; an exact code beats everything.
  const rank = code
    ? sql`(ts_rank('{0.1, 0.2, 0.4, 1.0}', ${vector}, ${query}) + case when ${products.code} = ${code} then 10 else 0 end)`
    : sql`ts_rank('{0.1, 0.2, 0.4, 1.0}', ${vector}, ${query})`;
  return { where, rank };
}

async function countUpTo(db: Db, where: SQL, limit: number): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from ${products} where ${listed} and ${where} limit ${limit}) s`,
  );
  return rows[0]?.n ?? 0;
}

/** Catalogue words similar to each query word (only words of 3+ letters that are not plain numbers). */
async function similarWords(db: Db, tokens: string[]): Promise<Map<string, string[]>> {
  const candidates = tokens.filter((t) => t.length >= 3 && !/^\p{N}+$/u.test(t));
  const out = new Map<string, string[]>();
  if (candidates.length === 0) return out;
  // unaccent so 'balansá' compares like the stored, unaccented words.
  // search_words (migration 0003) is kept by triggers and is not part of the Drizzle schema.
  const { rows } = await db.execute<{ tok: string; word: string }>(
    sql`
    select t.tok, w.word
    from unnest(array[${sql.join(
      candidates.map((c) => sql`${c}`),
      sql`, `,
    )}]::text[]) as t(tok)
    cross join lateral (
      select word from search_words
      where word % unaccent(t.tok) and similarity(word, unaccent(t.tok)) >= ${MIN_SIMILARITY}
      order by word <-> unaccent(t.tok), word
      limit ${SIMILAR_PER_WORD}
    ) w`,
  );
  for (const row of rows) {
    // Stored words come from the catalogue; keep only plain words before they enter a tsquery.
    if (!/^[\p{L}\p{N}]+$/u.test(row.word)) continue;
    out.set(row.tok, [...(out.get(row.tok) ?? []), row.word]);
  }
  return out;
}

/** A presentation's code finds its family's card (decision 021): the listed row is the family's base. */
async function familyOfCode(db: Db, code: string | null): Promise<string | null> {
  if (code === null) return null;
  const [row] = await db
    .select({ family: products.familyCode })
    .from(products)
    .where(eq(products.code, code))
    .limit(1);
  return row?.family ?? code;
}

/**
 * The WHERE condition and relevance of a query, or 'none' when it has no searchable word
 * (only symbols, emoji…): such a search finds nothing.
 */
export async function buildSearch(db: Db, q: string): Promise<Search | 'none'> {
  const tokens = searchTokens(q);
  if (tokens.length === 0) return 'none';
  const code = await familyOfCode(db, codeCandidate(q));
  const exact = tsqueryText(tokens);
  const plain = condition(exact, code);
  if ((await countUpTo(db, plain.where, FEW)) >= FEW) return { ...plain, tsquery: exact, corrected: false };
  const similar = await similarWords(db, tokens);
  if (similar.size === 0) return { ...plain, tsquery: exact, corrected: false };
  const widened = tsqueryText(tokens, similar);
  return { ...condition(widened, code), tsquery: widened, corrected: true };
}
