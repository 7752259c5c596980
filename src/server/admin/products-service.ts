import { createHash } from 'node:crypto';
import { eq, type SQL, sql } from 'drizzle-orm';
import {
  type AdminProduct,
  type AdminProductList,
  type CatalogOptions,
  type ProductFields,
  STOCK_REASON_LABELS,
  type StockMovement,
} from '../../shared/schemas/admin.ts';
import { type Actor, writeAudit } from '../audit/log.ts';
import { sanitizeLongDescription } from '../catalog/sanitize.ts';
import { datasheetUrl, productImageUrl } from '../catalog/service.ts';
import type { Db } from '../db/client.ts';
import { products } from '../db/schema.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { datasheetProblem, imageProblem } from './media-checks.ts';
import { PAGE_SIZE, pagesOf } from './paging.ts';
import { iso, rows } from './sql.ts';

const PRODUCT_NOT_FOUND = 'Producto no encontrado';
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
/** The same short content hash the catalogue uses in image and datasheet URLs. */
export const contentHash = (data: Buffer) => createHash('sha256').update(data).digest('hex').slice(0, 16);

type ProductRow = {
  code: string;
  name: string;
  brand: string | null;
  group_clas: string | null;
  group_name: string | null;
  line: string | null;
  type: string | null;
  price_cents: number;
  stock: number;
  weight_kg: string | number;
  short_desc: string;
  long_desc_html: string;
  sat_product_key: string | null;
  sat_unit_key: string | null;
  active: boolean;
  image_hash: string | null;
  datasheet_hash: string | null;
  updated_at: string | Date;
};

const PRODUCT_SELECT = sql`select p.code, p.name, p.brand, p.group_clas, g.name as group_name, p.line, p.type,
    p.price_cents, p.stock, p.weight_kg, p.short_desc, p.long_desc_html, p.sat_product_key, p.sat_unit_key,
    p.active, p.image_hash, p.datasheet_hash, p.updated_at
  from products p left join groups g on g.clas = p.group_clas`;

const toProduct = (r: ProductRow): AdminProduct => ({
  code: r.code,
  name: r.name,
  brand: r.brand,
  groupClas: r.group_clas,
  groupName: r.group_name,
  line: r.line,
  type: r.type,
  priceCents: Number(r.price_cents),
  stock: Number(r.stock),
  weightKg: Number(r.weight_kg),
  shortDesc: r.short_desc,
  longDescHtml: r.long_desc_html,
  satProductKey: r.sat_product_key,
  satUnitKey: r.sat_unit_key,
  active: r.active,
  imageUrl: productImageUrl(r.code, r.image_hash),
  datasheetUrl: datasheetUrl(r.code, r.datasheet_hash),
  updatedAt: iso(r.updated_at),
});

/** GET /api/admin/products: by code, name or brand; inactive ones too. */
export async function listAdminProducts(
  db: Db,
  query: { q?: string | undefined; status: 'all' | 'active' | 'inactive'; page: number },
): Promise<AdminProductList> {
  const conditions: SQL[] = [];
  if (query.status !== 'all') conditions.push(sql`p.active = ${query.status === 'active'}`);
  const q = query.q?.trim();
  if (q) {
    const esc = likeEscape(q);
    conditions.push(
      sql`(p.code ilike ${`${esc}%`} or p.name ilike ${`%${esc}%`} or p.brand ilike ${`%${esc}%`})`,
    );
  }
  const where = conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
  const [count] = await rows<{ n: number }>(db, sql`select count(*)::int as n from products p ${where}`);
  const list = await rows<ProductRow>(
    db,
    sql`${PRODUCT_SELECT} ${where} order by p.code limit ${PAGE_SIZE} offset ${(query.page - 1) * PAGE_SIZE}`,
  );
  const total = Number(count?.n ?? 0);
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
      };
    }),
    total,
    page: query.page,
    pages: pagesOf(total),
  };
}

async function findProduct(db: Db, code: string): Promise<ProductRow | undefined> {
  const [row] = await rows<ProductRow>(db, sql`${PRODUCT_SELECT} where p.code = ${code}`);
  return row;
}

export async function getAdminProduct(db: Db, code: string): Promise<AdminProduct> {
  const row = await findProduct(db, code);
  if (!row) throw notFound(PRODUCT_NOT_FOUND);
  return toProduct(row);
}

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
});

async function checkGroupAndBrand(tx: Db, fields: ProductFields) {
  const [group] = await rows<{ clas: string }>(
    tx,
    sql`select clas from groups where clas = ${fields.groupClas}`,
  );
  if (!group) {
    const message = `El grupo ${fields.groupClas} no existe`;
    throw badRequest(message, { groupClas: message });
  }
  // A brand typed for the first time is created, as the import does.
  if (fields.brand)
    await tx.execute(sql`insert into brands (name) values (${fields.brand}) on conflict do nothing`);
}

