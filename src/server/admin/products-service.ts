import { createHash } from 'node:crypto';
import { and, asc, count, desc, eq, gte, ilike, or, sql } from 'drizzle-orm';
import { leadTimeFieldsProblem } from '../../shared/backorder.ts';
import {
  type AdminProduct,
  type AdminProductList,
  type CatalogOptions,
  type ProductFields,
  STOCK_REASON_LABELS,
  type StockMovement,
} from '../../shared/schemas/admin.ts';
import {
  formatPriceBreaks,
  type PriceBreak,
  parsePriceBreaks,
  priceBreaksProblem,
} from '../../shared/volume-prices.ts';
import { type Actor, writeAudit } from '../audit/log.ts';
import { hasSafetyData } from '../catalog/safety.ts';
import { sanitizeLongDescription } from '../catalog/sanitize.ts';
import { datasheetUrl, productImageUrl } from '../catalog/service.ts';
import { syncFamilyControlled } from '../controlled/rules.ts';
import type { Db, Tx } from '../db/client.ts';
import { brands, groups, priceBreaks, products, stockMovements, users } from '../db/schema.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { datasheetProblem, imageProblem } from './media-checks.ts';
import { PAGE_SIZE, pagesOf } from './paging.ts';

const PRODUCT_NOT_FOUND = 'Producto no encontrado';
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
/** The same short content hash the catalogue uses in image and datasheet URLs. */
export const contentHash = (data: Buffer) => createHash('sha256').update(data).digest('hex').slice(0, 16);

/** The product as staff see it (never the image or datasheet bytes). */
const productFields = {
  code: products.code,
  name: products.name,
  brand: products.brand,
  groupClas: products.groupClas,
  groupName: groups.name,
  line: products.line,
  type: products.type,
  priceCents: products.priceCents,
  stock: products.stock,
  weightKg: products.weightKg,
  shortDesc: products.shortDesc,
  longDescHtml: products.longDescHtml,
  satProductKey: products.satProductKey,
  satUnitKey: products.satUnitKey,
  active: products.active,
  imageHash: products.imageHash,
  datasheetHash: products.datasheetHash,
  updatedAt: products.updatedAt,
  familyCode: products.familyCode,
  presentationLabel: products.presentationLabel,
  casNumber: products.casNumber,
  formula: products.formula,
  molarMass: products.molarMass,
  grade: products.grade,
  ghsPictograms: products.ghsPictograms,
  signalWord: products.signalWord,
  hazardStatements: products.hazardStatements,
  precautionaryStatements: products.precautionaryStatements,
  storageConditions: products.storageConditions,
  backorderable: products.backorderable,
  leadMinDays: products.leadMinDays,
  leadMaxDays: products.leadMaxDays,
  controlled: products.controlled,
};

const selectProducts = (db: Db) =>
  db.select(productFields).from(products).leftJoin(groups, eq(groups.clas, products.groupClas));

type ProductRow = Awaited<ReturnType<ReturnType<typeof selectProducts>['execute']>>[number];

const toProduct = (
  { imageHash, datasheetHash, updatedAt, ...r }: ProductRow,
  breaks: readonly PriceBreak[] = [],
): AdminProduct => ({
  ...r,
  priceBreaks: formatPriceBreaks(breaks),
  imageUrl: productImageUrl(r.code, imageHash),
  datasheetUrl: datasheetUrl(r.code, datasheetHash),
  updatedAt: updatedAt.toISOString(),
  usesSatFallback: !r.satProductKey?.trim() || !r.satUnitKey?.trim(),
});

/** Products whose invoices use config/shop.json's catch-all SAT keys (the same rule as invoices/issue.ts). */
const usesSatFallback = sql`(coalesce(trim(${products.satProductKey}), '') = '' or coalesce(trim(${products.satUnitKey}), '') = '')`;

