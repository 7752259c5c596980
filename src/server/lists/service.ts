import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, inArray, isNull, max, type SQL, sql } from 'drizzle-orm';
import { availabilityText, type LeadTime, leadTimeOf, splitText } from '../../shared/backorder.ts';
import { MAX_LINE_QUANTITY } from '../../shared/limits.ts';
import { presentationName } from '../../shared/presentation-name.ts';
import {
  type ListCreate,
  type ListDetail,
  type ListLine,
  type ListSummary,
  MAX_LIST_LINES,
  MAX_LISTS,
  type SharedList,
  tooManyLinesMessage,
  tooManyListsMessage,
} from '../../shared/schemas/lists.ts';
import { productImageUrl } from '../cart/quote.ts';
import type { Db } from '../db/client.ts';
import { institutions, products, savedListLines, savedLists, users } from '../db/schema.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';

/**
 * 'Mis listas' (issue 18, decision 031). Every function but sharedList acts on the given user's own lists only:
 * another account's list reads as not found. Writes lock the user's row (the list cap and the one-name rule hold
 * under parallel requests) or the list's row (the line cap). Names, prices and stock come from the catalogue
 * each time a list is read; a product deactivated or deleted since shows as no longer sold.
 */

export const LIST_NOT_FOUND = 'Lista no encontrada';
export const LINE_NOT_FOUND = 'Ese producto no está en la lista';
export const PRODUCT_NOT_FOUND = 'Producto no encontrado';
export const PRODUCT_UNAVAILABLE = 'Este producto ya no está a la venta';
const duplicateName = (name: string) => `Ya tiene una lista llamada «${name}»; elija otro nombre`;
const quantityCap = (now: number) =>
  `La lista ya tiene ${now} de este producto; la cantidad por producto no puede pasar de ${MAX_LINE_QUANTITY}`;

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Whose lists (issue 34, decision 058): the person's own, or — while the session buys for an institution — the
 * institution's, shared by all its members ('lists.use'). A list made while buying for an institution belongs to it;
 * a person's own lists and an institution's never show in each other's place, and another institution's never.
 */
export type ListOwner = { userId: number; institutionId: number | null };
const scope = (owner: ListOwner): SQL =>
  owner.institutionId === null
    ? and(eq(savedLists.userId, owner.userId), isNull(savedLists.institutionId))!
    : eq(savedLists.institutionId, owner.institutionId);
type ListRow = typeof savedLists.$inferSelect;

const sharePath = (token: string | null) => (token ? `/listas/compartida/${token}` : null);

/** 144 random bits, URL-safe: a link that cannot be guessed or enumerated. */
const newToken = () => randomBytes(18).toString('base64url');

/**
 * What stands in the way of buying a line as saved. A 'sobre pedido' presentation (decision 029) is never
 * 'Sin existencia': it says so with its lead time, as the catalogue does, and what ships now and later.
 */
function lineNote(stock: number, quantity: number, lead: LeadTime | null): string | null {
  if (lead) return stock < 1 ? availabilityText(stock, lead) : splitText(stock, quantity - stock, lead);
  if (stock < 1) return 'Sin existencia';
  return stock < quantity ? `Solo hay ${stock} ${stock === 1 ? 'disponible' : 'disponibles'}` : null;
}

/** The lines with today's catalogue data, in the order they were added. */
async function linesOf(db: Db | Tx, listId: number): Promise<ListLine[]> {
  const rows = await db
    .select({ code: savedListLines.code, quantity: savedListLines.quantity })
    .from(savedListLines)
    .where(eq(savedListLines.listId, listId))
    .orderBy(asc(savedListLines.position), asc(savedListLines.code));
  const codes = rows.map((r) => r.code);
  const found =
    codes.length === 0
      ? []
      : await db
          .select({
            code: products.code,
            name: products.name,
            presentationLabel: products.presentationLabel,
            priceCents: products.priceCents,
            stock: products.stock,
            imageHash: products.imageHash,
            active: products.active,
            backorderable: products.backorderable,
            leadMinDays: products.leadMinDays,
            leadMaxDays: products.leadMaxDays,
          })
          .from(products)
          .where(inArray(products.code, codes));
  const byCode = new Map(found.map((p) => [p.code, p]));
  return rows.map(({ code, quantity }) => {
    const p = byCode.get(code);
    if (!p?.active) return { code, quantity, product: null, note: 'Ya no está a la venta' };
    return {
      code,
      quantity,
      product: {
        name: presentationName(p),
        priceCents: p.priceCents,
        stock: p.stock,
        imageUrl: productImageUrl(p.code, p.imageHash),
      },
      note: lineNote(p.stock, quantity, leadTimeOf(p)),
    };
  });
}

