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
import { buildSearch } from './search.ts';

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
  const counts = db
    .select({ brand: products.brand, n: count().as('n') })
    .from(products)
    .where(and(eq(products.active, true), isNotNull(products.brand)))
    .groupBy(products.brand)
    .as('counts');
  const rows = await db
    .select({
      name: brands.name,
      logoHash: brands.logoHash,
      featured: brands.featured,
      n: counts.n,
    })
    .from(brands)
    .leftJoin(counts, eq(counts.brand, brands.name));
  return rows
    .map((r) => ({
      name: r.name,
      logoUrl: brandLogoUrl(r.name, r.logoHash),
      featured: r.featured,
      productCount: Number(r.n ?? 0),
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
function facetConditions(db: Db, query: ProductsQuery): Record<Facet, SQL | undefined> {
  const uniq = (v: string[]) => [...new Set(v)];
  const groupList = uniq(query.group);
  return {
    brand: query.brand.length ? inArray(products.brand, uniq(query.brand)) : undefined,
    // A top-level group stands for itself and its sub-groups.
    group: groupList.length
      ? inArray(
          products.groupClas,
          db
            .select({ clas: groups.clas })
            .from(groups)
            .where(or(inArray(groups.clas, groupList), inArray(groups.parentClas, groupList))),
        )
      : undefined,
    line: query.line.length ? inArray(products.line, uniq(query.line)) : undefined,
    type: query.type.length ? inArray(products.type, uniq(query.type)) : undefined,
  };
}

export type ListOptions = {
  /** True when the shopper chose the order; otherwise a search is ordered by relevance. */
  explicitSort: boolean;
};

const emptyFacets = (): ProductsResponse['facets'] => ({ brands: [], groups: [], lines: [], types: [] });

/**
 * One page of active products under the filters (OR within a facet, AND across facets) and the search,
 * with facet counts where each facet's counts apply every filter except its own.
 */
export async function listProducts(
  db: Db,
  query: ProductsQuery,
  options: ListOptions = { explicitSort: true },
): Promise<ProductsResponse> {
  const { page, pageSize } = query;
  const search = query.q?.trim() ? await buildSearch(db, query.q) : null;
  const groupInfo = await selectedGroup(db, query.group);
  if (search === 'none') {
    return { items: [], total: 0, pages: 0, page, pageSize, facets: emptyFacets(), group: groupInfo };
  }
  const facetWhere = facetConditions(db, query);
  const base: (SQL | undefined)[] = [eq(products.active, true), search?.where];
  const where = and(...base, ...Object.values(facetWhere));
  const except = (facet: Facet) =>
    and(
      ...base,
      ...(Object.entries(facetWhere) as [Facet, SQL | undefined][])
        .filter(([f]) => f !== facet)
        .map(([, c]) => c),
    );

  const order = orderBy(query.sort, search && !options.explicitSort ? search.rank : undefined);

  const [itemRows, [totalRow], brandRows, groupRows, lineRows, typeRows] = await Promise.all([
    db
      .select(cardColumns)
      .from(products)
      .where(where)
      .orderBy(...order)
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(products).where(where),
    db
      .select({ value: products.brand, count: count() })
      .from(products)
      .where(and(except('brand'), isNotNull(products.brand)))
      .groupBy(products.brand),
    db
      .select({ value: products.groupClas, label: groups.name, count: count() })
      .from(products)
      .innerJoin(groups, eq(groups.clas, products.groupClas))
      .where(except('group'))
      .groupBy(products.groupClas, groups.name),
    db
      .select({ value: products.line, count: count() })
      .from(products)
      .where(and(except('line'), isNotNull(products.line)))
      .groupBy(products.line),
    db
      .select({ value: products.type, count: count() })
      .from(products)
      .where(and(except('type'), isNotNull(products.type)))
      .groupBy(products.type),
  ]);

  const total = Number(totalRow?.n ?? 0);
  const plain = (rows: { value: string | null; count: number }[]): FacetCount[] =>
    rows
      .filter((r) => r.value !== null)
      .map((r) => ({ value: r.value!, label: r.value!, count: Number(r.count) }));

  return {
    items: itemRows.map(toCard),
    total,
    pages: Math.ceil(total / pageSize),
    page,
    pageSize,
    facets: {
      brands: withSelected(plain(brandRows), query.brand).sort(byLabel),
      groups: groupRows
        .filter((r) => r.value !== null)
        .map((r) => ({ value: r.value!, label: r.label, count: Number(r.count) }))
        .sort(byLabel),
      lines: withSelected(plain(lineRows), query.line).sort(byLabel),
      types: withSelected(plain(typeRows), query.type).sort(byLabel),
    },
    group: groupInfo,
  };
}

/** A selected value keeps its checkbox even when the other filters leave it no products. */
function withSelected(facet: FacetCount[], selected: string[]): FacetCount[] {
  const present = new Set(facet.map((f) => f.value));
  const missing = [...new Set(selected)].filter((v) => !present.has(v));
  return [...facet, ...missing.map((v) => ({ value: v, label: v, count: 0 }))];
}

function orderBy(sort: ProductSort, rank: SQL | undefined): SQL[] {
  if (rank) return [sql`${rank} desc`, asc(products.code)];
  if (sort === 'price_asc') return [asc(products.priceCents), asc(products.code)];
  if (sort === 'price_desc') return [desc(products.priceCents), asc(products.code)];
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
