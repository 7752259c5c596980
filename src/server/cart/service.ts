import { and, eq, inArray, sql } from 'drizzle-orm';
import { leadTimeOf } from '../../shared/backorder.ts';
import type { CartLineInput, SavedCartItem } from '../../shared/schemas/cart.ts';
import type { Db } from '../db/client.ts';
import { carts, orderLines, products } from '../db/schema.ts';
import { productImageUrl } from './quote.ts';

type Line = { code: string; quantity: number };

/** The current data of the active products among `codes`. */
async function activeProducts(db: Db, codes: string[]) {
  if (codes.length === 0) return new Map<string, SavedCartItem & { stock: number }>();
  const rows = await db
    .select({
      code: products.code,
      name: products.name,
      priceCents: products.priceCents,
      stock: products.stock,
      imageHash: products.imageHash,
      backorderable: products.backorderable,
      leadMinDays: products.leadMinDays,
      leadMaxDays: products.leadMaxDays,
    })
    .from(products)
    .where(and(inArray(products.code, codes), eq(products.active, true)));
  return new Map(
    rows.map((r) => [
      r.code,
      {
        code: r.code,
        name: r.name,
        priceCents: r.priceCents,
        stock: r.stock,
        quantity: 0,
        imageUrl: productImageUrl(r.code, r.imageHash),
        leadTime: leadTimeOf(r),
      },
    ]),
  );
}

/** Saved lines joined with today's product data; lines whose product is gone or inactive are left out. */
async function withProductData(db: Db, lines: readonly Line[]): Promise<SavedCartItem[]> {
  const known = await activeProducts(
    db,
    lines.map((l) => l.code),
  );
  return lines.flatMap((l) => {
    const p = known.get(l.code);
    return p ? [{ ...p, quantity: l.quantity }] : [];
  });
}

async function savedLines(db: Db, userId: number): Promise<Line[]> {
  const [row] = await db.select({ items: carts.items }).from(carts).where(eq(carts.userId, userId));
  return row?.items ?? [];
}

async function save(db: Db, userId: number, items: Line[]): Promise<void> {
  await db
    .insert(carts)
    .values({ userId, items, updatedAt: new Date() })
    .onConflictDoUpdate({ target: carts.userId, set: { items, updatedAt: new Date() } });
}

/** The signed-in shopper's saved cart (SPEC-NOTES 12). */
export async function getSavedCart(db: Db, userId: number): Promise<SavedCartItem[]> {
  return withProductData(db, await savedLines(db, userId));
}

/**
 * Replaces the saved cart with the browser's lines (kept on every change of the local cart). Unknown and inactive
 * products are dropped; quantities are kept as the shopper chose them (the quote and checkout check stock).
 */
export async function replaceSavedCart(db: Db, userId: number, items: readonly CartLineInput[]) {
  const described = await withProductData(db, items);
  await save(
    db,
    userId,
    described.map((i) => ({ code: i.code, quantity: i.quantity })),
  );
  return described;
}

/**
 * Sign-in: the browser's local lines are merged into the saved cart. Saved lines keep their order and local-only
 * lines are appended. For a code in both, the larger quantity wins rather than the sum: the local cart is often a
 * copy of the saved one (a session that expired without signing out), which summing would double. Every quantity
 * is capped by the current stock ('sobre pedido' ones excepted); products that are unknown, inactive or out of stock are dropped.
 */
export async function mergeIntoSavedCart(db: Db, userId: number, local: readonly CartLineInput[]) {
  return db.transaction(async (tx) => {
    // Lock the shopper's row (when it exists) so two tabs signing in at once do not lose each other's lines.
    const [row] = await tx
      .select({ items: carts.items })
      .from(carts)
      .where(eq(carts.userId, userId))
      .for('update');
    const merged = new Map<string, number>();
    for (const l of row?.items ?? []) merged.set(l.code, l.quantity);
    for (const l of local) merged.set(l.code, Math.max(merged.get(l.code) ?? 0, l.quantity));
    const known = await activeProducts(tx, [...merged.keys()]);
    const items: SavedCartItem[] = [];
    for (const [code, quantity] of merged) {
      const p = known.get(code);
      // A 'sobre pedido' product (decision 029) is not capped by its stock: the rest is backordered.
      const capped = p ? (p.leadTime ? quantity : Math.min(quantity, p.stock)) : 0;
      if (p && capped > 0) items.push({ ...p, quantity: capped });
    }
    await save(
      tx,
      userId,
      items.map((i) => ({ code: i.code, quantity: i.quantity })),
    );
    return items;
  });
}

/** The products of a paid order leave the buyer's saved cart (in the transaction that marks it paid). */
export async function removeOrderedFromSavedCart(tx: Db, userId: number, orderNumber: number) {
  await tx
    .update(carts)
    .set({
      items: sql`coalesce((
          select jsonb_agg(item) from jsonb_array_elements(${carts.items}) as item
          where item->>'code' not in (
            select ${orderLines.productCode} from ${orderLines} where ${orderLines.orderNumber} = ${orderNumber})
        ), '[]'::jsonb)`,
      updatedAt: sql`now()`,
    })
    .where(eq(carts.userId, userId));
}
