import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { createSession, sessionCookieName } from '../../../src/server/auth/session.ts';
import { shippingAddresses, users } from '../../../src/server/db/schema.ts';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  placeOrderRequest,
  productWithStock,
  sandboxToken,
} from './checkout.ts';

/**
 * The people of the safety tests: two shoppers (each with a profile, an address, a saved cart, a paid
 * order with a payment and an invoice) and a staff member. Every identifiable value of a shopper is a
 * marker word that appears nowhere else, so "the other shopper's data never appears" is a substring test.
 */
export type Person = {
  id: number;
  email: string;
  cookie: string;
  role: 'customer' | 'staff';
  /** Words only this person's data contains (names, street, RFC, invoice name, cart product…). */
  markers: string[];
};

export type Shopper = Person & {
  order: number;
  chargeId: string;
  cartCode: string;
};

export type World = {
  t: CheckoutTestApp;
  a: Shopper;
  b: Shopper;
  staff: Person;
};

const INVOICE_FORM = {
  rfc: 'LQB150101AB3',
  regimenFiscal: '601',
  usoCfdi: 'G03',
  formaPago: '04',
  cp: '44100',
};

/** Staff sessions start past the second factor (the administrador of the back office, decision 064). */
const staffSessionOptions = (role: 'customer' | 'staff') =>
  role === 'staff' ? { secondFactorAt: new Date() } : {};

async function person(
  t: CheckoutTestApp,
  tag: { nombre: string; apellido: string; street: string; phone: string },
  role: 'customer' | 'staff' = 'customer',
): Promise<Person> {
  const email = `${tag.nombre.toLowerCase()}.${tag.apellido.toLowerCase()}.${randomUUID().slice(0, 6)}@example.com`;
  const [user] = await t.db
    .insert(users)
    .values({
      email,
      passwordHash: 'x',
      nombre: tag.nombre,
      apellidoPat: tag.apellido,
      apellidoMat: 'Safety',
      telefono: tag.phone,
      role,
      ...(role === 'staff' ? { staffRole: 'administrador' } : {}),
    })
    .returning({ id: users.id });
  if (role === 'customer') {
    await t.db.insert(shippingAddresses).values({
      userId: user!.id,
      isDefault: true,
      nombreEnvio: `${tag.nombre} ${tag.apellido} Envío`,
      telefonoEnvio: tag.phone,
      cpEnvio: '44100',
      calleEnvio: tag.street,
      numExtEnvio: '777',
      numIntEnvio: '',
      coloniaEnvio: 'Colonia Centro',
      municipioEnvio: 'Guadalajara',
      ciudadEnvio: 'Guadalajara',
      estadoEnvio: 'Jalisco',
      paisEnvio: 'México',
    });
  }
  const session = await createSession(t.db, user!.id, {}, staffSessionOptions(role));
  return {
    id: user!.id,
    role,
    email,
    cookie: `${sessionCookieName(t.app.config)}=${session.token}`,
    markers: [email, tag.nombre, tag.apellido, tag.street, tag.phone],
  };
}

/** A fresh session for someone (a fuzzed logout or password change may have ended theirs). */
export async function renewSession(t: CheckoutTestApp, who: Person): Promise<void> {
  const session = await createSession(t.db, who.id, {}, staffSessionOptions(who.role));
  who.cookie = `${sessionCookieName(t.app.config)}=${session.token}`;
}

async function shopper(
  t: CheckoutTestApp,
  tag: { nombre: string; apellido: string; street: string; phone: string; fiscal: string },
  productIndex: number,
): Promise<Shopper> {
  const p = await person(t, tag);
  const product = await productWithStock(t, 50, productIndex);
  const cartProduct = await productWithStock(t, 50, productIndex + 2);
  const res = await placeOrderRequest(
    t,
    { id: p.id, email: p.email, cookie: p.cookie },
    {
      items: [{ code: product.code, quantity: 1 }],
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: `safety-${tag.nombre}`,
    },
  );
  if (res.statusCode !== 201) throw new Error(`pedido: ${res.statusCode} ${res.body}`);
  const order = (res.json() as { number: number }).number;
  const invoice = await t.app.inject({
    method: 'POST',
    url: `/api/orders/${order}/invoice`,
    headers: { cookie: p.cookie },
    payload: { ...INVOICE_FORM, nombreFiscal: tag.fiscal },
  });
  if (invoice.statusCode >= 300) throw new Error(`factura: ${invoice.statusCode} ${invoice.body}`);
  const cart = await t.app.inject({
    method: 'PUT',
    url: '/api/cart',
    headers: { cookie: p.cookie },
    payload: { items: [{ code: cartProduct.code, quantity: 3 }] },
  });
  if (cart.statusCode !== 200) throw new Error(`carrito: ${cart.statusCode} ${cart.body}`);
  const [charge] = (
    await t.db.execute<{ id: string }>(
      sql`select id from sandbox_charges where order_id like ${`${order}-%`}`,
    )
  ).rows;
  return {
    ...p,
    order,
    chargeId: charge!.id,
    cartCode: cartProduct.code,
    markers: [...p.markers, tag.fiscal, charge!.id],
  };
}

