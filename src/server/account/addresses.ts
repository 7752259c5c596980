import { and, asc, desc, eq, ne } from 'drizzle-orm';
import {
  MAX_SHIPPING_ADDRESSES,
  type SavedAddress,
  type ShippingAddress,
} from '../../shared/schemas/account.ts';
import type { Db } from '../db/client.ts';
import { shippingAddresses } from '../db/schema.ts';
import { conflict, notFound } from '../http/errors.ts';

/**
 * 'Mis direcciones' (issue 20, decision 022): a buyer keeps up to ten shipping addresses, each with a short
 * name, one the default. Every function acts on the given user's own rows only: another user's id reads as not
 * found. Checkout copies the chosen one into the order (the order's snapshot never changes afterwards).
 */

export const ADDRESS_NOT_FOUND = 'Dirección no encontrada';
export const DEFAULT_ALIAS = 'Principal';
export const TOO_MANY_ADDRESSES = `Puede guardar hasta ${MAX_SHIPPING_ADDRESSES} direcciones de envío; elimine una que ya no use`;
export const DEFAULT_NOT_DELETABLE =
  'Ésta es su dirección por omisión: elija otra por omisión antes de eliminarla';

type Row = typeof shippingAddresses.$inferSelect;

const view = (r: Row): SavedAddress => ({
  id: r.id,
  alias: r.alias,
  isDefault: r.isDefault,
  nombreEnvio: r.nombreEnvio,
  telefonoEnvio: r.telefonoEnvio,
  cpEnvio: r.cpEnvio,
  calleEnvio: r.calleEnvio,
  numExtEnvio: r.numExtEnvio,
  numIntEnvio: r.numIntEnvio,
  coloniaEnvio: r.coloniaEnvio,
  municipioEnvio: r.municipioEnvio,
  ciudadEnvio: r.ciudadEnvio,
  estadoEnvio: r.estadoEnvio,
  paisEnvio: r.paisEnvio,
});

const fields = ({ alias: _a, isDefault: _d, ...address }: ShippingAddress) => address;

/** The default first, then in the order they were added. */
export async function listShippingAddresses(db: Db, userId: number): Promise<SavedAddress[]> {
  const rows = await db
    .select()
    .from(shippingAddresses)
    .where(eq(shippingAddresses.userId, userId))
    .orderBy(desc(shippingAddresses.isDefault), asc(shippingAddresses.id));
  return rows.map(view);
}

/**
 * The address an order goes to: the one chosen (the user's own, else 404) or, when none is named, the default
 * (the oldest if, as in rows written directly, none is marked). Null when the user has no address.
 */
export async function getShippingAddress(db: Db, userId: number, id?: number): Promise<SavedAddress | null> {
  const [row] = await db
    .select()
    .from(shippingAddresses)
    .where(
      id === undefined
        ? eq(shippingAddresses.userId, userId)
        : and(eq(shippingAddresses.userId, userId), eq(shippingAddresses.id, id)),
    )
    .orderBy(desc(shippingAddresses.isDefault), asc(shippingAddresses.id))
    .limit(1);
  if (!row && id !== undefined) throw notFound(ADDRESS_NOT_FOUND);
  return row ? view(row) : null;
}

/**
 * Adds an address (id undefined) or changes one of the user's own. The user's rows are locked first, so the cap
 * and the single default hold under parallel requests. The first address is the default; 'isDefault' moves it.
 */
export async function saveShippingAddressById(
  db: Db,
  userId: number,
  input: ShippingAddress,
  id?: number,
): Promise<SavedAddress> {
  return db.transaction(async (tx) => {
    const mine = await tx
      .select({ id: shippingAddresses.id, isDefault: shippingAddresses.isDefault })
      .from(shippingAddresses)
      .where(eq(shippingAddresses.userId, userId))
      .for('update');
    if (id !== undefined && !mine.some((a) => a.id === id)) throw notFound(ADDRESS_NOT_FOUND);
    if (id === undefined && mine.length >= MAX_SHIPPING_ADDRESSES)
      throw conflict(TOO_MANY_ADDRESSES, 'too_many_addresses');
    const hasDefault = mine.some((a) => a.isDefault && a.id !== id);
    const makeDefault = input.isDefault === true || !hasDefault;
    if (makeDefault)
      await tx
        .update(shippingAddresses)
        .set({ isDefault: false })
        .where(and(eq(shippingAddresses.userId, userId), eq(shippingAddresses.isDefault, true)));
    const now = new Date();
    let saved: Row | undefined;
    if (id === undefined) {
      [saved] = await tx
        .insert(shippingAddresses)
        .values({
          userId,
          ...fields(input),
          alias: input.alias ?? DEFAULT_ALIAS,
          isDefault: makeDefault,
          updatedAt: now,
        })
        .returning();
    } else {
      [saved] = await tx
        .update(shippingAddresses)
        .set({
          ...fields(input),
          ...(input.alias === undefined ? {} : { alias: input.alias }),
          ...(makeDefault ? { isDefault: true } : {}),
          updatedAt: now,
        })
        .where(eq(shippingAddresses.id, id))
        .returning();
    }
    return view(saved!);
  });
}

/** PUT /api/account/shipping-address (/envio): changes the default address, or adds the first one. */
export async function saveDefaultShippingAddress(db: Db, userId: number, input: ShippingAddress) {
  const current = await getShippingAddress(db, userId);
  return saveShippingAddressById(db, userId, input, current?.id);
}

/** Makes one of the user's own addresses the default (the others stop being it), in one transaction. */
export async function setDefaultShippingAddress(db: Db, userId: number, id: number): Promise<SavedAddress> {
  return db.transaction(async (tx) => {
    const [target] = await tx
      .select({ id: shippingAddresses.id })
      .from(shippingAddresses)
      .where(and(eq(shippingAddresses.userId, userId), eq(shippingAddresses.id, id)))
      .for('update');
    if (!target) throw notFound(ADDRESS_NOT_FOUND);
    await tx
      .update(shippingAddresses)
      .set({ isDefault: false })
      .where(and(eq(shippingAddresses.userId, userId), ne(shippingAddresses.id, id)));
    const [row] = await tx
      .update(shippingAddresses)
      .set({ isDefault: true, updatedAt: new Date() })
      .where(eq(shippingAddresses.id, id))
      .returning();
    return view(row!);
  });
}

/**
 * Deletes one of the user's own addresses. The default cannot be deleted (so neither can the last one, which is
 * always the default): the buyer first makes another the default. Orders already placed keep their snapshot.
 */
export async function deleteShippingAddress(db: Db, userId: number, id: number) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: shippingAddresses.id, isDefault: shippingAddresses.isDefault })
      .from(shippingAddresses)
      .where(and(eq(shippingAddresses.userId, userId), eq(shippingAddresses.id, id)))
      .for('update');
    if (!row) throw notFound(ADDRESS_NOT_FOUND);
    if (row.isDefault) throw conflict(DEFAULT_NOT_DELETABLE, 'default_address');
    await tx.delete(shippingAddresses).where(eq(shippingAddresses.id, id));
  });
}