/** GET /api/admin/products: by code, name or brand; inactive ones too; optionally only those on the SAT fallback. */
export async function listAdminProducts(
  db: Db,
  query: {
    q?: string | undefined;
    status: 'all' | 'active' | 'inactive';
    satKeys?: 'all' | 'fallback' | undefined;
    page: number;
  },
): Promise<AdminProductList> {
  const q = query.q?.trim();
  const esc = q ? likeEscape(q) : '';
  const where = and(
    query.status === 'all' ? undefined : eq(products.active, query.status === 'active'),
    query.satKeys === 'fallback' ? usesSatFallback : undefined,
    q
      ? or(
          ilike(products.code, `${esc}%`),
          ilike(products.name, `%${esc}%`),
          ilike(products.brand, `%${esc}%`),
        )
      : undefined,
  );
  const [total] = await db.select({ n: count() }).from(products).where(where);
  const list = await selectProducts(db)
    .where(where)
    .orderBy(asc(products.code))
    .limit(PAGE_SIZE)
    .offset((query.page - 1) * PAGE_SIZE);
  const n = total?.n ?? 0;
  return {
    items: list.map((r) => {
      const p = toProduct(r);
      return {
        code: p.code,
        name: p.name,
        brand: p.brand,
        groupClas: p.groupClas,
        groupName: p.groupName,
        priceCents: p.priceCents,
        stock: p.stock,
        active: p.active,
        imageUrl: p.imageUrl,
        usesSatFallback: p.usesSatFallback,
      };
    }),
    total: n,
    page: query.page,
    pages: pagesOf(n),
  };
}

async function findProduct(db: Db, code: string): Promise<ProductRow | undefined> {
  const [row] = await selectProducts(db).where(eq(products.code, code));
  return row;
}

async function breaksOf(db: Db, code: string): Promise<PriceBreak[]> {
  return db
    .select({ minQuantity: priceBreaks.minQuantity, priceCents: priceBreaks.priceCents })
    .from(priceBreaks)
    .where(eq(priceBreaks.productCode, code))
    .orderBy(asc(priceBreaks.minQuantity));
}

/** The product with its volume prices, as the form shows it. */
async function readProduct(db: Db, code: string): Promise<AdminProduct | null> {
  const row = await findProduct(db, code);
  return row ? toProduct(row, await breaksOf(db, code)) : null;
}

/**
 * A product's family and volume prices (decision 021), checked before writing: the family is another, existing
 * product that is no presentation itself, and this product has no presentations of its own; the breaks parse and
 * hold against the price. Refused with the field named (400).
 */
async function checkPresentation(tx: Db, code: string, fields: ProductFields): Promise<PriceBreak[]> {
  // 'Sobre pedido' (decision 029): the flag and its lead time go together.
  const lead = leadTimeFieldsProblem(fields);
  if (lead) throw badRequest(lead.message, { [lead.field]: lead.message });
  const family = fields.familyCode;
  if (family !== null) {
    const refuse = (message: string) => badRequest(message, { familyCode: message });
    if (family === code)
      throw refuse('Un producto no puede ser presentación de sí mismo; deje la familia vacía');
    const [base] = await tx
      .select({ familyCode: products.familyCode })
      .from(products)
      .where(eq(products.code, family));
    if (!base) throw refuse(`El producto ${family} no existe`);
    if (base.familyCode !== null)
      throw refuse(
        `${family} es una presentación de ${base.familyCode}; indique la familia ${base.familyCode}`,
      );
    const [member] = await tx
      .select({ code: products.code })
      .from(products)
      .where(eq(products.familyCode, code))
      .limit(1);
    if (member)
      throw refuse(`${code} tiene presentaciones propias (${member.code}) y no puede pasar a otra familia`);
  }
  if (family !== null) {
    // Safety data lives on the family's base (decision 027).
    const given = (
      [
        ['molarMass', fields.molarMass != null],
        ['grade', fields.grade != null],
        ['ghsPictograms', (fields.ghsPictograms?.length ?? 0) > 0],
        ['signalWord', fields.signalWord != null],
        ['hazardStatements', (fields.hazardStatements?.length ?? 0) > 0],
        ['precautionaryStatements', (fields.precautionaryStatements?.length ?? 0) > 0],
        ['storageConditions', fields.storageConditions != null],
      ] as const
    ).filter(([, set]) => set);
    const [stored] = given.length
      ? []
      : await tx
          .select({ has: hasSafetyData })
          .from(products)
          .where(and(eq(products.code, code), sql`${products.familyCode} is null`));
    const keepsStored =
      stored?.has &&
      (fields.molarMass === undefined ||
        fields.grade === undefined ||
        fields.ghsPictograms === undefined ||
        fields.signalWord === undefined ||
        fields.hazardStatements === undefined ||
        fields.precautionaryStatements === undefined ||
        fields.storageConditions === undefined);
    if (given.length > 0 || keepsStored) {
      const message = `Los datos de seguridad se capturan en el producto base ${family}; deje vacíos estos campos en una presentación`;
      const first = given[0]?.[0] ?? 'ghsPictograms';
      throw badRequest(message, { [first]: message });
    }
  }
  const breaks = fields.priceBreaks === '' ? [] : parsePriceBreaks(fields.priceBreaks);
  const problem =
    breaks === null
      ? 'Escriba cantidad:precio separados por ; (p. ej. 10:145.00;50:130.00)'
      : priceBreaksProblem(fields.price, breaks);
  if (problem) throw badRequest(`Precios por volumen: ${problem}`, { priceBreaks: problem });
  return breaks ?? [];
}

