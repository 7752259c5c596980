import { and, count, eq, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import type { FacetCount, ProductsQuery, ProductsResponse } from '../../shared/schemas/catalog.ts';
import type { Db } from '../db/client.ts';
import { groups, products } from '../db/schema.ts';
import { listed } from './listed.ts';
import type { Search } from './search.ts';

/**
 * The counting half of a listing (catalog/listing.ts keeps the results per selection): the filter of each
 * facet, the total, and each facet's counts under the other facets' filters — for browsing from the
 * listing indexes, for a search from its matches, and for the whole catalogue in one grouping-sets scan.
 */
export type Facet = 'brand' | 'group' | 'line' | 'type';
export type RawFacets = ProductsResponse['facets'];
type Pair = [string, number];

export const emptyFacets = (): RawFacets => ({ brands: [], groups: [], lines: [], types: [] });
const uniq = (v: string[]) => [...new Set(v)];

/** The filter of one facet (OR among its values), or undefined when the facet is not used. */
export async function facetConditions(db: Db, query: ProductsQuery): Promise<Record<Facet, SQL | undefined>> {
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

export type Counted = { total: number; facets: RawFacets };

/**
 * Browsing (no search): the total from the listing indexes; each facet counted under the other facets'
 * filters, or, when no other facet filters, taken from the whole-catalogue counts.
 */
export async function countBrowse(
  db: Db,
  facetWhere: Record<Facet, SQL | undefined>,
  /** The whole-catalogue counts, as the caller keeps them. */
  cachedGlobal: (() => Promise<RawFacets>) | null,
): Promise<Counted> {
  const active = listed;
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
      : unfiltered || cachedGlobal === null
        ? computeGlobalFacets(db)
        : cachedGlobal(),
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
export async function countMatches(
  db: Db,
  facetWhere: Record<Facet, SQL | undefined>,
  search: Search,
): Promise<Counted> {
  const ok = (f: Facet) => facetWhere[f] ?? sql`true`;
  const { rows } = await db.execute<{
    total: number;
    brands: Pair[] | null;
    groups: [string, string, number][] | null;
    lines: Pair[] | null;
    types: Pair[] | null;
  }>(
    sql`
    with m as materialized (
      select ${products.brand} as brand, ${products.groupClas} as group_clas, ${products.line} as line,
        ${products.type} as type,
        ${ok('brand')} as b_ok, ${ok('group')} as g_ok, ${ok('line')} as l_ok, ${ok('type')} as t_ok
      from ${products}
      where ${listed} and ${search.where}
    )
    select
      (select count(*)::int from m where b_ok and g_ok and l_ok and t_ok) as total,
      (select json_agg(json_build_array(brand, n)) from (
        select brand, count(*)::int as n from m where g_ok and l_ok and t_ok and brand is not null group by brand) f
      ) as brands,
      (select json_agg(json_build_array(f.group_clas, ${groups.name}, f.n)) from (
        select group_clas, count(*)::int as n from m where b_ok and l_ok and t_ok and group_clas is not null
        group by group_clas) f join ${groups} on ${groups.clas} = f.group_clas
      ) as groups,
      (select json_agg(json_build_array(line, n)) from (
        select line, count(*)::int as n from m where b_ok and g_ok and t_ok and line is not null group by line) f
      ) as lines,
      (select json_agg(json_build_array(type, n)) from (
        select type, count(*)::int as n from m where b_ok and g_ok and l_ok and type is not null group by type) f
      ) as types`,
  );
  const row = rows[0];
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
export async function computeGlobalFacets(db: Db): Promise<RawFacets> {
  const { brand, groupClas, line, type } = products;
  const { rows } = await db.execute<{ kind: string; value: string | null; label: string | null; n: number }>(
    sql`
    select case grouping(${brand}, ${groupClas}, ${line}, ${type})
             when 7 then 'brand' when 11 then 'group' when 13 then 'line' else 'type' end as kind,
           coalesce(${brand}, ${groupClas}, ${line}, ${type}) as value,
           max(${groups.name}) as label, count(*)::int as n
    from ${products} left join ${groups} on ${groups.clas} = ${groupClas}
    where ${listed}
    group by grouping sets ((${brand}), (${groupClas}), (${line}), (${type}))`,
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
