import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/server/app.ts';
import { createSession, sessionCookieName } from '../../../src/server/auth/session.ts';
import { seedDemoCatalogue } from '../../../src/server/catalog/demo/seed.ts';
import { type AppConfig, loadConfig } from '../../../src/server/config.ts';
import type { Database, Db } from '../../../src/server/db/client.ts';
import { products, shippingAddresses, users } from '../../../src/server/db/schema.ts';
import type { PaymentGateway } from '../../../src/server/payments/gateway.ts';
import { openTestDatabase } from './test-db.ts';

/** Test support for checkout: an app with a chosen gateway, shoppers with sessions, products with stock. */
export type CheckoutTestApp = { app: FastifyInstance; database: Database; db: Db; close(): Promise<void> };

export async function createCheckoutApp(
  options: {
    /** The card gateway, or how to make it on the test's database. */
    gateway?: PaymentGateway | ((db: Db) => PaymentGateway);
    config?: Partial<AppConfig>;
    env?: Record<string, string>;
    /** PostgreSQL even without TEST_DATABASE_URL (tests that hold locks from a second connection). */
    postgres?: boolean;
  } = {},
): Promise<CheckoutTestApp> {
  const database = await openTestDatabase({ postgres: options.postgres ?? false });
  await seedDemoCatalogue(database.db, { products: 12 });
  const config: AppConfig = {
    ...loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      PUBLIC_URL: 'http://tienda.test',
      ...options.env,
    }),
    ...options.config,
  };
  const gateway = typeof options.gateway === 'function' ? options.gateway(database.db) : options.gateway;
  const app = await buildApp(config, { database, ...(gateway ? { paymentGateway: gateway } : {}) });
  await app.ready();
  return {
    app,
    database,
    db: database.db,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

export const ADDRESS = {
  nombreEnvio: 'María Fernanda López',
  telefonoEnvio: '3312345678',
  cpEnvio: '44100',
  calleEnvio: 'Avenida Juárez Centro',
  numExtEnvio: '120',
  numIntEnvio: '4B',
  coloniaEnvio: 'Centro Histórico',
  municipioEnvio: 'Guadalajara',
  ciudadEnvio: 'Guadalajara',
  estadoEnvio: 'Jalisco',
  paisEnvio: 'México',
};

export type Shopper = { id: number; email: string; cookie: string };

let counter = 0;
/** A registered shopper with a live session (and a shipping address unless told otherwise). */
export async function createShopper(
  t: CheckoutTestApp,
  options: { address?: boolean } = {},
): Promise<Shopper> {
  counter += 1;
  const email = `cliente${counter}.${randomUUID().slice(0, 8)}@example.com`;
  const [user] = await t.db
    .insert(users)
    .values({
      email,
      passwordHash: 'x',
      nombre: 'María',
      apellidoPat: 'López',
      apellidoMat: 'Ruiz',
      telefono: '3312345678',
    })
    .returning({ id: users.id });
  if (options.address !== false)
    await t.db.insert(shippingAddresses).values({ userId: user!.id, ...ADDRESS, isDefault: true });
  const session = await createSession(t.db, user!.id);
  return { id: user!.id, email, cookie: `${sessionCookieName(t.app.config)}=${session.token}` };
}

/** A product of the demo catalogue with exactly this stock (and a ledger that says so). */
export async function productWithStock(t: CheckoutTestApp, stock: number, index = 0) {
  const list = await t.db
    .select()
    .from(products)
    .orderBy(products.code)
    .limit(index + 1)
    .offset(index);
  const p = list[0]!;
  await t.db.update(products).set({ stock, active: true }).where(eq(products.code, p.code));
  await t.db.execute(sql`delete from stock_movements where product_code = ${p.code}`);
  await t.db.execute(
    sql`insert into stock_movements (product_code, delta, reason) values (${p.code}, ${stock}, 'adjustment')`,
  );
  return { code: p.code, name: p.name, priceCents: p.priceCents };
}

export async function stockOf(t: CheckoutTestApp, code: string) {
  const [row] = (
    await t.db.execute<{
      stock: number;
      ledger: number;
    }>(sql`select p.stock, (select coalesce(sum(delta), 0)::int from stock_movements where product_code = p.code) as ledger
      from products p where p.code = ${code}`)
  ).rows;
  return { stock: Number(row!.stock), ledger: Number(row!.ledger) };
}

/** A card token from the simulator's tokenization endpoint, as the card form gets it. */
export async function sandboxToken(t: CheckoutTestApp, cardNumber: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/payments/sandbox/tokens',
    payload: {
      holder_name: 'María López',
      card_number: cardNumber,
      expiration_month: '12',
      expiration_year: String((new Date().getFullYear() + 3) % 100),
      cvv2: '123',
    },
  });
  if (res.statusCode !== 201) throw new Error(`token: ${res.statusCode} ${res.body}`);
  return (res.json() as { id: string }).id;
}

export function placeOrderRequest(
  t: CheckoutTestApp,
  shopper: Shopper,
  body: unknown,
  key: string = randomUUID(),
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/orders',
    headers: { cookie: shopper.cookie, 'idempotency-key': key },
    payload: body as Record<string, unknown>,
  });
}
