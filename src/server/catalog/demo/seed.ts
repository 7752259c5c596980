import { count, sql } from 'drizzle-orm';
import { listedSubstance } from '../../../shared/controlled.ts';
import type { Db } from '../../db/client.ts';
import {
  brands,
  groups,
  lotCertificates,
  priceBreaks,
  productSafetySheets,
  products,
  stockMovements,
} from '../../db/schema.ts';
import { renderCertificatePdf, renderSafetySheetPdf } from '../../pdf/safety-docs.ts';
import { safetyColumns, toSafety } from '../safety.ts';
import { sanitizeLongDescription } from '../sanitize.ts';
import { contentHash, renderBrandLogo, renderDatasheet, renderProductImage } from './art.ts';
import {
  demoBrands,
  demoBreaks,
  demoFamilies,
  demoGroups,
  demoLines,
  type Shape,
  type Template,
} from './data.ts';
import { createRandom, type Random } from './random.ts';
import { allReagentFacts, moreReagentNames } from './reagents.ts';
import { demoSatKeys } from './sat-keys.ts';

export type SeedOptions = {
  products?: number;
  /** Called after each batch with (done, total). */
  onProgress?: (done: number, total: number) => void;
  /** Images and datasheets go to the first N products only, so huge benchmark catalogues stay small. */
  mediaLimit?: number;
  /**
   * The variants of the templates in data.ts → demoFamilies become presentations of one product (its first
   * variant is the family's base), with the reagents' CAS and formula and volume prices (decision 021).
   * Off by default, so tests that seed a few products keep the flat catalogue they count on.
   */
  presentations?: boolean;
};

const BATCH = 500;

type ProductRow = typeof products.$inferInsert;

function priceCents(rand: Random, [min, max]: [number, number], position: number): number {
  // Prices move in steps that look like a real price list: .50 below $100, whole pesos above.
  const t = position === 0 || position === 1 ? position : position + rand.next() * 0.1;
  const raw = min + (max - min) * Math.min(1, t);
  const pesos =
    raw < 100 ? Math.round(raw * 2) / 2 : raw < 2000 ? Math.round(raw) : Math.round(raw / 10) * 10;
  return Math.round(pesos * 100);
}

function longDescription(t: Template, name: string, brand: string, rand: Random): string {
  const uses = rand.pick([
    'laboratorios de control de calidad',
    'docencia e investigación',
    'análisis clínicos',
    'industria alimentaria y farmacéutica',
  ]);
  return sanitizeLongDescription(
    `<h3>${name}</h3><p>${t.short} Fabricado por ${brand} para ${uses}.</p>` +
      '<ul><li>Presentación lista para usarse</li><li>Lote trazable con certificado</li>' +
      `<li>Material: ${t.type}</li></ul>` +
      '<table><tbody><tr><th scope="row">Garantía</th><td>1 año contra defectos de fabricación</td></tr>' +
      '<tr><th scope="row">Origen</th><td>Importado</td></tr></tbody></table>',
  );
}

/** Every (subgroup, template, variant) of the demo catalogue, in a fixed order. */
function productPlan(presentations: boolean) {
  const plan: {
    groupClas: string;
    shape: Shape;
    template: Template;
    variant: string;
    position: number;
    /** Which variant of its template (0 = the first, a family's base). */
    index: number;
  }[] = [];
  for (const g of demoGroups) {
    for (const s of g.subgroups) {
      for (const template of s.templates) {
        if (!presentations && moreReagentNames.has(template.name)) continue;
        template.variants.forEach((variant, i) => {
          plan.push({
            groupClas: s.clas,
            shape: s.shape,
            template,
            variant,
            position: i / Math.max(1, template.variants.length - 1),
            index: i,
          });
        });
      }
    }
  }
  return plan;
}

/**
 * What a shop started with SEED_DEMO (the default outside production) does on an empty catalogue: the demo
 * catalogue with its presentations. Also how the browser journeys' seeded template is made
 * (scripts/e2e-template.ts), so their servers start on exactly what this would have loaded.
 */
export async function seedDemoIfEmpty(
  db: Db,
  log: { info(obj: Record<string, unknown>, msg: string): void },
): Promise<void> {
  const [row] = await db.select({ n: count() }).from(products);
  if ((row?.n ?? 0) > 0) return;
  log.info({}, 'catálogo vacío: cargando el catálogo demo');
  const { inserted } = await seedDemoCatalogue(db, { presentations: true });
  log.info({ inserted }, 'catálogo demo cargado');
}

/**
 * Fills the catalogue deterministically: brands (five with a logo), groups with sub-groups, products
 * with prices from $12.50 to $185,000.00, stock (including 0 and 1), images, long descriptions and
 * datasheets. Idempotent: existing products are left as they are; new ones get a 'seed' ledger row.
 */
