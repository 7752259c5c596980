import { eq, type SQL, sql } from 'drizzle-orm';
import { looksLikeCas, parseCas } from '../../shared/cas.ts';
import type { Db } from '../db/client.ts';
import { products } from '../db/schema.ts';
import { listed } from './listed.ts';
import { applySynonyms, type Synonym, synonymsOf } from './vocabulary.ts';

/**
 * Catalogue search (migration 0003_catalog-search): PostgreSQL full-text search over the stored,
 * weighted `products.search_vector` (Spanish stemming after unaccent: configuration `es_unaccent`),
 * every word as a prefix. Before that, the lab's synonyms rewrite the words ('ácido muriático' → 'ácido
 * clorhídrico', vocabulary.ts). An exact code, CAS number or formula also matches and ranks first.
 *
 * When the words find fewer than FEW products, each word that starts no catalogue word at all is replaced by the
 * catalogue word most similar to it (pg_trgm over `search_words`) if that is at least MIN_SIMILARITY similar, so
 * 'balansa' finds balanzas — and says so ('Mostrando resultados de «balanza»'). A word with no such neighbour
 * is not guessed at: 'permanganato' finds nothing rather than probetas (decision 020 measured the threshold).
 */
export type Search = {
  where: SQL;
  rank: SQL;
  tsquery: string;
  corrected: boolean;
  /** What was searched instead of the shopper's words (a correction or a synonym), or null. */
  note: SearchNote | null;
};
export type SearchNote = { kind: 'corrected' | 'synonym'; searched: string };

export type SearchOptions = {
  /** The shopper asked for their own words ('¿Buscaba «balansa»?'): no correction. */
  exact?: boolean;
  /** The trigram similarity a correction needs (the fixture's measurement tries others). */
  minSimilarity?: number;
  /** Synonyms to use instead of the table's (the measurement without synonyms). */
  synonyms?: readonly Synonym[];
};

export const MAX_TOKENS = 8;
export const MAX_TOKEN_LENGTH = 40;
const FEW = 3;
/** Chosen on the 40+ query fixture (search-queries.fixture.ts); the figures are in decision 020. */
export const MIN_SIMILARITY = 0.4;

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
export const MIN_PREFIX_LENGTH = 2;

/** tsquery text: AND across words; each word as a prefix, or its correction. */
function tsqueryText(tokens: string[], corrected: Map<string, string> = new Map()): string {
  return tokens
    .map((t) => {
      const fix = corrected.get(t);
      if (fix) return `'${fix}'`;
      return t.length < MIN_PREFIX_LENGTH ? `'${t}'` : `'${t}':*`;
    })
    .join(' & ');
}

/** Exact identifiers a query may be: a product code, a CAS number, a formula. */
export type Exact = {
  code: string | null;
  codePrefix: string | null;
  cas: string | null;
  formula: string | null;
};

/** The formula key (same expression as the index products_formula_key_idx, migration 0014). */
const FORMULA_KEY = sql.raw(`upper(translate("products"."formula", '₀₁₂₃₄₅₆₇₈₉ ·.', '0123456789'))`);

/** 'h2so4', 'NaOH', 'CuSO4·5H2O' as typed: one run of letters, digits, parentheses, dots; normalized like the key. */
function formulaCandidate(q: string): string | null {
  const t = q.trim();
  if (t.length < 2 || t.length > 40 || !/^[\p{L}\p{N}₀-₉()·.]+$/u.test(t)) return null;
  return t
    .replace(/[₀-₉]/g, (d) => String(d.charCodeAt(0) - 0x2080))
    .replace(/[·.]/g, '')
    .toUpperCase();
}

export function exactOf(q: string): Exact {
  const code = codeCandidate(q);
  return {
    code,
    // 'LBN-1000': the start of a code (letters, a separator, digits), not the words 'LBN' and '1000…' anywhere
    // ('Matraz de 1000 ml' is not what was meant).
    codePrefix: code && /\p{L}/u.test(code) && /\p{N}/u.test(code) && /[-._/]/.test(code) ? code : null,
    cas: looksLikeCas(q) ? parseCas(q) : null,
    formula: formulaCandidate(q),
  };
}

/**
 * The products an exact code or CAS number in the query names, as a sub-select of their cards' codes (a
 * presentation's code names its family's card, decision 021), or null when the query can be neither. For the
 * suggestions (suggest.ts), whose index holds formulas as words.
 */
export function exactCardsSql(q: string): SQL | null {
  const exact = exactOf(q);
  const hits: SQL[] = [];
  if (exact.code) hits.push(sql`${products.code} = ${exact.code}`);
  if (exact.cas) hits.push(sql`${products.casNumber} = ${exact.cas}`);
  if (hits.length === 0) return null;
  return sql`select coalesce(${products.familyCode}, ${products.code}) as code from ${products}
    where ${products.active} and (${sql.join(hits, sql` or `)})`;
}

function condition(tsquery: string | null, exact: Exact): { where: SQL; rank: SQL } {
  const query = sql`to_tsquery('es_unaccent', ${tsquery ?? ''})`;
  const vector = sql.raw('"products"."search_vector"');
  const hits: SQL[] = [];
  if (exact.code) hits.push(sql`${products.code} = ${exact.code}`);
  if (exact.cas) hits.push(sql`${products.casNumber} = ${exact.cas}`);
  if (exact.formula) hits.push(sql`${FORMULA_KEY} = ${exact.formula}`);
  const text =
    tsquery === null
      ? null
      : exact.codePrefix
        ? sql`(${vector} @@ ${query} and ${products.code} like ${`${exact.codePrefix.replace(/[\\%_]/g, '\\$&')}%`})`
        : sql`${vector} @@ ${query}`;
  const any = [...(text ? [text] : []), ...hits];
  const where = any.length === 0 ? sql`false` : sql`(${sql.join(any, sql` or `)})`;
  // Weights D, C, B, A; an exact code, CAS number or formula beats everything.
  const textRank = text ? sql`ts_rank('{0.1, 0.2, 0.4, 1.0}', ${vector}, ${query})` : sql`0`;
  const rank =
    hits.length === 0
      ? textRank
      : sql`(${textRank} + case when ${sql.join(hits, sql` or `)} then 10 else 0 end)`;
  return { where, rank };
}