/**
 * The controlled flag to write (decision 030): a base's own (left out: the stored one, or no); a presentation's
 * is its base's, and saying otherwise is refused naming the field.
 */
async function controlledFor(tx: Db, code: string, fields: ProductFields): Promise<boolean> {
  if (fields.familyCode === null) {
    if (fields.controlled !== undefined) return fields.controlled;
    const [row] = await tx
      .select({ controlled: products.controlled })
      .from(products)
      .where(eq(products.code, code));
    return row?.controlled ?? false;
  }
  const [base] = await tx
    .select({ controlled: products.controlled })
    .from(products)
    .where(eq(products.code, fields.familyCode));
  const inherited = base?.controlled ?? false;
  if (fields.controlled !== undefined && fields.controlled !== inherited) {
    const message = `Se define en el producto base ${fields.familyCode}, que ${inherited ? 'es' : 'no es'} controlado; cámbielo allí`;
    throw badRequest(`Producto controlado: ${message}`, { controlled: message });
  }
  return inherited;
}

async function writeBreaks(tx: Db, code: string, breaks: readonly PriceBreak[]) {
  await tx.delete(priceBreaks).where(eq(priceBreaks.productCode, code));
  if (breaks.length > 0)
    await tx.insert(priceBreaks).values(breaks.map((b) => ({ productCode: code, ...b })));
}

/** Locks the product's row for the rest of the transaction; false when it does not exist. */
async function lockProduct(tx: Tx, code: string) {
  const [row] = await tx
    .select({ active: products.active, imageHash: products.imageHash, datasheetHash: products.datasheetHash })
    .from(products)
    .where(eq(products.code, code))
    .for('update');
  return row;
}

export async function getAdminProduct(db: Db, code: string): Promise<AdminProduct> {
  const product = await readProduct(db, code);
  if (!product) throw notFound(PRODUCT_NOT_FOUND);
  return product;
}

/** The columns a product form sets (stock changes only through adjustments and orders). */
const columnsOf = (f: ProductFields) => ({
  name: f.name,
  brand: f.brand,
  groupClas: f.groupClas,
  line: f.line,
  type: f.type,
  priceCents: f.price,
  weightKg: f.weightKg,
  shortDesc: f.shortDesc,
  longDescHtml: sanitizeLongDescription(f.longDescHtml),
  satProductKey: f.satProductKey,
  satUnitKey: f.satUnitKey,
  active: f.active,
  familyCode: f.familyCode,
  presentationLabel: f.presentationLabel,
  // Reagent fields a request leaves out keep their stored value (undefined is not written).
  casNumber: f.casNumber,
  formula: f.formula,
  molarMass: f.molarMass,
  grade: f.grade,
  ghsPictograms: f.ghsPictograms,
  signalWord: f.signalWord,
  hazardStatements: f.hazardStatements,
  precautionaryStatements: f.precautionaryStatements,
  storageConditions: f.storageConditions,
  backorderable: f.backorderable,
  leadMinDays: f.backorderable ? f.leadMinDays : null,
  leadMaxDays: f.backorderable ? f.leadMaxDays : null,
});

/** What the audit keeps of a product (no bytes; the long description by length and hash). */
const auditView = (p: AdminProduct) => ({
  name: p.name,
  brand: p.brand,
  groupClas: p.groupClas,
  line: p.line,
  type: p.type,
  priceCents: p.priceCents,
  stock: p.stock,
  weightKg: p.weightKg,
  shortDesc: p.shortDesc,
  longDescHtml: p.longDescHtml,
  satProductKey: p.satProductKey,
  satUnitKey: p.satUnitKey,
  active: p.active,
  familyCode: p.familyCode,
  presentationLabel: p.presentationLabel,
  priceBreaks: p.priceBreaks,
  casNumber: p.casNumber,
  formula: p.formula,
  molarMass: p.molarMass,
  grade: p.grade,
  ghsPictograms: p.ghsPictograms,
  signalWord: p.signalWord,
  hazardStatements: p.hazardStatements,
  precautionaryStatements: p.precautionaryStatements,
  storageConditions: p.storageConditions,
  backorderable: p.backorderable,
  leadMinDays: p.leadMinDays,
  leadMaxDays: p.leadMaxDays,
  controlled: p.controlled,
});