async function detail(db: Db | Tx, row: ListRow): Promise<ListDetail> {
  return {
    id: row.id,
    name: row.name,
    updatedAt: row.updatedAt.toISOString(),
    sharePath: sharePath(row.shareToken),
    lines: await linesOf(db, row.id),
  };
}

/** The user's list, locked for the rest of the transaction when asked; 404 when it is not theirs. */
async function ownList(db: Db | Tx, owner: ListOwner, id: number, lock = false): Promise<ListRow> {
  const query = db
    .select()
    .from(savedLists)
    .where(and(eq(savedLists.id, id), scope(owner)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound(LIST_NOT_FOUND);
  return row;
}

/**
 * One change to the user's list, in a transaction: the list locked (404 when it is not theirs), then `change`,
 * which answers the list row as it is after; the answer is that list's detail.
 */
async function changeOwnList(
  db: Db,
  owner: ListOwner,
  id: number,
  change: (tx: Tx, row: ListRow) => Promise<ListRow>,
): Promise<ListDetail> {
  return db.transaction(async (tx) => detail(tx, await change(tx, await ownList(tx, owner, id, true))));
}

/** A change to the list's lines (changeOwnList): the list's `updatedAt` moves with it. */
function changeLines(db: Db, owner: ListOwner, id: number, change: (tx: Tx) => Promise<void>) {
  return changeOwnList(db, owner, id, async (tx, row) => {
    await change(tx);
    await touch(tx, id);
    return { ...row, updatedAt: new Date() };
  });
}

async function lockOwner(tx: Tx, owner: ListOwner) {
  if (owner.institutionId === null)
    await tx.select({ id: users.id }).from(users).where(eq(users.id, owner.userId)).for('update');
  else
    await tx
      .select({ id: institutions.id })
      .from(institutions)
      .where(eq(institutions.id, owner.institutionId))
      .for('update');
}

async function nameTaken(tx: Tx, owner: ListOwner, name: string, except?: number) {
  const [row] = await tx
    .select({ id: savedLists.id })
    .from(savedLists)
    .where(and(scope(owner), sql`lower(${savedLists.name}) = lower(${name})`));
  return row !== undefined && row.id !== except;
}

const touch = (tx: Tx, id: number) =>
  tx.update(savedLists).set({ updatedAt: new Date() }).where(eq(savedLists.id, id));

/** Most recently changed first. */
export async function listLists(db: Db, owner: ListOwner): Promise<ListSummary[]> {
  const rows = await db
    .select({
      id: savedLists.id,
      name: savedLists.name,
      shareToken: savedLists.shareToken,
      updatedAt: savedLists.updatedAt,
      lineCount: sql<number>`(select count(*)::int from ${savedListLines} where ${savedListLines.listId} = ${savedLists.id})`,
    })
    .from(savedLists)
    .where(scope(owner))
    .orderBy(sql`${savedLists.updatedAt} desc`, asc(savedLists.id));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    lineCount: Number(r.lineCount),
    shared: r.shareToken !== null,
    updatedAt: r.updatedAt.toISOString(),
  }));
}

export async function getList(db: Db, owner: ListOwner, id: number): Promise<ListDetail> {
  return detail(db, await ownList(db, owner, id));
}

/**
 * A new list, empty or with lines (the cart saved as a list). Every code must be a catalogue product (inactive
 * ones are kept and shown as not for sale); an unknown code refuses the whole list, naming the line.
 */
export async function createList(db: Db, owner: ListOwner, input: ListCreate): Promise<ListDetail> {
  return db.transaction(async (tx) => {
    await lockOwner(tx, owner);
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(savedLists).where(scope(owner));
    if (n >= MAX_LISTS) throw conflict(tooManyListsMessage(), 'too_many_lists');
    if (await nameTaken(tx, owner, input.name)) throw conflict(duplicateName(input.name), 'duplicate_name');
    const codes = input.lines.map((l) => l.code);
    if (codes.length > 0) {
      const known = new Set(
        (await tx.select({ code: products.code }).from(products).where(inArray(products.code, codes))).map(
          (r) => r.code,
        ),
      );
      const fields: Record<string, string> = {};
      input.lines.forEach((l, i) => {
        if (!known.has(l.code)) fields[`lines.${i}.code`] = `${PRODUCT_NOT_FOUND}: ${l.code}`;
      });
      if (Object.keys(fields).length > 0) throw badRequest(Object.values(fields)[0]!, fields);
    }
    const [row] = await tx
      .insert(savedLists)
      .values({ userId: owner.userId, institutionId: owner.institutionId, name: input.name })
      .returning();
    if (input.lines.length > 0)
      await tx
        .insert(savedListLines)
        .values(
          input.lines.map((l, i) => ({ listId: row!.id, code: l.code, quantity: l.quantity, position: i })),
        );
    return detail(tx, row!);
  });
}

