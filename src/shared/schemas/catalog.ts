import { z } from 'zod';
import { SUGGEST_MIN_LENGTH } from '../suggest.ts';
import { publicCertificateSchema } from './documents.ts';

/**
 * The catalogue API's payloads: the contract between src/server/catalog and src/client/catalog.
 * Money is integer centavos with IVA included (…Cents fields).
 */

/** GET /api/groups: the category tree of the menu (the spec's CLAS and ADESC). */
export const groupSchema = z.object({
  clas: z.string(),
  name: z.string(),
  subgroups: z.array(z.object({ clas: z.string(), name: z.string() })),
});
export const groupsResponseSchema = z.object({ groups: z.array(groupSchema) });
export type GroupTree = z.infer<typeof groupSchema>;

/** GET /api/brands */
export const brandSchema = z.object({
  name: z.string(),
  /** /api/brands/{name}/logo?v={hash}, or null when the brand has no logo. */
  logoUrl: z.string().nullable(),
  featured: z.boolean(),
  productCount: z.number().int(),
});
export const brandsResponseSchema = z.object({ brands: z.array(brandSchema) });
export type Brand = z.infer<typeof brandSchema>;

export const PAGE_SIZE_DEFAULT = 9;
export const PAGE_SIZE_MAX = 60;
export const sortValues = ['code', 'price_asc', 'price_desc'] as const;
export type ProductSort = (typeof sortValues)[number];

const repeatable = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
  .pipe(z.array(z.string().max(200, 'Filtro demasiado largo')).max(50, 'Demasiados filtros'));

/** GET /api/products query: each facet may repeat (OR within a facet, AND across facets). */
export const productsQuerySchema = z.object({
  brand: repeatable,
  group: repeatable,
  line: repeatable,
  type: repeatable,
  q: z.string().max(1000, 'La búsqueda es demasiado larga').optional(),
  /** '1': search the shopper's own words, without correcting them ('¿Buscaba «balansa»?'). */
  exact: z.enum(['1'], { error: 'Valor inválido de exact' }).optional(),
  sort: z.enum(sortValues, { error: 'Orden inválido' }).default('code'),
  page: z.coerce
    .number({ error: 'Página inválida' })
    .int('Página inválida')
    .min(1, 'Página inválida')
    .max(100_000, 'Página inválida')
    .default(1),
  pageSize: z.coerce
    .number({ error: 'Tamaño de página inválido' })
    .int('Tamaño de página inválido')
    .min(1, 'Tamaño de página inválido')
    .max(PAGE_SIZE_MAX, `El tamaño de página no puede ser mayor que ${PAGE_SIZE_MAX}`)
    .default(PAGE_SIZE_DEFAULT),
});
export type ProductsQuery = z.infer<typeof productsQuerySchema>;

/** 'Sobre pedido' (decision 029): orderable beyond stock, delivered in minDays–maxDays business days. */
export const leadTimeSchema = z.object({ minDays: z.number().int(), maxDays: z.number().int() });

/** One product card in a list. */
export const productCardSchema = z.object({
  code: z.string(),
  name: z.string(),
  brand: z.string().nullable(),
  line: z.string().nullable(),
  type: z.string().nullable(),
  groupClas: z.string().nullable(),
  priceCents: z.number().int(),
  stock: z.number().int(),
  /** Image URL with a content hash (…/image?v={hash}); null shows 'Sin imagen'. */
  imageUrl: z.string().nullable(),
  /**
   * A family's card (decision 021): how many active presentations it has, and the lowest of their prices when
   * they differ ('desde $…'; null when all cost the same). `stock` and `priceCents` stay the card's own code's;
   * `familyStock` counts the units of all the family's presentations.
   */
  presentationCount: z.number().int(),
  fromPriceCents: z.number().int().nullable(),
  familyStock: z.number().int(),
  /** The card's own code is 'sobre pedido' (decision 029): its lead time; null when it is sold from stock only. */
  leadTime: leadTimeSchema.nullable(),
});
export type ProductCard = z.infer<typeof productCardSchema>;

const facetCount = z.object({ value: z.string(), label: z.string(), count: z.number().int() });
export type FacetCount = z.infer<typeof facetCount>;