async function checkGroupAndBrand(tx: Db, fields: ProductFields) {
  const [group] = await tx
    .select({ clas: groups.clas })
    .from(groups)
    .where(eq(groups.clas, fields.groupClas));
  if (!group) {
    const message = `El grupo ${fields.groupClas} no existe`;
    throw badRequest(message, { groupClas: message });
  }
  // A brand typed for the first time is created, as the import does.
  if (fields.brand) await tx.insert(brands).values({ name: fields.brand }).onConflictDoNothing();
}

/** POST /api/admin/products */
export async function createProduct(
  db: Db,
  actor: Actor,
  input: ProductFields & { code: string; stock: number },
): Promise<AdminProduct> {
  await db.transaction(async (tx) => {
    await checkGroupAndBrand(tx, input);
    const breaks = await checkPresentation(tx, input.code, input);
    const controlled = await controlledFor(tx, input.code, input);
    const inserted = await tx
      .insert(products)
      .values({ code: input.code, stock: input.stock, ...columnsOf(input), controlled })
      .onConflictDoNothing({ target: products.code })
      .returning({ code: products.code });
    if (inserted.length === 0) {
      const message = `Ya existe un producto con el código ${input.code}`;
      throw conflict(message, 'duplicate_code');
    }
    if (input.stock > 0) {
      await tx.insert(stockMovements).values({
        productCode: input.code,
        delta: input.stock,
        reason: 'adjustment',
        note: 'Existencia inicial',
        actorUserId: actor.userId,
      });
    }
    await writeBreaks(tx, input.code, breaks);
    const created = await readProduct(tx, input.code);
    await writeAudit(tx, actor, {
      action: 'product.create',
      entityType: 'product',
      entityId: input.code,
      after: auditView(created!),
    });
  });
  return getAdminProduct(db, input.code);
}

/** PUT /api/admin/products/:code (stock changes only through adjustments). */
export async function updateProduct(
  db: Db,
  actor: Actor,
  code: string,
  fields: ProductFields,
): Promise<AdminProduct> {
  await db.transaction(async (tx) => {
    if (!(await lockProduct(tx, code))) throw notFound(PRODUCT_NOT_FOUND);
    const before = (await readProduct(tx, code))!;
    await checkGroupAndBrand(tx, fields);
    const breaks = await checkPresentation(tx, code, fields);
    const controlled = await controlledFor(tx, code, fields);
    await tx
      .update(products)
      .set({ ...columnsOf(fields), controlled, updatedAt: sql`now()` })
      .where(eq(products.code, code));
    if (fields.familyCode === null) await syncFamilyControlled(tx, [code]);
    await writeBreaks(tx, code, breaks);
    const after = (await readProduct(tx, code))!;
    await writeAudit(tx, actor, {
      action: 'product.update',
      entityType: 'product',
      entityId: code,
      ...changedOnly(auditView(before), auditView(after)),
    });
  });
  return getAdminProduct(db, code);
}

function changedOnly<T extends Record<string, unknown>>(before: T, after: T) {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const key of Object.keys(after)) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      b[key] = before[key];
      a[key] = after[key];
    }
  }
  return { before: b, after: a };
}

/** POST /api/admin/products/:code/active */
export async function setProductActive(
  db: Db,
  actor: Actor,
  code: string,
  active: boolean,
): Promise<AdminProduct> {
  await db.transaction(async (tx) => {
    const before = await lockProduct(tx, code);
    if (!before) throw notFound(PRODUCT_NOT_FOUND);
    await tx.update(products).set({ active, updatedAt: sql`now()` }).where(eq(products.code, code));
    await writeAudit(tx, actor, {
      action: active ? 'product.activate' : 'product.deactivate',
      entityType: 'product',
      entityId: code,
      before: { active: before.active },
      after: { active },
    });
  });
  return getAdminProduct(db, code);
}