/** The app (12 demo products, sandbox gateway and PAC) with two shoppers and a staff member. */
export async function createWorld(): Promise<World> {
  const t = await createCheckoutApp();
  const a = await shopper(
    t,
    {
      nombre: 'Aurelio',
      apellido: 'Zafirov',
      street: 'Calle Zafiro Privada',
      phone: '3310000001',
      fiscal: 'LABORATORIOS ZAFIROV AURELIO',
    },
    0,
  );
  const b = await shopper(
    t,
    {
      nombre: 'Bernarda',
      apellido: 'Onixova',
      street: 'Calle Onix Privada',
      phone: '3320000002',
      fiscal: 'LABORATORIOS ONIXOVA BERNARDA',
    },
    1,
  );
  const staff = await person(
    t,
    {
      nombre: 'Laura',
      apellido: 'Personal',
      street: '',
      phone: '3330000003',
    },
    'staff',
  );
  return { t, a, b, staff };
}

/** Which markers of `who` a response body contains (should be none when it is someone else's answer). */
export function leakedMarkers(res: LightMyRequestResponse, who: Person): string[] {
  const body = res.body.toLowerCase();
  return who.markers.filter((m) => m && body.includes(m.toLowerCase()));
}

// ---- Messages ---------------------------------------------------------------------------------

/** English words a framework default would carry; none of them is Spanish. */
const ENGLISH =
  /\b(the|must|should|expected|received|required|invalid|unexpected|cannot|not found|bad request|unsupported|too large|too many|unauthorized|forbidden|request|body|route|error)\b/i;
const SPANISH =
  /[áéíóúñ¿¡]|\b(no|de|la|el|los|las|en|para|un|una|es|que|del|por|con|su|sin|ya|al|demasiado|demasiados|grande|pequeño|cantidad|inicie|solicitud|recurso|campo|datos|escriba|falta|debe|mayor|menor|existe|permitido)\b/i;

/** Why an error body is not a proper Spanish error answer, or null when it is one. */
export function errorBodyProblem(res: LightMyRequestResponse): string | null {
  let json: unknown;
  try {
    json = res.json();
  } catch {
    return `no es JSON: ${res.body.slice(0, 120)}`;
  }
  const message = (json as { error?: { message?: unknown } })?.error?.message;
  if (typeof message !== 'string' || message.trim() === '')
    return `sin error.message: ${res.body.slice(0, 200)}`;
  if (ENGLISH.test(message) || !SPANISH.test(message)) return `mensaje no está en español: «${message}»`;
  return null;
}

// ---- Database fingerprint ----------------------------------------------------------------------

/**
 * Bookkeeping a rejected request may legitimately write: failed sign-in counters, a recovery code's
 * attempt counter, a session's last-seen time and the stored answer of an Idempotency-Key.
 */
const IGNORED_TABLES = new Set(['auth_attempts', 'idempotency_keys']);
const IGNORED_COLUMNS = new Set(['sessions.last_seen_at', 'recovery_codes.attempts']);

let fingerprintSql: ReturnType<typeof sql.raw> | undefined;

/** One md5 per table over every row (bytea as its md5), in one statement: what "unchanged" means. */
export async function databaseFingerprint(t: CheckoutTestApp): Promise<Record<string, string>> {
  if (!fingerprintSql) {
    const columns = (
      await t.db.execute<{
        table_name: string;
        column_name: string;
        data_type: string;
      }>(sql`select table_name, column_name, data_type from information_schema.columns
        where table_schema = 'public' order by table_name, ordinal_position`)
    ).rows;
    const byTable = new Map<string, string[]>();
    for (const c of columns) {
      if (IGNORED_TABLES.has(c.table_name) || IGNORED_COLUMNS.has(`${c.table_name}.${c.column_name}`))
        continue;
      const expr =
        c.data_type === 'bytea' ? `md5(coalesce("${c.column_name}", ''::bytea))` : `"${c.column_name}"::text`;
      byTable.set(c.table_name, [...(byTable.get(c.table_name) ?? []), `coalesce(${expr}, '∅')`]);
    }
    const parts = [...byTable].map(
      ([table, exprs]) =>
        `'${table}', (select md5(coalesce(string_agg(r, '|' order by r), '')) || ':' || count(*) from (select concat_ws('¦', ${exprs.join(', ')}) as r from "${table}") x)`,
    );
    // A PostgreSQL function takes at most 100 arguments: 40 tables (80) per object, the objects merged.
    const objects: string[] = [];
    for (let i = 0; i < parts.length; i += 40)
      objects.push(`jsonb_build_object(${parts.slice(i, i + 40).join(', ')})`);
    fingerprintSql = sql.raw(`select (${objects.join(' || ')}) as f`);
  }
  const [row] = (await t.db.execute<{ f: Record<string, string> | string }>(fingerprintSql)).rows;
  return typeof row!.f === 'string' ? JSON.parse(row!.f) : row!.f;
}

/**
 * The write-ahead log position: when it has not moved, nothing was written and the fingerprint can be
 * reused (on a shared PostgreSQL server other databases move it too, and the fingerprint is taken).
 */
export async function walPosition(t: CheckoutTestApp): Promise<string> {
  const [row] = (await t.db.execute<{ l: string }>(sql`select pg_current_wal_lsn()::text as l`)).rows;
  return row!.l;
}

/** The tables whose fingerprint differs. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((k) => before[k] !== after[k]);
}
