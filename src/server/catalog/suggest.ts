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
 * (`product_suggest_terms`), never the ranked full-text search — with an exact code or CAS number first, then names that start with the typed text (in name order), then the other matches in the order of the
 * word that matched (for several words, names whose first word starts with a typed word first); how many
 * there are and the categories most of them fall in; and brands whose name starts with a typed word. The lab's
 * synonyms apply as on the search page (a whole term, or a term still being typed that nothing else matches), a
 * plural finds its singular, and a word that starts nothing is corrected like the search page does, saying so.
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

/**
 * The typed words as the index holds them (folded; a formula's subscripts as digits and its '·' dropped, as
 * migration 0037 stores formulas), at most MAX_TOKENS of at most MAX_TOKEN_LENGTH.
 */
function wordsOf(text: string): string[] {
  const formulaLike = text.replace(/[₀-₉]/g, (d) => String(d.charCodeAt(0) - 0x2080)).replace(/·/g, '');
  return [
    ...new Set(
      termKey(formulaLike)
        .split(' ')
        .filter(Boolean)
        .map((w) => w.slice(0, MAX_TOKEN_LENGTH)),
    ),
  ].slice(0, MAX_TOKENS);
}

type Found = {
  total: number;
  cards: Answer['products'];
  groups: Answer['groups'];
};