async function countUpTo(db: Db, where: SQL, limit: number): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from ${products} where ${listed} and ${where} limit ${limit}) s`,
  );
  return rows[0]?.n ?? 0;
}

/**
 * The correction of each word that starts no catalogue word: the most similar catalogue word, when at least
 * `min` similar. Only words of 3+ letters that are not plain numbers are corrected. A word that starts a
 * catalogue word is the shopper's own and is kept. Returns null when some such word has no plausible correction
 * (then nothing is guessed), else the map of corrections (possibly empty).
 */
export async function corrections(
  db: Db,
  tokens: string[],
  min: number,
): Promise<Map<string, string> | null> {
  const candidates = tokens.filter((t) => t.length >= 3 && !/^\p{N}+$/u.test(t));
  const out = new Map<string, string>();
  if (candidates.length === 0) return out;
  // unaccent so 'balansá' compares like the stored, unaccented words.
  // search_words (migration 0003) is kept by triggers and is not part of the Drizzle schema.
  const { rows } = await db.execute<{ tok: string; known: boolean; word: string | null }>(
    sql`
    select t.tok,
      exists (select 1 from search_words k where left(k.word, length(unaccent(t.tok))) = unaccent(t.tok)) as known,
      w.word
    from unnest(array[${sql.join(
      candidates.map((c) => sql`${c}`),
      sql`, `,
    )}]::text[]) as t(tok)
    left join lateral (
      select word from search_words
      where word % unaccent(t.tok) and similarity(word, unaccent(t.tok)) >= ${min}
      order by word <-> unaccent(t.tok), word
      limit 1
    ) w on true`,
  );
  for (const row of rows) {
    if (row.known) continue;
    // Stored words come from the catalogue; keep only plain words before they enter a tsquery.
    if (!row.word || !/^[\p{L}\p{N}]+$/u.test(row.word)) return null;
    out.set(row.tok, row.word);
  }
  return out;
}

/**
 * The shopper's words the catalogue only finds by the stemmer's accident: a word that starts no catalogue word and
 * shares its stem with none, yet whose stem starts one ('matras' → stem 'matr', a prefix of 'matraz'). Results
 * for it are results for another word, so they are a correction and must say so, like 'balansa' (issue 37). A
 * plural or another form of a catalogue word ('pipetas', stem 'pipet' like 'pipeta') is the shopper's own.
 */
async function strangers(db: Db, tokens: string[]): Promise<string[]> {
  const candidates = tokens.filter((t) => t.length >= 3 && !/^\p{N}+$/u.test(t));
  if (candidates.length === 0) return [];
  const { rows } = await db.execute<{ tok: string }>(sql`
    select t.tok from unnest(array[${sql.join(
      candidates.map((c) => sql`${c}`),
      sql`, `,
    )}]::text[]) as t(tok)
    cross join lateral (select unaccent(t.tok) as u) a
    cross join lateral (select coalesce((ts_lexize('spanish_stem', a.u))[1], a.u) as stem) st
    -- LIKE 'prefix%' so the trigram index (search_words_trgm_idx) serves it: tokens are letters and digits only.
    where not exists (select 1 from search_words k where k.word like a.u || '%')
      and not exists (select 1 from search_words k
                      where k.word like st.stem || '%'
                        and coalesce((ts_lexize('spanish_stem', k.word))[1], k.word) = st.stem)`);
  return rows.map((r) => r.tok);
}

/** A presentation's code finds its family's card (decision 021): the listed row is the family's base. */
export async function familyOfCode(db: Db, code: string | null): Promise<string | null> {
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
export async function buildSearch(db: Db, q: string, options: SearchOptions = {}): Promise<Search | 'none'> {
  const typed = exactOf(q);
  // A presentation's code finds its family's card (decision 021).
  const exact = { ...typed, code: await familyOfCode(db, typed.code) };
  const synonymText = applySynonyms(q, options.synonyms ?? (await synonymsOf(db)));
  const tokens = searchTokens(synonymText ?? q);
  if (tokens.length === 0 && !exact.cas) return 'none';
  const note: SearchNote | null = synonymText ? { kind: 'synonym', searched: synonymText } : null;
  const text = tokens.length > 0 ? tsqueryText(tokens) : null;
  const plain = { ...condition(text, exact), tsquery: text ?? '', corrected: false, note };
  if (options.exact || tokens.length === 0) return plain;
  const enough = (await countUpTo(db, plain.where, FEW)) >= FEW;
  if (enough && (await strangers(db, tokens)).length === 0) return plain;
  const fixed = await corrections(db, tokens, options.minSimilarity ?? MIN_SIMILARITY);
  if (!fixed || fixed.size === 0) return plain;
  const widened = tsqueryText(tokens, fixed);
  const searched = tokens.map((t) => fixed.get(t) ?? t).join(' ');
  const corrected = condition(widened, exact);
  // What the stemmer found is kept when the correction itself finds nothing.
  if (enough && (await countUpTo(db, corrected.where, 1)) === 0) return plain;
  return {
    ...corrected,
    tsquery: widened,
    corrected: true,
    note: { kind: 'corrected', searched },
  };
}
