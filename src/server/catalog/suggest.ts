import { and, inArray, type SQL, sql } from 'drizzle-orm';
import type { SuggestResponse } from '../../shared/schemas/catalog.ts';
import type { Db } from '../db/client.ts';
import { brands, groups, products } from '../db/schema.ts';
import { listed } from './listed.ts';
import { productImageUrl, searchTextKey } from './listing.ts';
import {
  corrections,
  exactCardsSql,
  exactOf,
  MAX_TOKEN_LENGTH,
  MAX_TOKENS,
  MIN_PREFIX_LENGTH,
  MIN_SIMILARITY,
  type SearchNote,
} from './search.ts';
import { cacheFor, catalogueVersion, type SelectionCache } from './selection-cache.ts';
import { applySynonyms, synonymsOf, termKey } from './vocabulary.ts';

const PRODUCTS = 6;
const BRANDS = 3;
const GROUPS = 3;

/** The answer but the echoed text: it holds no stock, so all of it is kept per catalogue version. */
type Answer = Omit<SuggestResponse, 'q'>;

const answers = new WeakMap<Db, SelectionCache<Answer>>();

/**
 * Suggestions while typing (decision 067): the products whose code, name, brand, line, type, CAS number or
 * formula has a word starting with each typed word — read from the prefix index of migration 0037
 * (`product_suggest_terms`), never the ranked full-text search — with an exact code, CAS number or formula
 * first, then names that start with the typed text, then names whose first word starts with a typed word, then
 * the rest, each tier in code order; how many there are and the
 * categories most of them fall in; and brands whose name starts with a typed word. The lab's synonyms apply as
 * on the search page (a whole term, or a term still being typed that nothing else matches), and a word that
 * starts nothing is corrected like the search page does, saying so.
 *
 * Nothing in it is stock: the whole answer is kept per search text and catalogue version (decision 033), so a
 * repeated prefix costs the version read alone, and a first-seen one two index reads in parallel. Not logged
 * as a search miss: half-typed words are not what people look for.
 */
export async function suggest(db: Db, q: string): Promise<SuggestResponse> {
  const version = await catalogueVersion(db);
  const answer = await cacheFor(answers, db).get(searchTextKey(q), version, () => compute(db, q));
  return { q, ...answer };
}

/** The typed words as the index holds them (folded), at most MAX_TOKENS of at most MAX_TOKEN_LENGTH. */
function wordsOf(text: string): string[] {
  return [
    ...new Set(
      termKey(text)
        .split(' ')
        .filter(Boolean)
        .map((w) => w.slice(0, MAX_TOKEN_LENGTH)),
    ),
  ].slice(0, MAX_TOKENS);
}

type Found = {
  total: number;
  codes: string[];
  groups: Answer['groups'];
};

const NOTHING: Found = { total: 0, codes: [], groups: [] };

async function compute(db: Db, q: string): Promise<Answer> {
  const synonyms = await synonymsOf(db);
  const whole = applySynonyms(q, synonyms);
  let note: SearchNote | null = whole ? { kind: 'synonym', searched: whole } : null;
  const [first, brandList] = await Promise.all([matches(db, whole ?? q, q), brandsStarting(db, q)]);
  let found = first;
  // A plural ('pipetas', 'guantes'): the page's stemmer finds the singular, so does the box, silently.
  const singular = singularOf(q);
  if (found.total === 0 && !whole && singular) found = await matches(db, singular, q);
  if (found.total === 0 && !whole) {
    // A synonym the shopper is still typing ('sosa caus'), or a word to correct ('balansa').
    const key = termKey(q);
    const typing = key.length >= 3 ? synonyms.find((s) => s.termKey.startsWith(key)) : undefined;
    if (typing) {
      found = await matches(db, typing.canonical, typing.canonical);
      note = { kind: 'synonym', searched: typing.canonical };
    } else {
      const words = wordsOf(q);
      const fixed = await corrections(db, words, MIN_SIMILARITY);
      if (fixed && fixed.size > 0) {
        const searched = words.map((w) => fixed.get(w) ?? w).join(' ');
        found = await matches(db, searched, searched);
        note = { kind: 'corrected', searched };
      }
    }
  }
  const cards = await cardsOf(db, found.codes);
  return {
    total: found.total,
    products: found.codes.flatMap((code) => {
      const card = cards.get(code);
      return card ? [card] : [];
    }),
    brands: brandList,
    groups: found.groups,
    searchNote: found.total > 0 ? note : null,
  };
}