export async function seedDemoCatalogue(db: Db, options: SeedOptions = {}): Promise<{ inserted: number }> {
  const total = options.products ?? 600;
  const mediaLimit = options.mediaLimit ?? 5000;
  const rand = createRandom(20231105);

  await db
    .insert(brands)
    .values(
      demoBrands.map((b) => {
        const logo = b.featured ? renderBrandLogo(b.name, b.color) : null;
        return { name: b.name, featured: b.featured, logo, logoHash: logo ? contentHash(logo) : null };
      }),
    )
    .onConflictDoUpdate({
      target: brands.name,
      set: { featured: sql`excluded.featured`, logo: sql`excluded.logo`, logoHash: sql`excluded.logo_hash` },
    });

  const groupRows = demoGroups.flatMap((g, i) => [
    { clas: g.clas, name: g.name, parentClas: null, position: i },
    ...g.subgroups.map((s, j) => ({ clas: s.clas, name: s.name, parentClas: g.clas, position: j })),
  ]);
  await db
    .insert(groups)
    .values(groupRows)
    .onConflictDoUpdate({
      target: groups.clas,
      set: { name: sql`excluded.name`, position: sql`excluded.position` },
    });

  const plan = productPlan(options.presentations ?? false);
  // Pictures depend only on (shape, brand colour): render each once, in parallel.
  const imageCache = new Map<string, { data: Buffer; hash: string }>();
  const shapesUsed = [...new Set(plan.map((p) => p.shape))];
  await Promise.all(
    shapesUsed.flatMap((shape) =>
      demoBrands.map(async (b) => {
        const data = await renderProductImage(shape, b.color);
        imageCache.set(`${shape}:${b.color}`, { data, hash: contentHash(data) });
      }),
    ),
  );
  let inserted = 0;
  for (let start = 0; start < total; start += BATCH) {
    const rows: ProductRow[] = [];
    const breaks: { productCode: string; minQuantity: number; priceCents: number }[] = [];
    for (let n = start; n < Math.min(total, start + BATCH); n++) {
      const item = plan[n % plan.length]!;
      const round = Math.floor(n / plan.length);
      const family = options.presentations ? demoFamilies[item.template.name] : undefined;
      // A family's presentations carry its base's brand (the base is the template's first variant, n - index).
      const baseN = family ? n - item.index : n;
      const brandOf = (k: number) => demoBrands[(k * 7 + round) % demoBrands.length]!;
      const brand = brandOf(baseN);
      const suffix = round > 0 ? ` (modelo ${round + 1})` : '';
      const name = family
        ? family.name + suffix
        : item.template.name.replaceAll('{v}', item.variant) + suffix;
      const codeOf = (k: number) => `${brandOf(k).prefix}-${String(10000 + k).padStart(5, '0')}`;
      const code = `${brand.prefix}-${String(10000 + n).padStart(5, '0')}`;
      const stockRoll = rand.next();
      const stock = stockRoll < 0.1 ? 0 : stockRoll < 0.15 ? 1 : rand.int(2, stockRoll < 0.5 ? 25 : 250);
      const [wMin, wMax] = item.template.weight;
      const weightKg = Math.round((wMin + (wMax - wMin) * item.position) * 1000) / 1000;
      const row: ProductRow = {
        code,
        name,
        brand: brand.name,
        groupClas: item.groupClas,
        line: demoLines[(n + round) % demoLines.length]!,
        type: item.template.type,
        priceCents: priceCents(rand, item.template.price, item.position),
        stock,
        weightKg,
        shortDesc: item.template.short,
        longDescHtml: '',
        // Each kind of product under its own SAT class (sat-keys.ts); none = the config fallback.
        satProductKey: demoSatKeys(item.groupClas)?.productKey ?? null,
        satUnitKey: demoSatKeys(item.groupClas)?.unitKey ?? null,
      };
      // Safety data on the family's base, or on a product without presentations (decision 027).
      const facts = allReagentFacts[item.template.name];
      if (facts && (!family || item.index === 0)) {
        row.molarMass = facts.molarMass ?? null;
        row.grade = facts.grade ?? null;
        row.ghsPictograms = facts.pictograms;
        row.signalWord = facts.signal ?? null;
        row.hazardStatements = facts.h;
        row.precautionaryStatements = facts.p;
        row.storageConditions = facts.storage;
      }
      if (family) {
        row.presentationLabel = family.label.replaceAll('{v}', item.variant);
        if (item.index > 0) row.familyCode = codeOf(baseN);
        if (family.reagent) {
          row.casNumber = family.reagent.cas;
          row.formula = family.reagent.formula;
          // Reagents the precursor law lists are controlled (decision 030), the whole family alike.
          row.controlled = listedSubstance(family.reagent.cas) !== undefined;
        }
        // 'Sobre pedido' (decision 029): every third family's largest presentation is ordered from the maker —
        // half of them with nothing in stock, half with a few units — reagents in 10–15 business days, the rest 5–8.
        if (item.index > 0 && item.position === 1 && baseN % 3 === 0) {
          row.backorderable = true;
          row.leadMinDays = family.reagent ? 10 : 5;
          row.leadMaxDays = family.reagent ? 15 : 8;
          row.stock = baseN % 2 === 0 ? 0 : Math.min(stock, 3);
        }
        let last = row.priceCents;
        for (const b of demoBreaks) {
          const cents = Math.round((row.priceCents * b.factor) / 100) * 100;
          if (cents <= 0 || cents >= last) continue;
          breaks.push({ productCode: code, minQuantity: b.minQuantity, priceCents: cents });
          last = cents;
        }
      }
      // A few products without presentations are 'sobre pedido' with nothing in stock (their cards say so).
      if (!family && options.presentations && n % 60 === 7) {
        row.backorderable = true;
        row.leadMinDays = 5;
        row.leadMaxDays = 8;
        row.stock = 0;
      }
      const withMedia = n < mediaLimit;
      if (withMedia && rand.chance(0.88)) {
        const img = imageCache.get(`${item.shape}:${brand.color}`)!;
        row.image = img.data;
        row.imageHash = img.hash;
      }
      if (rand.chance(0.4)) row.longDescHtml = longDescription(item.template, name, brand.name, rand);
      if (withMedia && rand.chance(0.3)) {
        const pdf = await renderDatasheet({
          code,
          name,
          brand: brand.name,
          type: item.template.type,
          shortDesc: item.template.short,
          specs: [
            ['Presentación', item.variant],
            ['Material / grado', item.template.type],
            ['Peso de envío', `${weightKg} kg`],
            ['Garantía', '1 año'],
          ],
        });
        row.datasheet = pdf;
        row.datasheetHash = contentHash(pdf);
      }
      rows.push(row);
    }
    const fresh = await db.transaction(async (tx) => {
      const created = await tx
        .insert(products)
        .values(rows)
        .onConflictDoNothing({ target: products.code })
        .returning({ code: products.code, stock: products.stock });
      const movements = created
        .filter((p) => p.stock > 0)
        .map((p) => ({ productCode: p.code, delta: p.stock, reason: 'seed' }));
      if (movements.length > 0) await tx.insert(stockMovements).values(movements);
      const createdCodes = new Set(created.map((p) => p.code));
      const newBreaks = breaks.filter((b) => createdCodes.has(b.productCode));
      if (newBreaks.length > 0) await tx.insert(priceBreaks).values(newBreaks);
      return created.length;
    });
    inserted += fresh;
    options.onProgress?.(Math.min(total, start + BATCH), total);
  }
  if (options.presentations) await seedSafetyDocuments(db, Math.min(40, mediaLimit));
  return { inserted };
}

