import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

export const brands = pgTable('brands', {
  name: text('name').primaryKey(),
  logo: bytea('logo'),
  /** Short content hash of the logo, used in its URL so it can be cached for a year. */
  logoHash: text('logo_hash'),
  featured: boolean('featured').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Groups (the spec's CLAS code and ADESC description); top-level groups have no parent. */
export const groups = pgTable(
  'groups',
  {
    clas: text('clas').primaryKey(),
    name: text('name').notNull(),
    parentClas: text('parent_clas').references((): AnyPgColumn => groups.clas),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('groups_parent_idx').on(t.parentClas)],
);

export const products = pgTable(
  'products',
  {
    code: text('code').primaryKey(),
    name: text('name').notNull(),
    brand: text('brand').references(() => brands.name),
    groupClas: text('group_clas').references(() => groups.clas),
    line: text('line'),
    type: text('type'),
    /** Price in centavos, IVA included. */
    priceCents: integer('price_cents').notNull(),
    stock: integer('stock').notNull().default(0),
    weightKg: numeric('weight_kg', { precision: 10, scale: 3, mode: 'number' }).notNull().default(0),
    shortDesc: text('short_desc').notNull().default(''),
    /** Sanitized on write; only this copy is ever rendered. */
    longDescHtml: text('long_desc_html').notNull().default(''),
    image: bytea('image'),
    imageHash: text('image_hash'),
    datasheet: bytea('datasheet'),
    datasheetHash: text('datasheet_hash'),
    /** SAT catalogue keys for the CFDI; config defaults apply when empty. */
    satProductKey: text('sat_product_key'),
    satUnitKey: text('sat_unit_key'),
    /** Reagents: CAS registry number as written by CAS ('7664-93-9'; check digit verified on write, src/shared/cas.ts). */
    casNumber: text('cas_number'),
    /** Reagents: molecular formula as printed on the label ('H2SO4'). */
    formula: text('formula'),
    /**
     * Presentations (decision 021): every row is a sellable unit with its own code, price, stock, weight and SAT
     * keys. A presentation of another product names that product's code here (the family's base, whose own
     * family_code is null); a base lists the family in listings, one card per family.
     */
    familyCode: text('family_code').references((): AnyPgColumn => products.code),
    /** What the presentation is: '500 mL', '1 L', 'caja con 100'; null for a product without presentations. */
    presentationLabel: text('presentation_label'),
    /*
     * Reagent safety data (decision 027), kept on the family's base only (a presentation shows its base's): the
     * substance and its hazards are the same in 500 mL and 4 L. Codes only, checked against src/shared/ghs.ts;
     * the page shows the official Spanish texts.
     */
    /** Molar mass in g/mol. */
    molarMass: numeric('molar_mass', { precision: 12, scale: 4, mode: 'number' }),
    /** Grade code (src/shared/ghs.ts GRADES): 'ACS', 'RA', 'HPLC'… */
    grade: text('grade'),
    /** GHS/SGA pictograms, 'GHS01'…'GHS09', in that order. */
    ghsPictograms: text('ghs_pictograms').array().notNull().default(sql`'{}'::text[]`),
    /** 'danger' (Peligro) or 'warning' (Atención). */
    signalWord: text('signal_word'),
    /** H codes ('H290', 'H314'), as the official list spells them. */
    hazardStatements: text('hazard_statements').array().notNull().default(sql`'{}'::text[]`),
    /** P codes, single or combined ('P280', 'P305+P351+P338'). */
    precautionaryStatements: text('precautionary_statements').array().notNull().default(sql`'{}'::text[]`),
    /** How to store it ('Almacenar entre 15 y 25 °C, en lugar seco y bien ventilado'). */
    storageConditions: text('storage_conditions'),
    /**
     * 'Sobre pedido' (decision 029): the presentation may be ordered beyond its stock; what stock cannot cover is
     * backordered on the order line and delivered within the lead time, in business days (Mexico City).
     * Not flagged: the exact stock rules hold (never sold beyond stock). Flagged: both days are set, min ≤ max.
     */
    backorderable: boolean('backorderable').notNull().default(false),
    leadMinDays: integer('lead_min_days'),
    leadMaxDays: integer('lead_max_days'),
    /**
     * Under Mexico's precursor and essential-chemicals law (decision 030): buying it needs a signed-in buyer with
     * an RFC on file and an end-use declaration. Set per family: presentations carry their base's value
     * (src/server/catalog/controlled.ts keeps them equal).
     */
    controlled: boolean('controlled').notNull().default(false),
    /**
     * 'Por agotarse' (issue 36, decision 066): at or below this many units the presentation is listed and goes in the
     * almacén's daily digest. Null: the shop's default (REORDER_POINT_DEFAULT).
     */
    reorderPoint: integer('reorder_point'),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('products_stock_nonnegative', sql`${t.stock} >= 0`),
    check('products_price_nonnegative', sql`${t.priceCents} >= 0`),
    check('products_reorder_point_range', sql`${t.reorderPoint} between 0 and 100000`),
    index('products_brand_idx').on(t.brand),
    index('products_group_idx').on(t.groupClas),
    // The dashboard's sales by category look up each product's group: an index-only scan (migration 0035).
    index('products_group_of_code_idx').on(t.code, t.groupClas),
    index('products_price_idx').on(t.priceCents),
    index('products_cas_idx').on(t.casNumber),
    // Search by formula ('h2so4', 'H₂SO₄'): the same expression as catalog/search.ts FORMULA_KEY.
    index('products_formula_key_idx').on(sql`upper(translate(${t.formula}, '₀₁₂₃₄₅₆₇₈₉ ·.', '0123456789'))`),
    index('products_family_idx').on(t.familyCode),
    check('products_family_not_self', sql`${t.familyCode} <> ${t.code}`),
    check('products_molar_mass_positive', sql`${t.molarMass} > 0`),
    check('products_signal_word', sql`${t.signalWord} in ('danger', 'warning')`),
    check(
      'products_ghs_pictograms',
      sql`${t.ghsPictograms} <@ array['GHS01','GHS02','GHS03','GHS04','GHS05','GHS06','GHS07','GHS08','GHS09']::text[]`,
    ),
    // Safety data lives on the family's base (decision 027): a presentation carries none of its own.
    check(
      'products_safety_on_base',
      sql`${t.familyCode} is null or (${t.molarMass} is null and ${t.grade} is null and ${t.signalWord} is null and ${t.storageConditions} is null and cardinality(${t.ghsPictograms}) = 0 and cardinality(${t.hazardStatements}) = 0 and cardinality(${t.precautionaryStatements}) = 0)`,
    ),
    check(
      'products_lead_time',
      sql`(not ${t.backorderable} and ${t.leadMinDays} is null and ${t.leadMaxDays} is null) or (${t.backorderable} and ${t.leadMinDays} between 1 and 180 and ${t.leadMaxDays} between ${t.leadMinDays} and 180)`,
    ),
  ],
);

/**
 * Volume prices of one presentation (decision 021): from `min_quantity` units on, each unit costs `price_cents`
 * (IVA included). Below the lowest break the product's own price holds. src/shared/volume-prices.ts prices a line.
 */
export const priceBreaks = pgTable(
  'price_breaks',
  {
    productCode: text('product_code')
      .notNull()
      .references(() => products.code, { onDelete: 'cascade' }),
    minQuantity: integer('min_quantity').notNull(),
    priceCents: integer('price_cents').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.productCode, t.minQuantity] }),
    check('price_breaks_min_quantity', sql`${t.minQuantity} >= 2`),
    check('price_breaks_price_positive', sql`${t.priceCents} > 0`),
  ],
);

/**
 * Every change of stock is a row here, with its reason; Σ delta per product equals its stock.
 * Reasons: 'seed', 'import', 'adjustment', 'order_reserve', 'order_release', 'order_cancel'.
 */
export const stockMovements = pgTable(
  'stock_movements',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    productCode: text('product_code')
      .notNull()
      .references(() => products.code),
    delta: integer('delta').notNull(),
    reason: text('reason').notNull(),
    orderNumber: integer('order_number'),
    note: text('note'),
    actorUserId: integer('actor_user_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('stock_movements_product_idx').on(t.productCode, t.createdAt),
    index('stock_movements_order_idx').on(t.orderNumber),
  ],
);