/** The words with a final 's' dropped from those of 4+ letters ('pipetas' → 'pipeta'), or null if none has one. */
function singularOf(text: string): string | null {
  const words = wordsOf(text);
  const singular = words.map((w) => (w.length >= 4 && w.endsWith('s') && !/\d/.test(w) ? w.slice(0, -1) : w));
  return singular.some((w, i) => w !== words[i]) ? singular.join(' ') : null;
}

const like = (prefix: string) => `${prefix}%`;

/**
 * The products matching every typed word, counted by category, and the first PRODUCTS in suggestion order.
 * `exactText` is what may be an exact code, CAS number or formula (the shopper's own text).
 */
async function matches(db: Db, text: string, exactText: string): Promise<Found> {
  const words = wordsOf(text);
  const exact = exactCardsSql(exactText);
  const codePrefix = exactOf(exactText).codePrefix;
  if (words.length === 0 && !exact) return NOTHING;
  // Every word but the last is whole when shorter than MIN_PREFIX_LENGTH ('a b…'); the last is being typed.
  const pattern = (w: string, i: number) =>
    i < words.length - 1 && w.length < MIN_PREFIX_LENGTH ? `% ${w} %` : `% ${w}%`;
  const onRow = (s: string) =>
    sql.join(
      words.map((w, i) => sql`${sql.raw(s)}.words like ${pattern(w, i)}`),
      sql` and `,
    );
  // The matches, as rows (code, group_clas, tier): from the product rows by code prefix when the text is the
  // start of a code ('LBN-10'), else from one range of the prefix index for the longest word, the other words
  // checked on the product's row.
  // Tiers: the name starts with the typed text, else its first word starts with a typed word, else the rest.
  const startsName = sql`s.name_key like ${like(termKey(text))}`;
  const leadStarts = sql`(${sql.join(
    words.map((w) => sql`t.lead like ${like(w)}`),
    sql` or `,
  )})`;
  let matched: SQL;
  if (codePrefix) {
    matched = sql`select s.code, s.group_clas, 1 as tier from product_suggest s where s.code like ${like(codePrefix.replace(/[\\%_]/g, '\\$&'))}`;
  } else if (words.length === 0) {
    matched = sql`select s.code, s.group_clas, 1 as tier from product_suggest s where false`;
  } else {
    const driver = words.reduce((a, b) => (b.length > a.length ? b : a));
    const whole = pattern(driver, words.indexOf(driver)).endsWith(' %');
    const range = whole
      ? sql`t.word = ${driver}`
      : sql`t.word like ${like(driver)} and t.lcp < ${driver.length}`;
    matched =
      words.length === 1
        ? sql`select t.code, t.group_clas, case when t.lead like ${like(driver)} then 1 else 2 end as tier
              from product_suggest_terms t where ${range}`
        : sql`select t.code, t.group_clas,
                case when ${startsName} then 1 when ${leadStarts} then 2 else 3 end as tier
              from product_suggest_terms t
              -- One primary-key read per match ('offset 0' keeps the planner from scanning every row instead).
              cross join lateral (select s.name_key, s.words from product_suggest s where s.code = t.code offset 0) s
              where ${range} and ${onRow('s')}`;
  }
  // Exact cards (tier 0) that the words do not match themselves ('H2SO4' is no word of a name).
  const extra = exact
    ? sql`select s.code, s.group_clas, 0 as tier from (select distinct e.code from (${exact}) e) e
          cross join lateral (select * from product_suggest s where s.code = e.code offset 0) s
          where not (${codePrefix ? sql`s.code like ${like(codePrefix.replace(/[\\%_]/g, '\\$&'))}` : words.length ? onRow('s') : sql`false`})`
    : sql`select null::text as code, null::text as group_clas, 0 as tier where false`;
  const tier = exact ? sql`case when m.code in (${exact}) then 0 else m.tier end` : sql`m.tier`;
  const [counted, top] = await Promise.all([
    db.execute<{ clas: string | null; name: string | null; n: number }>(sql`
      select c.clas, ${groups.name} as name, c.n from (
        select m.group_clas as clas, count(*)::int as n
        from (${matched} union all ${extra}) m group by m.group_clas
      ) c left join ${groups} on ${groups.clas} = c.clas`),
    db.execute<{ code: string }>(sql`
      select m.code from (${matched} union all ${extra}) m
      order by ${tier}, m.code limit ${PRODUCTS}`),
  ]);
  const total = counted.rows.reduce((sum, r) => sum + Number(r.n), 0);
  return {
    total,
    codes: top.rows.map((r) => r.code),
    groups: counted.rows
      .filter((r): r is { clas: string; name: string; n: number } => r.clas !== null && r.name !== null)
      .sort((a, b) => b.n - a.n || a.name.localeCompare(b.name, 'es-MX'))
      .slice(0, GROUPS)
      .map((r) => ({ clas: r.clas, name: r.name, count: Number(r.n) })),
  };
}