/** The demo's documents are dated the day the demo catalogue was drawn up, so their bytes never change. */
const DEMO_DOCS_DATE = new Date('2026-03-02T16:00:00Z');

/**
 * The first `limit` reagent families get an HDS in NOM-018-STPS-2015's 16 sections, and the first eight of
 * them two or three lots with a certificate of analysis (decision 028). Idempotent: stored ones stay.
 */
async function seedSafetyDocuments(db: Db, limit: number) {
  const reagents = await db
    .select({
      code: products.code,
      name: products.name,
      brand: products.brand,
      casNumber: products.casNumber,
      formula: products.formula,
      ...safetyColumns,
    })
    .from(products)
    .where(sql`${products.casNumber} is not null and ${products.familyCode} is null`)
    .orderBy(products.code)
    .limit(limit);
  for (const [i, r] of reagents.entries()) {
    const pdf = Buffer.from(await renderSafetySheetPdf({ ...r, date: DEMO_DOCS_DATE, safety: toSafety(r) }));
    await db
      .insert(productSafetySheets)
      .values({ familyCode: r.code, data: pdf, hash: contentHash(pdf), bytes: pdf.length })
      .onConflictDoNothing();
    if (i >= 8) continue;
    const lots = i % 2 === 0 ? 3 : 2;
    for (let k = 0; k < lots; k++) {
      const month = String(10 - k * 3).padStart(2, '0');
      const lot = `${r.code.slice(0, 2)}25${month}${String(101 + i * 7 + k).padStart(3, '0')}`;
      const analysisDate = `2025-${month}-1${k}`;
      const expiryDate = `2028-${month}-1${k}`;
      const coa = Buffer.from(
        await renderCertificatePdf({
          ...r,
          date: DEMO_DOCS_DATE,
          lot,
          analysisDate,
          expiryDate,
          assay: 99.2 + ((i + k) % 7) / 10,
        }),
      );
      await db
        .insert(lotCertificates)
        .values({
          familyCode: r.code,
          lot,
          data: coa,
          hash: contentHash(coa),
          bytes: coa.length,
          analysisDate,
          expiryDate,
          uploadedAt: new Date(DEMO_DOCS_DATE.getTime() - k * 86_400_000),
        })
        .onConflictDoNothing();
    }
  }
}