export async function renameList(db: Db, owner: ListOwner, id: number, name: string): Promise<ListDetail> {
  return db.transaction(async (tx) => {
    await lockOwner(tx, owner);
    const row = await ownList(tx, owner, id, true);
    if (await nameTaken(tx, owner, name, id)) throw conflict(duplicateName(name), 'duplicate_name');
    const [renamed] = await tx
      .update(savedLists)
      .set({ name, updatedAt: new Date() })
      .where(eq(savedLists.id, row.id))
      .returning();
    return detail(tx, renamed!);
  });
}

export async function deleteList(db: Db, owner: ListOwner, id: number): Promise<void> {
  const deleted = await db
    .delete(savedLists)
    .where(and(eq(savedLists.id, id), scope(owner)))
    .returning({ id: savedLists.id });
  if (deleted.length === 0) throw notFound(LIST_NOT_FOUND);
}

/**
 * Adds a product (the product page's 'Agregar a una lista'): a product already in the list gets the quantity
 * added to it. Only an active catalogue product can be added.
 */
export async function addToList(
  db: Db,
  owner: ListOwner,
  id: number,
  line: { code: string; quantity: number },
): Promise<ListDetail> {
  return changeLines(db, owner, id, async (tx) => {
    const [product] = await tx
      .select({ code: products.code, active: products.active })
      .from(products)
      .where(eq(products.code, line.code));
    if (!product) throw notFound(PRODUCT_NOT_FOUND);
    if (!product.active) throw conflict(PRODUCT_UNAVAILABLE, 'product_unavailable');
    const [existing] = await tx
      .select({ quantity: savedListLines.quantity })
      .from(savedListLines)
      .where(and(eq(savedListLines.listId, id), eq(savedListLines.code, product.code)));
    if (existing) {
      const quantity = existing.quantity + line.quantity;
      if (quantity > MAX_LINE_QUANTITY) throw conflict(quantityCap(existing.quantity), 'quantity_limit');
      await tx
        .update(savedListLines)
        .set({ quantity })
        .where(and(eq(savedListLines.listId, id), eq(savedListLines.code, product.code)));
    } else {
      const [stats] = await tx
        .select({ n: count(), last: max(savedListLines.position) })
        .from(savedListLines)
        .where(eq(savedListLines.listId, id));
      if ((stats?.n ?? 0) >= MAX_LIST_LINES) throw conflict(tooManyLinesMessage(), 'too_many_lines');
      await tx.insert(savedListLines).values({
        listId: id,
        code: product.code,
        quantity: line.quantity,
        position: (stats?.last ?? -1) + 1,
      });
    }
  });
}

export async function setListQuantity(
  db: Db,
  owner: ListOwner,
  id: number,
  code: string,
  quantity: number,
): Promise<ListDetail> {
  return changeLines(db, owner, id, async (tx) => {
    const updated = await tx
      .update(savedListLines)
      .set({ quantity })
      .where(and(eq(savedListLines.listId, id), eq(savedListLines.code, code)))
      .returning({ code: savedListLines.code });
    if (updated.length === 0) throw notFound(LINE_NOT_FOUND);
  });
}

export async function removeFromList(
  db: Db,
  owner: ListOwner,
  id: number,
  code: string,
): Promise<ListDetail> {
  return changeLines(db, owner, id, async (tx) => {
    const removed = await tx
      .delete(savedListLines)
      .where(and(eq(savedListLines.listId, id), eq(savedListLines.code, code)))
      .returning({ code: savedListLines.code });
    if (removed.length === 0) throw notFound(LINE_NOT_FOUND);
  });
}

/** 'Compartir': the list gets a link (the same one while it stays shared). */
export async function shareList(db: Db, owner: ListOwner, id: number): Promise<ListDetail> {
  return changeOwnList(db, owner, id, async (tx, row) => {
    if (row.shareToken) return row;
    const [shared] = await tx
      .update(savedLists)
      .set({ shareToken: newToken() })
      .where(eq(savedLists.id, id))
      .returning();
    return shared!;
  });
}

/** 'Dejar de compartir': the link stops working at once (sharing again makes a new one). */
export async function unshareList(db: Db, owner: ListOwner, id: number): Promise<ListDetail> {
  await ownList(db, owner, id);
  const [row] = await db
    .update(savedLists)
    .set({ shareToken: null })
    .where(and(eq(savedLists.id, id), scope(owner)))
    .returning();
  return detail(db, row!);
}

/** What the link shows, to anyone who has it: the name and the lines; 404 once the link is revoked. */
export async function sharedList(db: Db, token: string): Promise<SharedList> {
  const [row] = await db.select().from(savedLists).where(eq(savedLists.shareToken, token));
  if (!row) throw notFound(LIST_NOT_FOUND);
  return { name: row.name, updatedAt: row.updatedAt.toISOString(), lines: await linesOf(db, row.id) };
}
