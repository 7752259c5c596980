import { and, asc, eq, or } from 'drizzle-orm';
import { type LeadTime, leadTimeOf } from '../../shared/backorder.ts';
import type {
  Brand,
  GroupTree,
  ProductDetail,
  ProductsQuery,
  ProductsResponse,
} from '../../shared/schemas/catalog.ts';
import type { Db } from '../db/client.ts';
import { brands, groups, priceBreaks, products } from '../db/schema.ts';
import { documentsForPage } from './documents.ts';
import {
  cardColumns,
  globalFacets,
  type ListOptions,
  listProducts as list,
  productImageUrl,
  toCard,
} from './listing.ts';
import { safetyColumns, toSafety } from './safety.ts';
import { sanitizeLongDescription } from './sanitize.ts';
import { LOW_RESULTS, recordMiss } from './vocabulary.ts';

/**
 * A listing (listing.ts), for the API and the server-rendered pages alike. A search without filters whose first
 * page finds fewer than LOW_RESULTS products is logged for purchasing (term, count, day; vocabulary.ts) — in
 * the background: it never delays or fails the answer.
 */
export async function listProducts(
  db: Db,
  query: ProductsQuery,
  options?: ListOptions,
): Promise<ProductsResponse> {
  const result = await list(db, query, options);
  const filtered = query.brand.length + query.group.length + query.line.length + query.type.length > 0;
  if (query.q?.trim() && query.page === 1 && !filtered && result.total < LOW_RESULTS) {
    recordMiss(db, query.q, result.total).catch(() => {
      // A lost log line is not worth failing or slowing a shopper's search for.
    });
  }
  return result;
}
export { productImageUrl };

const collator = new Intl.Collator('es-MX', { sensitivity: 'base', numeric: true });

export const brandLogoUrl = (name: string, hash: string | null) =>
  hash ? `/api/brands/${encodeURIComponent(name)}/logo?v=${hash}` : null;
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

/** Product detail of an active product; the long description is sanitized again on the way out. */
export async function getProduct(db: Db, code: string): Promise<ProductDetail | null> {
  const found = await productByCode(db, code);
  // An address typed in another case (/productos/crx-10000): the catalogue's codes are upper-case, and the exact match
  // stays on the index; the page then redirects to the product's own code.
  if (found || code.toUpperCase() === code) return found;
  return productByCode(db, code.toUpperCase());
}

async function productByCode(db: Db, code: string): Promise<ProductDetail | null> {
  const [row] = await db
    .select({
      ...cardColumns,
      groupName: groups.name,
      brandLogoHash: brands.logoHash,
      shortDesc: products.shortDesc,
      longDescHtml: products.longDescHtml,
      datasheetHash: products.datasheetHash,
      weightKg: products.weightKg,
      familyCode: products.familyCode,
      presentationLabel: products.presentationLabel,
      casNumber: products.casNumber,
      formula: products.formula,
      controlled: products.controlled,
    })
    .from(products)
    .leftJoin(groups, eq(groups.clas, products.groupClas))
    .leftJoin(brands, eq(brands.name, products.brand))
    .where(and(eq(products.code, code), eq(products.active, true)))
    .limit(1);
  if (!row) return null;
  const familyCode = row.familyCode ?? row.code;
  const [presentations, breaks, [safetyRow], documents] = await Promise.all([
    db
      .select({
        code: products.code,
        label: products.presentationLabel,
        priceCents: products.priceCents,
        stock: products.stock,
        backorderable: products.backorderable,
        leadMinDays: products.leadMinDays,
        leadMaxDays: products.leadMaxDays,
      })
      .from(products)
      .where(
        and(
          or(eq(products.code, familyCode), eq(products.familyCode, familyCode)),
          eq(products.active, true),
        ),
      )
      .orderBy(asc(products.priceCents), asc(products.code)),
    db
      .select({ minQuantity: priceBreaks.minQuantity, priceCents: priceBreaks.priceCents })
      .from(priceBreaks)
      .where(eq(priceBreaks.productCode, row.code))
      .orderBy(asc(priceBreaks.minQuantity)),
    // Safety data is the family base's (decision 027), whichever presentation is shown.
    db.select(safetyColumns).from(products).where(eq(products.code, familyCode)).limit(1),
    documentsForPage(db, row.code, familyCode),
  ]);
  return {
    // The page shows this presentation's own price and stock; the selector shows the others'.
    ...toCard(row),
    presentationCount: presentations.length,
    groupName: row.groupName,
    brandLogoUrl: row.brand ? brandLogoUrl(row.brand, row.brandLogoHash) : null,
    shortDesc: row.shortDesc,
    // Stored sanitized; sanitizing again costs little and protects against rows written around the service.
    longDescHtml: sanitizeLongDescription(row.longDescHtml),
    datasheetUrl: datasheetUrl(row.code, row.datasheetHash),
    weightKg: Number(row.weightKg),
    presentationLabel: row.presentationLabel,
    familyCode,
    presentations: presentations.map(({ backorderable: _b, leadMinDays: _min, leadMaxDays: _max, ...o }) => ({
      ...o,
      leadTime: leadTimeOf({ backorderable: _b, leadMinDays: _min, leadMaxDays: _max }),
    })),
    priceBreaks: breaks,
    casNumber: row.casNumber,
    formula: row.formula,
    safety: safetyRow ? toSafety(safetyRow) : null,
    controlled: row.controlled,
    ...documents,
  };
}

/** An active product's stock and, when it is 'sobre pedido' (decision 029), its lead time; null when unknown. */
export async function getStock(
  db: Db,
  code: string,
): Promise<{ stock: number; leadTime: LeadTime | null } | null> {
  const [row] = await db
    .select({
      stock: products.stock,
      backorderable: products.backorderable,
      leadMinDays: products.leadMinDays,
      leadMaxDays: products.leadMaxDays,
    })
    .from(products)
    .where(and(eq(products.code, code), eq(products.active, true)))
    .limit(1);
  return row ? { stock: row.stock, leadTime: leadTimeOf(row) } : null;
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