const NOTHING: Found = { total: 0, cards: [], groups: [] };

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
  return {
    total: found.total,
    products: found.cards,
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
 * `exactText` is what may be an exact code or CAS number (the shopper's own text).
 */
async function matches(db: Db, text: string, exactText: string): Promise<Found> {
  const words = wordsOf(text);
  const exact = exactCardsSql(exactText);
  const codePrefix = exactOf(exactText).codePrefix;
  if (words.length === 0 && !exact) return NOTHING;
  // Every word but the last is whole when shorter than MIN_PREFIX_LENGTH ('a b…'); the last is being typed.
  const pattern = (w: string, i: number) =>
    i < words.length - 1 && w.length < MIN_PREFIX_LENGTH ? `% ${w} %` : `% ${w}%`;
  const onRow = words.length
    ? sql.join(
        words.map((w, i) => sql`s.words like ${pattern(w, i)}`),
        sql` and `,
      )
    : sql`false`;
  const codeLike = codePrefix ? sql`s.code like ${like(codePrefix.replace(/[\\%_]/g, '\\$&'))}` : null;
  // (The index's codes compare in byte order, collation "C"; a join to products names the database's own
  // collation, or its primary key could not serve the join.)
  // Every match once, as (code, group_clas), and the candidates for the first places with their sort keys
  // (k1, k2), each candidate query read in index order and stopped at its limit: an exact code or CAS number
  // first; names that start with the typed text in name order (index on name_key); then the other
  // matches in the order of the matching word (the prefix index) — for several words, those whose name's first
  // word starts with a typed word before the rest.
  let matched: SQL;
  const firsts: SQL[] = [];
  if (exact) {
    firsts.push(sql`select s.code, '0' as k1, s.code as k2 from (select distinct e.code from (${exact}) e) e
      cross join lateral (select s.code from product_suggest s where s.code = e.code offset 0) s
      order by s.code limit ${PRODUCTS}`);
  }
  if (codeLike) {
    matched = sql`select s.code, s.group_clas from product_suggest s where ${codeLike}`;
    firsts.push(sql`select s.code, '1' as k1, s.code as k2 from product_suggest s where ${codeLike}
      order by s.code limit ${PRODUCTS}`);
  } else if (words.length === 0) {
    matched = sql`select s.code, s.group_clas from product_suggest s where false`;
  } else {
    const driver = words.reduce((a, b) => (b.length > a.length ? b : a));
    const whole = pattern(driver, words.indexOf(driver)).endsWith(' %');
    const range = whole
      ? sql`t.word = ${driver}`
      : sql`t.word like ${like(driver)} and t.lcp < ${driver.length}`;
    // One range of the prefix index for the longest word. Each other word of 3+ letters is its own range of the
    // index, joined by code (the planner hashes the smaller); shorter ones ('de', 's') start too many words for
    // that, so they are checked on the product's row, one primary-key read per match ('offset 0' keeps the
    // planner from scanning every row instead).
    const others = words.filter((w) => w !== driver);
    const ranged = others.filter((w) => w.length >= 3);
    const short = others.filter((w) => w.length < 3);
    const rowCheck = sql.join(
      short.map((w) => sql`s.words like ${pattern(w, words.indexOf(w))}`),
      sql` and `,
    );
    const rows = sql`from product_suggest_terms t ${
      short.length
        ? sql`cross join lateral (select s.words from product_suggest s where s.code = t.code offset 0) s`
        : sql``
    } where ${range}${sql.join(
      ranged.map(
        (w) =>
          sql` and t.code in (select x.code from product_suggest_terms x where x.word like ${like(w)} and x.lcp < ${w.length})`,
      ),
    )}${short.length ? sql` and ${rowCheck}` : sql``}`;
    matched = sql`select t.code, t.group_clas ${rows}`;
    firsts.push(sql`select s.code, '1' || s.name_key as k1, s.code as k2 from product_suggest s
      where s.name_key like ${like(words.join(' '))} and ${onRow}
      order by s.name_key, s.code limit ${PRODUCTS}`);
    const leadStarts = sql.join(
      words.map((w) => sql`t.lead like ${like(w)}`),
      sql` or `,
    );
    firsts.push(
      words.length === 1
        ? sql`select t.code, '3' || t.word as k1, t.code as k2 ${rows} order by t.word, t.code limit ${PRODUCTS * 2}`
        : // 'offset 0': the matches read as for the count (the index range), then sorted; asked for the order
          // directly, the planner would rather scan the whole table in parallel.
          sql`select t.code, (case when ${leadStarts} then '2' else '3' end) || t.word as k1, t.code as k2
              from (select t.code, t.word, t.lead ${rows} offset 0) t
              order by 2, 3 limit ${PRODUCTS * 2}`,
    );
  }
  // Exact cards that the words do not match themselves (a presentation's code) count too.
  const extra = exact
    ? sql`select s.code, s.group_clas from (select distinct e.code from (${exact}) e) e
          cross join lateral (select * from product_suggest s where s.code = e.code offset 0) s
          where not (${codeLike ?? onRow})`
    : sql`select null::text as code, null::text as group_clas where false`;
  const [counted, top] = await Promise.all([
    db.execute<{ clas: string | null; name: string | null; n: number }>(sql`
      select c.clas, ${groups.name} as name, c.n from (
        select m.group_clas as clas, count(*)::int as n
        from (${matched} union all ${extra}) m group by m.group_clas
      ) c left join ${groups} on ${groups.clas} = c.clas`),
    firsts.length === 0
      ? Promise.resolve({ rows: [] as CardRow[] })
      : db.execute<CardRow>(sql`
      select p.code, p.name, p.brand, p.price_cents as "priceCents", p.image_hash as "imageHash"
      from (${sql.join(
        firsts.map((f) => sql`(${f})`),
        sql` union all `,
      )}) x join ${products} p on p.code = (x.code collate "default")
      order by x.k1, x.k2`),
  ]);
  const seen = new Set<string>();
  const cards: Card[] = [];
  for (const r of top.rows) {
    if (seen.has(r.code) || cards.length === PRODUCTS) continue;
    seen.add(r.code);
    cards.push({
      code: r.code,
      name: r.name,
      brand: r.brand,
      priceCents: Number(r.priceCents),
      imageUrl: productImageUrl(r.code, r.imageHash),
    });
  }
  return {
    total: counted.rows.reduce((sum, r) => sum + Number(r.n), 0),
    cards,
    groups: counted.rows
      .filter((r): r is { clas: string; name: string; n: number } => r.clas !== null && r.name !== null)
      .sort((a, b) => b.n - a.n || a.name.localeCompare(b.name, 'es-MX'))
      .slice(0, GROUPS)
      .map((r) => ({ clas: r.clas, name: r.name, count: Number(r.n) })),
  };
}

type Card = Answer['products'][number];
type CardRow = {
  code: string;
  name: string;
  brand: string | null;
  priceCents: number;
  imageHash: string | null;
};

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