export const productsResponseSchema = z.object({
  items: z.array(productCardSchema),
  total: z.number().int(),
  pages: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Counts under the current selection; for each facet, the other facets' filters apply. */
  facets: z.object({
    brands: z.array(facetCount),
    groups: z.array(facetCount),
    lines: z.array(facetCount),
    types: z.array(facetCount),
  }),
  /** The group's name when filtered by exactly one group, else null ('Productos'). */
  group: z.object({ clas: z.string(), name: z.string() }).nullable(),
  /**
   * A search answered with other words than the shopper's: a typo correction ('Mostrando resultados de
   * «balanza». ¿Buscaba «balansa»?') or a synonym of the lab's vocabulary. Absent otherwise.
   */
  searchNote: z
    .object({ kind: z.enum(['corrected', 'synonym']), searched: z.string() })
    .nullable()
    .optional(),
});
export type ProductsResponse = z.infer<typeof productsResponseSchema>;

/** GET /api/products/:code */
export const productDetailSchema = productCardSchema.extend({
  groupName: z.string().nullable(),
  /** The brand's logo URL when it has one. */
  brandLogoUrl: z.string().nullable(),
  shortDesc: z.string(),
  /** Sanitized HTML (sanitized on write). */
  longDescHtml: z.string(),
  /** …/datasheet.pdf?v={hash} or null. */
  datasheetUrl: z.string().nullable(),
  /** The family's safety data sheet (HDS, NOM-018-STPS-2015): …/hds.pdf?v={hash} or null (decision 028). */
  safetySheetUrl: z.string().nullable(),
  /** The family's newest certificates of analysis (at most 12); any lot is found with the lot search. */
  certificates: z.array(publicCertificateSchema),
  /** How many lots have a certificate (the list above may show fewer). */
  certificateCount: z.number().int(),
  weightKg: z.number(),
  /** The presentation shown: its label ('1 L'), null without presentations. */
  presentationLabel: z.string().nullable(),
  /** The family's base code; the product's own code when it is the base. */
  familyCode: z.string(),
  /** Every active presentation of the family, this one included, cheapest first. */
  presentations: z.array(
    z.object({
      code: z.string(),
      label: z.string().nullable(),
      priceCents: z.number().int(),
      stock: z.number().int(),
      leadTime: leadTimeSchema.nullable(),
    }),
  ),
  /** This presentation's volume prices: from minQuantity units on, priceCents each. */
  priceBreaks: z.array(z.object({ minQuantity: z.number().int(), priceCents: z.number().int() })),
  casNumber: z.string().nullable(),
  formula: z.string().nullable(),
  /**
   * Reagent safety data (decision 027), the family base's: null when the product has none. The server sends
   * the official Spanish texts with the codes (src/shared/ghs.ts), so the page's bundle does not carry the list.
   */
  safety: z
    .object({
      molarMass: z.number().nullable(),
      grade: z.object({ code: z.string(), name: z.string() }).nullable(),
      pictograms: z.array(z.object({ code: z.string(), name: z.string(), alt: z.string(), url: z.string() })),
      /** 'Peligro' or 'Atención'. */
      signalWord: z.string().nullable(),
      hazardStatements: z.array(z.object({ code: z.string(), text: z.string() })),
      precautionaryStatements: z.array(z.object({ code: z.string(), text: z.string() })),
      storageConditions: z.string().nullable(),
    })
    .nullable(),
  /** Under the precursor law (decision 030): the page says what ordering it requires. */
  controlled: z.boolean(),
});
export type ProductDetail = z.infer<typeof productDetailSchema>;

/** GET /api/products/:code/stock */
export const productStockSchema = z.object({
  code: z.string(),
  stock: z.number().int(),
  leadTime: leadTimeSchema.nullable().optional(),
});

/** GET /api/search/suggest: what the header's search box offers while the shopper types (2+ characters). */
export const suggestQuerySchema = z.object({
  q: z
    .string({ error: 'Escriba qué busca' })
    .trim()
    .min(SUGGEST_MIN_LENGTH, `Escriba al menos ${SUGGEST_MIN_LENGTH} caracteres`)
    .max(100, 'La búsqueda es demasiado larga'),
});
export const suggestResponseSchema = z.object({
  q: z.string(),
  /** How many products the full search finds (the 'Ver los N resultados' line). */
  total: z.number().int(),
  products: z.array(
    productCardSchema.pick({ code: true, name: true, priceCents: true, imageUrl: true, brand: true }),
  ),
  brands: z.array(z.object({ name: z.string(), productCount: z.number().int() })),
  groups: z.array(z.object({ clas: z.string(), name: z.string(), count: z.number().int() })),
  /** As on the search page: the words searched when they were corrected or a synonym applied. */
  searchNote: productsResponseSchema.shape.searchNote,
});
export type SuggestResponse = z.infer<typeof suggestResponseSchema>;
