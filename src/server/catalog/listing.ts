import { and, asc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { leadTimeOf } from '../../shared/backorder.ts';
import type {
  FacetCount,
  ProductCard,
  ProductSort,
  ProductsQuery,
  ProductsResponse,
} from '../../shared/schemas/catalog.ts';
import type { Db } from '../db/client.ts';
import { groups, products } from '../db/schema.ts';
import { countBrowse, countMatches, emptyFacets, facetConditions, type RawFacets } from './facet-counts.ts';
import { listed } from './listed.ts';
import { buildSearch, type Search } from './search.ts';
import { cacheFor, catalogueVersion, type SelectionCache, TOP_CODES } from './selection-cache.ts';

/**
 * GET /api/products: one page of active products under the filters (OR within a facet, AND across facets)
 * and the search, with facet counts where each facet's counts apply every filter except its own.
 *
 * The expensive part — counting the selection's products and its four facets, planning the search, ranking
 * its matches — depends only on the selection and the catalogue, so it is computed once per selection and
 * catalogue version (selection-cache.ts) and kept with the first TOP_CODES codes in each order; so are the
 * page's cards but for their stock (decision 033). A listing is then: read the version and, at the same
 * time, the stock of the page's products — two round trips in parallel; price and everything else a card
 * shows change the version, so they are never older than the catalogue at the request.
 */

const collator = new Intl.Collator('es-MX', { sensitivity: 'base', numeric: true });
const byLabel = (a: { label: string }, b: { label: string }) => collator.compare(a.label, b.label);

export const productImageUrl = (code: string, hash: string | null) =>
  hash ? `/api/products/${encodeURIComponent(code)}/image?v=${hash}` : null;

/** The columns of a product card: never the picture or PDF bytes. */
export const cardColumns = {
  code: products.code,
  name: products.name,
  brand: products.brand,
  line: products.line,
  type: products.type,
  groupClas: products.groupClas,
  priceCents: products.priceCents,
  stock: products.stock,
  imageHash: products.imageHash,
  backorderable: products.backorderable,
  leadMinDays: products.leadMinDays,
  leadMaxDays: products.leadMaxDays,
};

type CardRow = {
  code: string;
  name: string;
  brand: string | null;
  line: string | null;
  type: string | null;
  groupClas: string | null;
  priceCents: number;
  stock: number;
  imageHash: string | null;
  backorderable: boolean;
  leadMinDays: number | null;
  leadMaxDays: number | null;
};

/** A family's presentations at a glance: how many are active, their lowest and highest price. */
type FamilyPrices = { count: number; minCents: number; maxCents: number };

/**
 * What a card shows besides stock. Every column it comes from bumps the catalogue version (migrations 0007,
 * 0023, 0025), so it is kept per version (decision 033); stock never is.
 */
type CardFacts = Omit<ProductCard, 'stock' | 'familyStock'>;

const { stock: _stock, ...cardFactColumns } = cardColumns;

function cardFacts(r: Omit<CardRow, 'stock'>, family: FamilyPrices): CardFacts {
  return {
    code: r.code,
    name: r.name,
    brand: r.brand,
    line: r.line,
    type: r.type,
    groupClas: r.groupClas,
    priceCents: r.priceCents,
    imageUrl: productImageUrl(r.code, r.imageHash),
    presentationCount: family.count,
    fromPriceCents: family.minCents !== family.maxCents ? family.minCents : null,
    leadTime: leadTimeOf(r),
  };
}

/** The card with its stock: the code's own, and the family's (its own plus its active presentations'). */
const withStock = (facts: CardFacts, stock: number, familyStock: number): ProductCard => ({
  ...facts,
  stock,
  familyStock,
});

/** One product's card, alone (the product page adds its family's figures itself). */
export const toCard = (r: CardRow): ProductCard => withStock(cardFacts(r, withBase(r)), r.stock, r.stock);

/**
 * The presentations of these families (decision 021), counted with their base: a few rows by the family
 * index, for the cards of one page. Families of one are left out (the card then needs nothing more).
 */
async function familyPrices(db: Db, codes: string[]): Promise<Map<string, FamilyPrices>> {
  const rows = await db
    .select({
      family: products.familyCode,
      count: sql<number>`count(*)::int`,
      minCents: sql<number>`min(${products.priceCents})::int`,
      maxCents: sql<number>`max(${products.priceCents})::int`,
    })
    .from(products)
    .where(and(inArray(products.familyCode, codes), eq(products.active, true)))
    .groupBy(products.familyCode);
  return new Map(rows.map((r) => [r.family!, r]));
}

/** Adds the base's own price to its presentations' figures. */
function withBase(base: { priceCents: number }, others?: FamilyPrices): FamilyPrices {
  if (!others) return { count: 1, minCents: base.priceCents, maxCents: base.priceCents };
  return {
    count: others.count + 1,
    minCents: Math.min(base.priceCents, others.minCents),
    maxCents: Math.max(base.priceCents, others.maxCents),
  };
}

/** The card facts of these active codes (a code missing from the map is not an active product). */
async function readCardFacts(db: Db, codes: string[]): Promise<Map<string, CardFacts>> {
  const [rows, families] = await Promise.all([
    db
      .select(cardFactColumns)
      .from(products)
      .where(and(inArray(products.code, codes), eq(products.active, true))),
    familyPrices(db, codes),
  ]);
  return new Map(rows.map((r) => [r.code, cardFacts(r, withBase(r, families.get(r.code)))]));
}

/** The query of stockNow, prepared once per connection: it runs at every listing, so it is planned once. */
const stockReads = new WeakMap<Db, ReturnType<typeof prepareStockRead>>();
const prepareStockRead = (db: Db) => {
  const codes = sql`${sql.placeholder('codes')}::text[]`;
  return db
    .select({ code: products.code, family: products.familyCode, stock: products.stock })
    .from(products)
    .where(
      and(
        eq(products.active, true),
        or(sql`${products.code} = any(${codes})`, sql`${products.familyCode} = any(${codes})`),
      ),
    )
    .prepare('listing_card_stock');
};
function stockRead(db: Db) {
  let read = stockReads.get(db);
  if (!read) {
    read = prepareStockRead(db);
    stockReads.set(db, read);
  }
  return read;
}

/**
 * The stock of these cards at this request, in one read of a few rows (the primary key and the family
 * index): each active code's own, and its family's — its own plus its active presentations'. A code
 * missing from the map is no longer active.
 */
async function stockNow(
  db: Db,
  codes: string[],
): Promise<Map<string, { stock: number; familyStock: number }>> {
  const rows = await stockRead(db).execute({ codes });
  const asked = new Set(codes);
  const stock = new Map<string, { stock: number; familyStock: number }>();
  const family = new Map<string, number>();
  for (const r of rows) {
    if (asked.has(r.code)) stock.set(r.code, { stock: r.stock, familyStock: 0 });
    const key = r.family !== null && asked.has(r.family) ? r.family : r.code;
    family.set(key, (family.get(key) ?? 0) + r.stock);
  }
  for (const [code, s] of stock) s.familyStock = family.get(code) ?? s.stock;
  return stock;
}

/** The orders a listing can have: the shopper's three, or relevance for a search without one. */
type OrderKey = ProductSort | 'rank';

const uniq = (v: string[]) => [...new Set(v)];

export type ListOptions = {
  /** True when the shopper chose the order; otherwise a search is ordered by relevance. */
  explicitSort: boolean;
  /** Another search plan (the benchmark compares the naive ILIKE plan through this); never cached. */
  buildSearch?: typeof buildSearch;
  /** False computes everything afresh (the benchmark's cold figures); default true without buildSearch. */
  cache?: boolean;
  /** How many codes of each order are kept (TOP_CODES; tests lower it to reach the deep-page path). */
  topCodes?: number;
};

/** Everything about a selection that does not depend on the page. */
type Facts = {
  total: number;
  facets: RawFacets;
  group: ProductsResponse['group'];
  /** The search plan, null without a search, 'none' for a search without words (finds nothing). */
  search: Search | 'none' | null;
  /** Every filter and the search, for the page queries. */
  where: SQL | undefined;
  filtered: boolean;
  /** The first codes of each order (key: order and how many), computed when first asked for. */
  orders: Map<string, Promise<string[]>>;
  /** The catalogue version these facts hold for; null when computed afresh (nothing of them is kept). */
  version: string | null;
};

const factsCaches = new WeakMap<Db, SelectionCache<Facts>>();
/** The card facts of a page's codes (key: the codes in order), per catalogue version. */
const cardCaches = new WeakMap<Db, SelectionCache<Map<string, CardFacts>>>();

/** Search text as kept in the caches: texts that differ only in case or surrounding spaces share an entry. */
export const searchTextKey = (q: string) => q.normalize('NFC').trim().toLowerCase();

/** The selection as a cache key: search text and filter values, order-insensitive within a facet. */
function selectionKey(query: ProductsQuery): string {
  const sorted = (v: string[]) => uniq(v).sort();
  return JSON.stringify([
    searchTextKey(query.q ?? ''),
    query.exact === '1',
    sorted(query.brand),
    sorted(query.group),
    sorted(query.line),
    sorted(query.type),
  ]);
}

const EMPTY_SELECTION: ProductsQuery = {
  brand: [],
  group: [],
  line: [],
  type: [],
  sort: 'code',
  page: 1,
  pageSize: 1,
};

async function selectionFacts(
  db: Db,
  query: ProductsQuery,
  options: Pick<ListOptions, 'buildSearch' | 'cache'>,
): Promise<Facts> {
  if (!cacheable(options)) return computeFacts(db, query, options.buildSearch ?? buildSearch, null);
  const version = await catalogueVersion(db);
  return cacheFor(factsCaches, db).get(selectionKey(query), version, () =>
    computeFacts(db, query, buildSearch, version),
  );
}

const cacheable = (options: Pick<ListOptions, 'buildSearch' | 'cache'>) =>
  options.cache ?? !options.buildSearch;

/** Whole-catalogue facet counts of active products (the brand list, and listings filtered by one facet). */
export async function globalFacets(db: Db): Promise<RawFacets> {
  return (await selectionFacts(db, EMPTY_SELECTION, {})).facets;
}

export async function listProducts(
  db: Db,
  query: ProductsQuery,
  options: ListOptions = { explicitSort: true },
): Promise<ProductsResponse> {
  let facts: Facts;
  let items: ProductCard[];
  if (cacheable(options)) {
    // The page is read while the version is checked, from the facts kept for the selection; if the
    // version moved meanwhile, that read is thrown away and the page read again from fresh facts.
    const cache = cacheFor(factsCaches, db);
    const key = selectionKey(query);
    const guess = cache.peek(key);
    const early = guess?.value.then((f) => pageItems(db, f, query, options));
    early?.catch(() => {});
    const version = await catalogueVersion(db);
    if (guess && early && guess.version === version) {
      [facts, items] = await Promise.all([guess.value, early]);
    } else {
      facts = await cache.get(key, version, () => computeFacts(db, query, buildSearch, version));
      items = await pageItems(db, facts, query, options);
    }
  } else {
    facts = await computeFacts(db, query, options.buildSearch ?? buildSearch, null);
    items = await pageItems(db, facts, query, options);
  }
  return {
    items,
    total: facts.total,
    pages: Math.ceil(facts.total / query.pageSize),
    page: query.page,
    pageSize: query.pageSize,
    facets: facts.facets,
    group: facts.group,
    searchNote: facts.search && facts.search !== 'none' ? facts.search.note : null,
  };
}

/** The page's products: codes sliced from the kept order when the page lies within it, else read. */
async function pageItems(
  db: Db,
  facts: Facts,
  query: ProductsQuery,
  options: ListOptions,
): Promise<ProductCard[]> {
  const { page, pageSize } = query;
  const orderKey: OrderKey = facts.search && !options.explicitSort ? 'rank' : query.sort;
  const offset = (page - 1) * pageSize;
  const top = options.topCodes ?? TOP_CODES;
  if (facts.search === 'none' || offset >= facts.total) return [];
  const codes =
    cacheable(options) && (offset + pageSize <= top || facts.total <= top)
      ? (await topCodes(db, facts, orderKey, top)).slice(offset, offset + pageSize)
      : await orderedCodes(db, facts, orderKey, pageSize, offset);
  return cardsInOrder(db, codes, facts.version);
}

/** The first `top` codes of an order, kept with the selection's facts. */
function topCodes(db: Db, facts: Facts, order: OrderKey, top: number): Promise<string[]> {
  const key = `${order}:${top}`;
  let codes = facts.orders.get(key);
  if (!codes) {
    codes = orderedCodes(db, facts, order, top, 0);
    facts.orders.set(key, codes);
    codes.catch(() => facts.orders.delete(key));
  }
  return codes;
}

async function orderedCodes(
  db: Db,
  facts: Facts,
  order: OrderKey,
  limit: number,
  offset: number,
): Promise<string[]> {
  const rows = await db
    .select({ code: products.code })
    .from(products)
    .where(facts.where)
    .orderBy(...orderBy(order, facts))
    .limit(limit)
    .offset(offset);
  return rows.map((r) => r.code);
}

/**
 * The cards of the given codes, in that order (a product deactivated meanwhile is left out): their facts
 * kept per catalogue version and page (read when the facts were computed without a version), their stock
 * read now.
 */
async function cardsInOrder(db: Db, codes: string[], version: string | null): Promise<ProductCard[]> {
  if (codes.length === 0) return [];
  const facts =
    version === null
      ? readCardFacts(db, codes)
      : cacheFor(cardCaches, db).get(JSON.stringify(codes), version, () => readCardFacts(db, codes));
  const [kept, stock] = await Promise.all([facts, stockNow(db, codes)]);
  return codes.flatMap((code) => {
    const card = kept.get(code);
    const now = stock.get(code);
    return card && now ? [withStock(card, now.stock, now.familyStock)] : [];
  });
}

/**
 * The listing order. With a filter, the price sort is written as an expression so the planner cannot walk
 * the whole price index hoping to meet the filtered products early: prices correlate with groups (glassware
 * is cheap, equipment dear), so that walk can read most of the catalogue; sorting the filtered rows from the
 * covering listing indexes is always cheap.
 */
function orderBy(order: OrderKey, facts: Facts): SQL[] {
  if (order === 'rank' && facts.search && facts.search !== 'none') {
    return [sql`${facts.search.rank} desc`, asc(products.code)];
  }
  const price = facts.filtered ? sql`(${products.priceCents} + 0)` : sql`${products.priceCents}`;
  if (order === 'price_asc') return [sql`${price} asc`, asc(products.code)];
  if (order === 'price_desc') return [sql`${price} desc`, asc(products.code)];
  return [asc(products.code)];
}

async function computeFacts(
  db: Db,
  query: ProductsQuery,
  plan: typeof buildSearch,
  version: string | null,
): Promise<Facts> {
  const search = query.q?.trim() ? await plan(db, query.q, { exact: query.exact === '1' }) : null;
  const [group, facetWhere] = await Promise.all([selectedGroup(db, query.group), facetConditions(db, query)]);
  const base = {
    group,
    search,
    orders: new Map<string, Promise<string[]>>(),
    version,
    filtered: Object.values(facetWhere).some((c) => c !== undefined) || search !== null,
  };
  if (search === 'none') return { ...base, total: 0, facets: emptyFacets(), where: sql`false` };
  const where = and(listed, search?.where, ...Object.values(facetWhere));
  const counted = search
    ? await countMatches(db, facetWhere, search)
    : await countBrowse(db, facetWhere, version === null ? null : () => globalFacets(db));
  const facets = counted.facets;
  return {
    ...base,
    where,
    total: counted.total,
    facets: {
      brands: withSelected(facets.brands, query.brand).sort(byLabel),
      groups: facets.groups.sort(byLabel),
      lines: withSelected(facets.lines, query.line).sort(byLabel),
      types: withSelected(facets.types, query.type).sort(byLabel),
    },
  };
}

/** A selected value keeps its checkbox even when the other filters leave it no products. */
function withSelected(facet: FacetCount[], selected: string[]): FacetCount[] {
  const present = new Set(facet.map((f) => f.value));
  const missing = uniq(selected).filter((v) => !present.has(v));
  return [...facet, ...missing.map((v) => ({ value: v, label: v, count: 0 }))];
}

async function selectedGroup(db: Db, selected: string[]): Promise<{ clas: string; name: string } | null> {
  const unique = uniq(selected);
  if (unique.length !== 1) return null;
  const [row] = await db
    .select({ clas: groups.clas, name: groups.name })
    .from(groups)
    .where(eq(groups.clas, unique[0]!))
    .limit(1);
  return row ?? null;
}
