import { asc, getTableColumns, inArray } from 'drizzle-orm';
import { hasSafetyData } from '../../catalog/safety.ts';
import type { Db } from '../../db/client.ts';
import { products } from '../../db/schema.ts';
import type { RowValues } from './columns.ts';

// What an import reads of the stored products: the columns it merges and the facts its row checks need.

export type Accepted = {
  line: number;
  values: RowValues;
  image?: { path: string; hash: string };
  datasheet?: { path: string; hash: string };
  /** The family's HDS (the row is a family's base or a product without presentations). */
  hds?: { path: string; hash: string };
};

/**
 * The product's columns an import reads, compares and writes: all but the file bytes, the timestamps and the reorder
 * point (set by the almacén on 'Por agotarse', decision 066; a catalogue file does not carry it).
 */
export const {
  image: _image,
  reorderPoint: _reorderPoint,
  datasheet: _datasheet,
  createdAt: _created,
  updatedAt: _updated,
  ...importedColumns
} = getTableColumns(products);
export type Merged = { [K in keyof typeof importedColumns]: (typeof products.$inferSelect)[K] };
export type Existing = Merged;

export const keep = <T>(value: T | undefined, stored: T): T => (value === undefined ? stored : value);

export async function existingRows(db: Db, codes: string[], lock: boolean): Promise<Map<string, Existing>> {
  if (codes.length === 0) return new Map();
  const query = db
    .select(importedColumns)
    .from(products)
    .where(inArray(products.code, codes))
    .orderBy(asc(products.code));
  const list = lock ? await query.for('update') : await query;
  return new Map(list.map((r) => [r.code, r]));
}

/** What the checks of a row need to know of the stored product: price, family, safety data, lead time, control. */
export type StoredFacts = {
  priceCents: number;
  familyCode: string | null;
  hasSafety: boolean;
  backorderable: boolean;
  hasLeadTime: boolean;
  controlled: boolean;
};

export async function storedFacts(db: Db, codes: string[]): Promise<Map<string, StoredFacts>> {
  const found = new Map<string, StoredFacts>();
  for (let i = 0; i < codes.length; i += 1000) {
    const chunk = codes.slice(i, i + 1000);
    const list = await db
      .select({
        code: products.code,
        priceCents: products.priceCents,
        familyCode: products.familyCode,
        hasSafety: hasSafetyData,
        backorderable: products.backorderable,
        leadMinDays: products.leadMinDays,
        controlled: products.controlled,
      })
      .from(products)
      .where(inArray(products.code, chunk));
    for (const r of list)
      found.set(r.code, {
        priceCents: r.priceCents,
        familyCode: r.familyCode,
        hasSafety: r.hasSafety,
        backorderable: r.backorderable,
        hasLeadTime: r.leadMinDays !== null,
        controlled: r.controlled,
      });
  }
  return found;
}
