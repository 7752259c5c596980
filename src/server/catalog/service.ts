import { and, asc, count, desc, eq, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import type {
  Brand,
  FacetCount,
  GroupTree,
  ProductCard,
  ProductDetail,
  ProductSort,
  ProductsQuery,
  ProductsResponse,
} from '../../shared/schemas/catalog.ts';
import type { Db } from '../db/client.ts';
import { brands, groups, products } from '../db/schema.ts';
import { sanitizeLongDescription } from './sanitize.ts';
import { buildSearch, queryRows, type Search } from './search.ts';

const collator = new Intl.Collator('es-MX', { sensitivity: 'base', numeric: true });
const byLabel = (a: { label: string }, b: { label: string }) => collator.compare(a.label, b.label);

export const brandLogoUrl = (name: string, hash: string | null) =>
  hash ? `/api/brands/${encodeURIComponent(name)}/logo?v=${hash}` : null;
export const productImageUrl = (code: string, hash: string | null) =>
  hash ? `/api/products/${encodeURIComponent(code)}/image?v=${hash}` : null;
export const datasheetUrl = (code: string, hash: string | null) =>
  hash ? `/api/products/${encodeURIComponent(code)}/datasheet.pdf?v=${hash}` : null;

/** The menu's tree: top-level groups in order, each with its sub-groups. */
export async function listGroupTree(db: Db): Promise<GroupTree[]> {
  const rows = await db.select().from(groups).orderBy(asc(groups.position), asc(groups.name));
  const top = rows.filter((g) => g.parentClas === null);
  return top.map((g) => ({
    clas: g.clas,
    name: g.name,
    subgroups: rows.filter((s) => s.parentClas === g.clas).map((s) => ({ clas: s.clas, name: s.name })),
  }));
}

/** Every brand with its logo URL and how many active products it has, in Spanish alphabetical order. */
export async function listBrands(db: Db): Promise<Brand[]> {
  const [rows, facets] = await Promise.all([
    db.select({ name: brands.name, logoHash: brands.logoHash, featured: brands.featured }).from(brands),
    globalFacets(db),
  ]);
  const counts = new Map(facets.brands.map((b) => [b.value, b.count]));
  return rows
    .map((r) => ({
      name: r.name,
      logoUrl: brandLogoUrl(r.name, r.logoHash),
      featured: r.featured,
      productCount: counts.get(r.name) ?? 0,
    }))
    .sort((a, b) => collator.compare(a.name, b.name));
}

export async function getBrandLogo(db: Db, name: string): Promise<{ data: Buffer; hash: string } | null> {
  const [row] = await db
    .select({ logo: brands.logo, hash: brands.logoHash })
    .from(brands)
    .where(eq(brands.name, name))
    .limit(1);
  if (!row?.logo) return null;
  return { data: row.logo, hash: row.hash ?? '' };
}

/** The columns of a product card: never the picture or PDF bytes. */
const cardColumns = {
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

const toCard = (r: CardRow): ProductCard => ({
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

/** The filter of one facet (OR among its values), or undefined when the facet is not used. */
async function facetConditions(db: Db, query: ProductsQuery): Promise<Record<Facet, SQL | undefined>> {
  const uniq = (v: string[]) => [...new Set(v)];
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

export type ListOptions = {
  /** True when the shopper chose the order; otherwise a search is ordered by relevance. */
  explicitSort: boolean;
  /** Another search plan (the benchmark compares the naive ILIKE plan through this). */
  buildSearch?: typeof buildSearch;
};

const emptyFacets = (): ProductsResponse['facets'] => ({ brands: [], groups: [], lines: [], types: [] });

type RawFacets = ProductsResponse['facets'];
type Pair = [string, number];

/**
 * One page of active products under the filters (OR within a facet, AND across facets) and the search,
 * with facet counts where each facet's counts apply every filter except its own (and the search).
 */
export async function listProducts(
  db: Db,
  query: ProductsQuery,
  options: ListOptions = { explicitSort: true },
): Promise<ProductsResponse> {
  const { page, pageSize } = query;
  const search = query.q?.trim() ? await (options.buildSearch ?? buildSearch)(db, query.q) : null;
  const groupInfo = await selectedGroup(db, query.group);
  if (search === 'none') {
    return { items: [], total: 0, pages: 0, page, pageSize, facets: emptyFacets(), group: groupInfo };
  }
  const facetWhere = await facetConditions(db, query);
  const { items, total, facets } = search
    ? await listMatches(db, query, facetWhere, search, !options.explicitSort)
    : await listBrowse(db, query, facetWhere);
  return {
    items,
    total,
    pages: Math.ceil(total / pageSize),
    page,
    pageSize,
    facets: {
      brands: withSelected(facets.brands, query.brand).sort(byLabel),
      groups: facets.groups.sort(byLabel),
      lines: withSelected(facets.lines, query.line).sort(byLabel),
      types: withSelected(facets.types, query.type).sort(byLabel),
    },
    group: groupInfo,
  };
}

type Listing = { items: ProductCard[]; total: number; facets: RawFacets };

/**
 * Browsing (no search): the page and the total from the listing indexes; each facet counted under the
 * other facets' filters, or, when no other facet filters, taken from the cached whole-catalogue counts.
 */
async function listBrowse(
  db: Db,
  query: ProductsQuery,
  facetWhere: Record<Facet, SQL | undefined>,
): Promise<Listing> {
  const active = sql`${products.active}`;
  const where = and(active, ...Object.values(facetWhere));
  const others = (facet: Facet) =>
    (Object.entries(facetWhere) as [Facet, SQL | undefined][]).filter(
      ([f, c]) => f !== facet && c !== undefined,
    );
  const except = (facet: Facet) => and(active, ...others(facet).map(([, c]) => c));
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
  const order = orderBy(
    query.sort,
    Object.values(facetWhere).some((c) => c !== undefined),
  );
  // The page's codes come from an index-only scan; only those few rows are then read in full.
  const pageCodes = db
    .select({ code: products.code })
    .from(products)
    .where(where)
    .orderBy(...order)
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [itemRows, [totalRow], global, brandF, groupF, lineF, typeF] = await Promise.all([
    db
      .select(cardColumns)
      .from(products)
      .where(inArray(products.code, pageCodes))
      .orderBy(...order),
    db.select({ n: count() }).from(products).where(where),
    needsGlobal ? globalFacets(db) : Promise.resolve(emptyFacets()),
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
    items: itemRows.map(toCard),
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
 * Searching: the matching products are read once (GIN index on the tsvector) into a CTE, and the page,
 * the total and the four facets are computed from it in the same statement.
 */
async function listMatches(
  db: Db,
  query: ProductsQuery,
  facetWhere: Record<Facet, SQL | undefined>,
  search: Search,
  byRank: boolean,
): Promise<Listing> {
  const ok = (f: Facet) => facetWhere[f] ?? sql`true`;
  const order = byRank
    ? sql.raw('rank desc, code')
    : query.sort === 'price_asc'
      ? sql.raw('price_cents, code')
      : query.sort === 'price_desc'
        ? sql.raw('price_cents desc, code')
        : sql.raw('code');
  const [row] = await queryRows<{
    total: number;
    items: CardRow[] | null;
    brands: Pair[] | null;
    groups: [string, string, number][] | null;
    lines: Pair[] | null;
    types: Pair[] | null;
  }>(
    db,
    sql`
    with m as materialized (
      select ${products.code} as code, ${products.name} as name, ${products.brand} as brand,
        ${products.groupClas} as group_clas, ${products.line} as line, ${products.type} as type,
        ${products.priceCents} as price_cents, ${products.stock} as stock, ${products.imageHash} as image_hash,
        ${byRank ? search.rank : sql`0`} as rank,
        ${ok('brand')} as b_ok, ${ok('group')} as g_ok, ${ok('line')} as l_ok, ${ok('type')} as t_ok
      from ${products}
      where ${products.active} and ${search.where}
    ),
    sel as (select * from m where b_ok and g_ok and l_ok and t_ok)
    select
      (select count(*)::int from sel) as total,
      (select json_agg(json_build_object('code', code, 'name', name, 'brand', brand, 'groupClas', group_clas,
          'line', line, 'type', type, 'priceCents', price_cents, 'stock', stock, 'imageHash', image_hash)
          order by ${order})
        from (select * from sel order by ${order} limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}) p
      ) as items,
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
    items: (row?.items ?? []).map(toCard),
    total: Number(row?.total ?? 0),
    facets: {
      brands: pairs(row?.brands),
      groups: (row?.groups ?? []).map(([value, label, n]) => ({ value, label, count: Number(n) })),
      lines: pairs(row?.lines),
      types: pairs(row?.types),
    },
  };
}

/**
 * Whole-catalogue facet counts (active products), shared by the brand list and by every listing whose
 * other facets are not filtered. One grouping-sets scan, cached per database for GLOBAL_TTL_MS and
 * refreshed in the background (a listing never waits for it after the first time); writers that change
 * brands, groups, lines, types or the active flag may call invalidateCatalogueCounts.
 */
const GLOBAL_TTL_MS = 30_000;
type GlobalEntry = { value?: RawFacets; at: number; pending?: Promise<RawFacets> };
const globalCache = new WeakMap<Db, GlobalEntry>();

export function invalidateCatalogueCounts(db: Db): void {
  globalCache.delete(db);
}

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

export async function globalFacets(db: Db): Promise<RawFacets> {
  let entry = globalCache.get(db);
  if (!entry) {
    entry = { at: 0 };
    globalCache.set(db, entry);
  }
  const current = entry;
  const refresh = () => {
    current.pending ??= computeGlobalFacets(db)
      .then((value) => {
        current.value = value;
        current.at = Date.now();
        return value;
      })
      .finally(() => {
        current.pending = undefined;
      });
    return current.pending;
  };
  if (current.value === undefined) return refresh();
  if (Date.now() - current.at > GLOBAL_TTL_MS) refresh().catch(() => {});
  return current.value;
}

/** A selected value keeps its checkbox even when the other filters leave it no products. */
function withSelected(facet: FacetCount[], selected: string[]): FacetCount[] {
  const present = new Set(facet.map((f) => f.value));
  const missing = [...new Set(selected)].filter((v) => !present.has(v));
  return [...facet, ...missing.map((v) => ({ value: v, label: v, count: 0 }))];
}

/**
 * The listing order. With a filter, the price sort is written as an expression so the planner cannot walk
 * the whole price index hoping to meet the filtered products early: prices correlate with groups (glassware
 * is cheap, equipment dear), so that walk can read most of the catalogue; sorting the filtered rows from the
 * covering listing indexes is always cheap.
 */
function orderBy(sort: ProductSort, filtered: boolean): SQL[] {
  const price = filtered ? sql`(${products.priceCents} + 0)` : sql`${products.priceCents}`;
  if (sort === 'price_asc') return [sql`${price} asc`, asc(products.code)];
  if (sort === 'price_desc') return [sql`${price} desc`, asc(products.code)];
  return [asc(products.code)];
}

async function selectedGroup(db: Db, selected: string[]): Promise<{ clas: string; name: string } | null> {
  const unique = [...new Set(selected)];
  if (unique.length !== 1) return null;
  const [row] = await db
    .select({ clas: groups.clas, name: groups.name })
    .from(groups)
    .where(eq(groups.clas, unique[0]!))
    .limit(1);
  return row ?? null;
}

/** Product detail of an active product; the long description is sanitized again on the way out. */
export async function getProduct(db: Db, code: string): Promise<ProductDetail | null> {
  const [row] = await db
    .select({
      ...cardColumns,
      groupName: groups.name,
      brandLogoHash: brands.logoHash,
      shortDesc: products.shortDesc,
      longDescHtml: products.longDescHtml,
      datasheetHash: products.datasheetHash,
      weightKg: products.weightKg,
    })
    .from(products)
    .leftJoin(groups, eq(groups.clas, products.groupClas))
    .leftJoin(brands, eq(brands.name, products.brand))
    .where(and(eq(products.code, code), eq(products.active, true)))
    .limit(1);
  if (!row) return null;
  return {
    ...toCard(row),
    groupName: row.groupName,
    brandLogoUrl: row.brand ? brandLogoUrl(row.brand, row.brandLogoHash) : null,
    shortDesc: row.shortDesc,
    // Stored sanitized; sanitizing again costs little and protects against rows written around the service.
    longDescHtml: sanitizeLongDescription(row.longDescHtml),
    datasheetUrl: datasheetUrl(row.code, row.datasheetHash),
    weightKg: Number(row.weightKg),
  };
}

export async function getStock(db: Db, code: string): Promise<number | null> {
  const [row] = await db
    .select({ stock: products.stock })
    .from(products)
    .where(and(eq(products.code, code), eq(products.active, true)))
    .limit(1);
  return row ? row.stock : null;
}

/** The hashes of a product's media (cheap: no bytes), or null for an unknown/inactive product. */
export async function getMediaHashes(
  db: Db,
  code: string,
): Promise<{ imageHash: string | null; datasheetHash: string | null } | null> {
  const [row] = await db
    .select({ imageHash: products.imageHash, datasheetHash: products.datasheetHash })
    .from(products)
    .where(and(eq(products.code, code), eq(products.active, true)))
    .limit(1);
  return row ?? null;
}

export async function getImageBytes(db: Db, code: string): Promise<Buffer | null> {
  const [row] = await db
    .select({ image: products.image })
    .from(products)
    .where(and(eq(products.code, code), eq(products.active, true)))
    .limit(1);
  return row?.image ?? null;
}

export async function getDatasheetBytes(
  db: Db,
  code: string,
): Promise<{ data: Buffer; hash: string } | null> {
  const [row] = await db
    .select({ data: products.datasheet, hash: products.datasheetHash })
    .from(products)
    .where(and(eq(products.code, code), eq(products.active, true)))
    .limit(1);
  if (!row?.data) return null;
  return { data: row.data, hash: row.hash ?? '' };
}
