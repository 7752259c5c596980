import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
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
 * catalogue version (selection-cache.ts) and kept with the first TOP_CODES codes in each order. A listing is
 * then: read the version, slice the codes, read those few products (price and stock always fresh).
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

/** A family's presentations at a glance: how many are active, their lowest and highest price, their stock. */
export type FamilyStats = { count: number; minCents: number; maxCents: number; stock: number };

export const toCard = (r: CardRow, family?: FamilyStats): ProductCard => ({
  code: r.code,
  name: r.name,
  brand: r.brand,
  line: r.line,
  type: r.type,
  groupClas: r.groupClas,
  priceCents: r.priceCents,
  stock: r.stock,
  imageUrl: productImageUrl(r.code, r.imageHash),
  presentationCount: family?.count ?? 1,
  fromPriceCents: family && family.minCents !== family.maxCents ? family.minCents : null,
  familyStock: family?.stock ?? r.stock,
  leadTime: leadTimeOf(r),
});

/**
 * The presentations of these families (decision 021), counted with their base: a few rows by the family
 * index, for the cards of one page. Families of one are left out (the card then needs nothing more).
 */
export async function familyStats(db: Db, codes: string[]): Promise<Map<string, FamilyStats>> {
  if (codes.length === 0) return new Map();
  const rows = await db
    .select({
      family: products.familyCode,
      count: sql<number>`count(*)::int`,
      minCents: sql<number>`min(${products.priceCents})::int`,
      maxCents: sql<number>`max(${products.priceCents})::int`,
      stock: sql<number>`sum(${products.stock})::int`,
    })
    .from(products)
    .where(and(inArray(products.familyCode, codes), eq(products.active, true)))
    .groupBy(products.familyCode);
  return new Map(rows.map((r) => [r.family!, r]));
}

/** Adds the base's own price and stock to its presentations' figures. */
export function withBase(base: { priceCents: number; stock: number }, others?: FamilyStats): FamilyStats {
  if (!others) return { count: 1, minCents: base.priceCents, maxCents: base.priceCents, stock: base.stock };
  return {
    count: others.count + 1,
    minCents: Math.min(base.priceCents, others.minCents),
    maxCents: Math.max(base.priceCents, others.maxCents),
    stock: base.stock + others.stock,
  };
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
};

const factsCaches = new WeakMap<Db, SelectionCache<Facts>>();

/** The selection as a cache key: search text and filter values, order-insensitive within a facet. */
function selectionKey(query: ProductsQuery): string {
  const sorted = (v: string[]) => uniq(v).sort();
  return JSON.stringify([
    query.q?.normalize('NFC').trim().toLowerCase() ?? '',
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
  return cardsInOrder(db, codes);
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

/** The cards of the given codes, in that order (a product deactivated meanwhile is left out). */
async function cardsInOrder(db: Db, codes: string[]): Promise<ProductCard[]> {
  if (codes.length === 0) return [];
  const [rows, families] = await Promise.all([
    db
      .select(cardColumns)
      .from(products)
      .where(and(inArray(products.code, codes), eq(products.active, true))),
    familyStats(db, codes),
  ]);
  const byCode = new Map(rows.map((r) => [r.code, r]));
  return codes.flatMap((code) => {
    const row = byCode.get(code);
    return row ? [toCard(row, withBase(row, families.get(code)))] : [];
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