type Card = Answer['products'][number];

/** What the box shows of each suggested product (a product withdrawn meanwhile is left out). */
async function cardsOf(db: Db, codes: string[]): Promise<Map<string, Card>> {
  if (codes.length === 0) return new Map();
  const rows = await db
    .select({
      code: products.code,
      name: products.name,
      brand: products.brand,
      priceCents: products.priceCents,
      imageHash: products.imageHash,
    })
    .from(products)
    .where(and(listed, inArray(products.code, codes)));
  return new Map(
    rows.map((r) => [
      r.code,
      {
        code: r.code,
        name: r.name,
        brand: r.brand,
        priceCents: r.priceCents,
        imageUrl: productImageUrl(r.code, r.imageHash),
      },
    ]),
  );
}

/** The brands' names with their words folded, kept per catalogue version (a dozen rows). */
const brandNames = new WeakMap<Db, { version: string; list: Promise<{ name: string; words: string[] }[]> }>();
async function brandWords(db: Db): Promise<{ name: string; words: string[] }[]> {
  const version = await catalogueVersion(db);
  const hit = brandNames.get(db);
  if (hit && hit.version === version) return hit.list;
  const list = db
    .select({ name: brands.name })
    .from(brands)
    .then((rows) => rows.map((r) => ({ name: r.name, words: termKey(r.name).split(' ') })));
  brandNames.set(db, { version, list });
  list.catch(() => {
    if (brandNames.get(db)?.list === list) brandNames.delete(db);
  });
  return list;
}

/** Brands whose name has a word starting with every typed word, with their listed products, most first. */
async function brandsStarting(db: Db, q: string): Promise<Answer['brands']> {
  const words = wordsOf(q);
  if (words.length === 0) return [];
  const named = (await brandWords(db))
    .filter((b) => words.every((w) => b.words.some((n) => n.startsWith(w))))
    .map((b) => b.name);
  if (named.length === 0) return [];
  // The listing index on (brand, code) where listed (migration 0015) counts them.
  const { rows } = await db.execute<{ name: string; n: number }>(sql`
    select ${products.brand} as name, count(*)::int as n from ${products}
    where ${and(listed, inArray(products.brand, named))} group by ${products.brand}`);
  return rows
    .filter((r) => r.n > 0)
    .sort((a, b) => b.n - a.n)
    .slice(0, BRANDS)
    .map((r) => ({ name: r.name, productCount: Number(r.n) }));
}