/** POST /api/admin/products */
export async function createProduct(
  db: Db,
  actor: Actor,
  input: ProductFields & { code: string; stock: number },
): Promise<AdminProduct> {
  await db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    await checkGroupAndBrand(tx, input);
    const inserted = await rows<{ code: string }>(
      tx,
      sql`insert into products (code, name, brand, group_clas, line, type, price_cents, stock, weight_kg, short_desc,
          long_desc_html, sat_product_key, sat_unit_key, active)
        values (${input.code}, ${input.name}, ${input.brand}, ${input.groupClas}, ${input.line}, ${input.type},
          ${input.price}, ${input.stock}, ${input.weightKg}, ${input.shortDesc},
          ${sanitizeLongDescription(input.longDescHtml)}, ${input.satProductKey}, ${input.satUnitKey}, ${input.active})
        on conflict (code) do nothing returning code`,
    );
    if (inserted.length === 0) {
      const message = `Ya existe un producto con el código ${input.code}`;
      throw conflict(message, 'duplicate_code');
    }
    if (input.stock > 0) {
      await tx.execute(sql`insert into stock_movements (product_code, delta, reason, note, actor_user_id)
        values (${input.code}, ${input.stock}, 'adjustment', 'Existencia inicial', ${actor.userId})`);
    }
    const created = await findProduct(tx, input.code);
    await writeAudit(tx, actor, {
      action: 'product.create',
      entityType: 'product',
      entityId: input.code,
      after: auditView(toProduct(created!)),
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
  await db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const [locked] = await rows<{ code: string }>(
      tx,
      sql`select code from products where code = ${code} for update`,
    );
    if (!locked) throw notFound(PRODUCT_NOT_FOUND);
    const before = toProduct((await findProduct(tx, code))!);
    await checkGroupAndBrand(tx, fields);
    await tx.execute(sql`update products set name = ${fields.name}, brand = ${fields.brand},
        group_clas = ${fields.groupClas}, line = ${fields.line}, type = ${fields.type}, price_cents = ${fields.price},
        weight_kg = ${fields.weightKg}, short_desc = ${fields.shortDesc},
        long_desc_html = ${sanitizeLongDescription(fields.longDescHtml)}, sat_product_key = ${fields.satProductKey},
        sat_unit_key = ${fields.satUnitKey}, active = ${fields.active}, updated_at = now()
      where code = ${code}`);
    const after = toProduct((await findProduct(tx, code))!);
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
  await db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const [before] = await rows<{ active: boolean }>(
      tx,
      sql`select active from products where code = ${code} for update`,
    );
    if (!before) throw notFound(PRODUCT_NOT_FOUND);
    await tx.execute(sql`update products set active = ${active}, updated_at = now() where code = ${code}`);
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
  const problem = kind === 'image' ? await imageProblem(data) : datasheetProblem(data);
  if (problem) throw badRequest(problem, { contentBase64: problem });
  const hash = contentHash(data);
  await db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const [before] = await rows<{ hash: string | null }>(
      tx,
      kind === 'image'
        ? sql`select image_hash as hash from products where code = ${code} for update`
        : sql`select datasheet_hash as hash from products where code = ${code} for update`,
    );
    if (!before) throw notFound(PRODUCT_NOT_FOUND);
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
  const stock = await db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const [updated] = await rows<{ stock: number }>(
      tx,
      sql`update products set stock = stock + ${input.delta}, updated_at = now()
        where code = ${code} and stock + ${input.delta} >= 0 returning stock`,
    );
    if (!updated) {
      const [row] = await rows<{ stock: number }>(tx, sql`select stock from products where code = ${code}`);
      if (!row) throw notFound(PRODUCT_NOT_FOUND);
      const message = `La existencia no puede quedar negativa: hay ${row.stock} y se intentó restar ${-input.delta}`;
      throw conflict(message, 'negative_stock');
    }
    await tx.execute(sql`insert into stock_movements (product_code, delta, reason, note, actor_user_id)
      values (${code}, ${input.delta}, 'adjustment', ${input.reason}, ${actor.userId})`);
    const after = Number(updated.stock);
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
  const [product] = await rows<{ stock: number }>(db, sql`select stock from products where code = ${code}`);
  if (!product) throw notFound(PRODUCT_NOT_FOUND);
  const list = await rows<{
    id: number;
    delta: number;
    reason: string;
    order_number: number | null;
    note: string | null;
    email: string | null;
    created_at: string | Date;
  }>(
    db,
    sql`select m.id, m.delta, m.reason, m.order_number, m.note, u.email, m.created_at
      from stock_movements m left join users u on u.id = m.actor_user_id
      where m.product_code = ${code} order by m.id desc limit 300`,
  );
  return {
    stock: Number(product.stock),
    movements: list.map((m) => ({
      id: Number(m.id),
      delta: Number(m.delta),
      reason: m.reason,
      reasonLabel: STOCK_REASON_LABELS[m.reason] ?? m.reason,
      orderNumber: m.order_number === null ? null : Number(m.order_number),
      note: m.note,
      actor: m.email,
      createdAt: iso(m.created_at),
    })),
  };
}

/** The brand and group choices of the product form. */
export async function catalogOptions(db: Db): Promise<CatalogOptions> {
  const brandRows = await rows<{ name: string }>(db, sql`select name from brands order by name`);
  const groupRows = await rows<{ clas: string; name: string; parent_clas: string | null }>(
    db,
    sql`select clas, name, parent_clas from groups order by coalesce(parent_clas, clas), parent_clas nulls first, position, name`,
  );
  return {
    brands: brandRows.map((b) => b.name),
    groups: groupRows.map((g) => ({ clas: g.clas, name: g.name, parentClas: g.parent_clas })),
  };
}
