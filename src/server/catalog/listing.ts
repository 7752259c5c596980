import { and, asc, count, eq, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import type {
  FacetCount,
  ProductCard,
  ProductSort,
  ProductsQuery,
  ProductsResponse,
} from '../../shared/schemas/catalog.ts';
import type { Db } from '../db/client.ts';
import { groups, products } from '../db/schema.ts';
import { buildSearch, queryRows, type Search } from './search.ts';
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
};

export const toCard = (r: CardRow): ProductCard => ({
  code: r.code,
  name: r.name,
  brand: r.brand,
  line: r.line,
  type: r.type,
  groupClas: r.groupClas,
  priceCents: r.priceCents,
  stock: r.stock,
  imageUrl: productImageUrl(r.code, r.imageHash),
});

type Facet = 'brand' | 'group' | 'line' | 'type';
type RawFacets = ProductsResponse['facets'];
type Pair = [string, number];
/** The orders a listing can have: the shopper's three, or relevance for a search without one. */
type OrderKey = ProductSort | 'rank';

const emptyFacets = (): RawFacets => ({ brands: [], groups: [], lines: [], types: [] });
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
  const rows = await db
    .select(cardColumns)
    .from(products)
    .where(and(inArray(products.code, codes), eq(products.active, true)));
  const byCode = new Map(rows.map((r) => [r.code, r]));
  return codes.flatMap((code) => {
    const row = byCode.get(code);
    return row ? [toCard(row)] : [];
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
  const search = query.q?.trim() ? await plan(db, query.q) : null;
  const [group, facetWhere] = await Promise.all([selectedGroup(db, query.group), facetConditions(db, query)]);
  const base = {
    group,
    search,
    orders: new Map<string, Promise<string[]>>(),
    filtered: Object.values(facetWhere).some((c) => c !== undefined) || search !== null,
  };
  if (search === 'none') return { ...base, total: 0, facets: emptyFacets(), where: sql`false` };
  const where = and(sql`${products.active}`, search?.where, ...Object.values(facetWhere));
  const counted = search
    ? await countMatches(db, facetWhere, search)
    : await countBrowse(db, facetWhere, version);
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

/** The filter of one facet (OR among its values), or undefined when the facet is not used. */
async function facetConditions(db: Db, query: ProductsQuery): Promise<Record<Facet, SQL | undefined>> {
  const groupList = uniq(query.group);
  // A top-level group stands for itself and its sub-groups. The list is resolved first so the planner
  // sees constants (with a sub-select it misjudges how many products match and may pick a slow plan).
  const clasList = groupList.length
    ? (
        await db
          .select({ clas: groups.clas })
          .from(groups)
          .where(or(inArray(groups.clas, groupList), inArray(groups.parentClas, groupList)))
      ).map((g) => g.clas)
    : [];
  return {
    brand: query.brand.length ? inArray(products.brand, uniq(query.brand)) : undefined,
    group: groupList.length
      ? clasList.length
        ? inArray(products.groupClas, clasList)
        : sql`false`
      : undefined,
    line: query.line.length ? inArray(products.line, uniq(query.line)) : undefined,
    type: query.type.length ? inArray(products.type, uniq(query.type)) : undefined,
  };
}

type Counted = { total: number; facets: RawFacets };

/**
 * Browsing (no search): the total from the listing indexes; each facet counted under the other facets'
 * filters, or, when no other facet filters, taken from the whole-catalogue counts.
 */
async function countBrowse(
  db: Db,
  facetWhere: Record<Facet, SQL | undefined>,
  version: string | null,
): Promise<Counted> {
  const active = sql`${products.active}`;
  const where = and(active, ...Object.values(facetWhere));
  const others = (facet: Facet) =>
    (Object.entries(facetWhere) as [Facet, SQL | undefined][]).filter(
      ([f, c]) => f !== facet && c !== undefined,
    );
  const except = (facet: Facet) => and(active, ...others(facet).map(([, c]) => c));
  const unfiltered = Object.values(facetWhere).every((c) => c === undefined);
  const needsGlobal = (['brand', 'group', 'line', 'type'] as Facet[]).some((f) => others(f).length === 0);
  const counted = async (
    facet: Facet,
    column: typeof products.brand | typeof products.line | typeof products.type,
  ): Promise<FacetCount[] | null> => {
    if (others(facet).length === 0) return null;
    const rows = await db
      .select({ value: column, count: count() })
      .from(products)
      .where(and(except(facet), isNotNull(column)))
      .groupBy(column);
    return rows.map((r) => ({ value: r.value!, label: r.value!, count: Number(r.count) }));
  };
  const [[totalRow], global, brandF, groupF, lineF, typeF] = await Promise.all([
    db.select({ n: count() }).from(products).where(where),
    // The whole-catalogue counts are themselves a cached selection (the empty one), unless this is it
    // or the caller does not cache.
    !needsGlobal
      ? Promise.resolve(emptyFacets())
      : unfiltered || version === null
        ? computeGlobalFacets(db)
        : globalFacets(db),
    counted('brand', products.brand),
    others('group').length
      ? db
          .select({ value: products.groupClas, label: groups.name, count: count() })
          .from(products)
          .innerJoin(groups, eq(groups.clas, products.groupClas))
          .where(except('group'))
          .groupBy(products.groupClas, groups.name)
          .then((rows) => rows.map((r) => ({ value: r.value!, label: r.label, count: Number(r.count) })))
      : null,
    counted('line', products.line),
    counted('type', products.type),
  ]);
  return {
    total: Number(totalRow?.n ?? 0),
    facets: {
      brands: brandF ?? [...global.brands],
      groups: groupF ?? [...global.groups],
      lines: lineF ?? [...global.lines],
      types: typeF ?? [...global.types],
    },
  };
}

/**
 * Searching: the matching products are read once (GIN index on the tsvector) into a CTE, and the total and
 * the four facets are computed from it in the same statement.
 */
async function countMatches(
  db: Db,
  facetWhere: Record<Facet, SQL | undefined>,
  search: Search,
): Promise<Counted> {
  const ok = (f: Facet) => facetWhere[f] ?? sql`true`;
  const [row] = await queryRows<{
    total: number;
    brands: Pair[] | null;
    groups: [string, string, number][] | null;
    lines: Pair[] | null;
    types: Pair[] | null;
  }>(
    db,
    sql`
    with m as materialized (
      select ${products.brand} as brand, ${products.groupClas} as group_clas, ${products.line} as line,
        ${products.type} as type,
        ${ok('brand')} as b_ok, ${ok('group')} as g_ok, ${ok('line')} as l_ok, ${ok('type')} as t_ok
      from ${products}
      where ${products.active} and ${search.where}
    )
    select
      (select count(*)::int from m where b_ok and g_ok and l_ok and t_ok) as total,
      (select json_agg(json_build_array(brand, n)) from (
        select brand, count(*)::int as n from m where g_ok and l_ok and t_ok and brand is not null group by brand) f
      ) as brands,
      (select json_agg(json_build_array(f.group_clas, g.name, f.n)) from (
        select group_clas, count(*)::int as n from m where b_ok and l_ok and t_ok and group_clas is not null
        group by group_clas) f join ${groups} g on g.clas = f.group_clas
      ) as groups,
      (select json_agg(json_build_array(line, n)) from (
        select line, count(*)::int as n from m where b_ok and g_ok and t_ok and line is not null group by line) f
      ) as lines,
      (select json_agg(json_build_array(type, n)) from (
        select type, count(*)::int as n from m where b_ok and g_ok and l_ok and type is not null group by type) f
      ) as types`,
  );
  const pairs = (v: Pair[] | null | undefined): FacetCount[] =>
    (v ?? []).map(([value, n]) => ({ value, label: value, count: Number(n) }));
  return {
    total: Number(row?.total ?? 0),
    facets: {
      brands: pairs(row?.brands),
      groups: (row?.groups ?? []).map(([value, label, n]) => ({ value, label, count: Number(n) })),
      lines: pairs(row?.lines),
      types: pairs(row?.types),
    },
  };
}

/** Whole-catalogue facet counts: one grouping-sets scan over the active products. */
async function computeGlobalFacets(db: Db): Promise<RawFacets> {
  const rows = await queryRows<{ kind: string; value: string; label: string | null; n: number }>(
    db,
    sql`
    select case grouping(p.brand, p.group_clas, p.line, p.type)
             when 7 then 'brand' when 11 then 'group' when 13 then 'line' else 'type' end as kind,
           coalesce(p.brand, p.group_clas, p.line, p.type) as value,
           max(g.name) as label, count(*)::int as n
    from ${products} p left join ${groups} g on g.clas = p.group_clas
    where p.active
    group by grouping sets ((p.brand), (p.group_clas), (p.line), (p.type))`,
  );
  const out = emptyFacets();
  for (const r of rows) {
    if (r.value === null) continue;
    const facet = { value: r.value, label: r.value, count: Number(r.n) };
    if (r.kind === 'brand') out.brands.push(facet);
    else if (r.kind === 'group') {
      if (r.label !== null) out.groups.push({ ...facet, label: r.label });
    } else if (r.kind === 'line') out.lines.push(facet);
    else out.types.push(facet);
  }
  return out;
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