/** PUT /api/admin/products/:code/image and …/datasheet: bytes judged by content, never by name. */
export async function setProductMedia(
  db: Db,
  actor: Actor,
  code: string,
  kind: 'image' | 'datasheet',
  data: Buffer,
): Promise<AdminProduct> {
  const problem = kind === 'image' ? await imageProblem(data) : await datasheetProblem(data);
  if (problem) throw badRequest(problem, { contentBase64: problem });
  const hash = contentHash(data);
  await db.transaction(async (tx) => {
    const locked = await lockProduct(tx, code);
    if (!locked) throw notFound(PRODUCT_NOT_FOUND);
    const before = { hash: kind === 'image' ? locked.imageHash : locked.datasheetHash };
    await tx
      .update(products)
      .set(
        kind === 'image'
          ? { image: data, imageHash: hash, updatedAt: new Date() }
          : { datasheet: data, datasheetHash: hash, updatedAt: new Date() },
      )
      .where(eq(products.code, code));
    await writeAudit(tx, actor, {
      action: kind === 'image' ? 'product.image' : 'product.datasheet',
      entityType: 'product',
      entityId: code,
      before: { hash: before.hash },
      after: { hash, bytes: data.length },
    });
  });
  return getAdminProduct(db, code);
}

/**
 * POST /api/admin/products/:code/stock: adds or removes units with a reason; a ledger row
 * ('adjustment', the staff member, the reason). The guard in the UPDATE keeps stock from going negative
 * even when an order takes units at the same moment.
 */
export async function adjustStock(
  db: Db,
  actor: Actor,
  code: string,
  input: { delta: number; reason: string },
): Promise<{ message: string; product: AdminProduct }> {
  const stock = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(products)
      .set({ stock: sql`${products.stock} + ${input.delta}`, updatedAt: sql`now()` })
      .where(and(eq(products.code, code), gte(sql`${products.stock} + ${input.delta}`, 0)))
      .returning({ stock: products.stock });
    if (!updated) {
      const [row] = await tx.select({ stock: products.stock }).from(products).where(eq(products.code, code));
      if (!row) throw notFound(PRODUCT_NOT_FOUND);
      const message = `La existencia no puede quedar negativa: hay ${row.stock} y se intentó restar ${-input.delta}`;
      throw conflict(message, 'negative_stock');
    }
    await tx.insert(stockMovements).values({
      productCode: code,
      delta: input.delta,
      reason: 'adjustment',
      note: input.reason,
      actorUserId: actor.userId,
    });
    const after = updated.stock;
    await writeAudit(tx, actor, {
      action: 'stock.adjust',
      entityType: 'product',
      entityId: code,
      before: { stock: after - input.delta },
      after: { stock: after, delta: input.delta, reason: input.reason },
    });
    return after;
  });
  return {
    message: `Existencia actualizada: ${stock} ${stock === 1 ? 'unidad' : 'unidades'}`,
    product: await getAdminProduct(db, code),
  };
}

/** GET /api/admin/products/:code/movements: the product's ledger, newest first. */
export async function stockMovementsOf(
  db: Db,
  code: string,
): Promise<{ stock: number; movements: StockMovement[] }> {
  const [product] = await db.select({ stock: products.stock }).from(products).where(eq(products.code, code));
  if (!product) throw notFound(PRODUCT_NOT_FOUND);
  const list = await db
    .select({
      id: stockMovements.id,
      delta: stockMovements.delta,
      reason: stockMovements.reason,
      orderNumber: stockMovements.orderNumber,
      note: stockMovements.note,
      actor: users.email,
      createdAt: stockMovements.createdAt,
    })
    .from(stockMovements)
    .leftJoin(users, eq(users.id, stockMovements.actorUserId))
    .where(eq(stockMovements.productCode, code))
    .orderBy(desc(stockMovements.id))
    .limit(300);
  return {
    stock: product.stock,
    movements: list.map((m) => ({
      ...m,
      reasonLabel: STOCK_REASON_LABELS[m.reason] ?? m.reason,
      createdAt: m.createdAt.toISOString(),
    })),
  };
}

/** The brand and group choices of the product form. */
export async function catalogOptions(db: Db): Promise<CatalogOptions> {
  const brandRows = await db.select({ name: brands.name }).from(brands).orderBy(asc(brands.name));
  const groupRows = await db
    .select({ clas: groups.clas, name: groups.name, parentClas: groups.parentClas })
    .from(groups)
    .orderBy(
      sql`coalesce(${groups.parentClas}, ${groups.clas})`,
      sql`${groups.parentClas} nulls first`,
      asc(groups.position),
      asc(groups.name),
    );
  return { brands: brandRows.map((b) => b.name), groups: groupRows };
}
