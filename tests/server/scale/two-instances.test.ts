import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../../src/server/auth/session.ts';
import { type Database, openDatabase } from '../../../src/server/db/client.ts';
import { products, shippingAddresses, stockMovements, users } from '../../../src/server/db/schema.ts';
import { ADDRESS } from '../support/checkout.ts';
import { createFreshDatabase, type ServerProcess, startServer, waitReady } from '../support/instances.ts';

/**
 * Two real server processes (`node --import tsx src/server/main.ts`) on two ports against one PostgreSQL
 * database, started at the same moment on an empty database (one migrates and seeds, the other waits
 * for the migration lock). Everything a shopper does on one must hold on the other.
 */
const PORT_A = Number(process.env.SCALE_TEST_PORT ?? 3200);
const PORT_B = PORT_A + 1;

let dbHandle: Awaited<ReturnType<typeof createFreshDatabase>> | undefined;
let database: Database | undefined;
let a: ServerProcess;
let b: ServerProcess;

// biome-ignore lint/suspicious/noExplicitAny: the JSON answers of several endpoints, read field by field
type Answer = { status: number; body: any; cookie?: string | undefined };

async function call(
  server: ServerProcess,
  method: string,
  path: string,
  options: { cookie?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const res = await fetch(`${server.base}${path}`, {
    method,
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...options.headers,
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  const sid = res.headers.getSetCookie().find((c) => c.startsWith('sid='));
  return {
    status: res.status,
    body: text ? JSON.parse(text) : null,
    cookie: sid?.split(';')[0],
  };
}

beforeAll(async () => {
  dbHandle = await createFreshDatabase('tienda_scale');
  const env = { DATABASE_URL: dbHandle.url, SEED_DEMO: 'true' };
  a = startServer({ ...env, PORT: String(PORT_A) });
  b = startServer({ ...env, PORT: String(PORT_B) });
  await Promise.all([waitReady(a), waitReady(b)]);
  database = await openDatabase({ databaseUrl: dbHandle.url, maxConnections: 4 });
}, 240_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await database?.close();
  await dbHandle?.drop();
}, 60_000);

describe('two instances on one PostgreSQL', () => {
  it('both started together on the empty database: one demo catalogue, the stock ledger balances', async () => {
    const [row] = (
      await database!.db.execute<{ n: number; unbalanced: number }>(sql`select count(*)::int as n,
        count(*) filter (where p.stock <> coalesce((select sum(delta) from stock_movements m
          where m.product_code = p.code), 0))::int as unbalanced
        from products p`)
    ).rows;
    expect(row!.n).toBe(600);
    expect(row!.unbalanced).toBe(0);
    const listA = await call(a, 'GET', '/api/products?group=VID-MAT');
    const listB = await call(b, 'GET', '/api/products?group=VID-MAT');
    expect(listA.status).toBe(200);
    expect(listB.body.total).toBe(listA.body.total);
  });

  it('a registration started on one instance is confirmed on the other; its session works on both, and signing out ends it on both', async () => {
    const email = `escala.${randomUUID().slice(0, 8)}@example.com`;
    const started = await call(a, 'POST', '/api/auth/register', {
      body: {
        username: email,
        nombre: 'Lucía',
        apellidoPat: 'Hernández',
        apellidoMat: 'Vega',
        telefono: '3312345678',
        password: 'Matraz.Aforado7Q',
      },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const { rows } = await database!.db.execute<{ subject: string }>(
      sql`select subject from mail_outbox where "to" = ${email} and kind = 'register-code' order by id desc limit 1`,
    );
    const code = /(\d{6})$/.exec(rows[0]?.subject ?? '')?.[1];
    const registered = await call(b, 'POST', '/api/auth/register/verify', {
      body: { username: email, code },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    expect(registered.cookie).toBeDefined();
    const cookie = registered.cookie!;

    const onB = await call(b, 'GET', '/api/auth/session', { cookie });
    expect(onB.body.user?.email).toBe(email);
    expect((await call(a, 'GET', '/api/auth/session', { cookie })).body.user?.email).toBe(email);

    const out = await call(b, 'POST', '/api/auth/logout', { cookie });
    expect(out.status).toBeLessThan(300);
    expect((await call(a, 'GET', '/api/auth/session', { cookie })).body.user).toBeNull();
  });

  it('failed sign-ins count across instances: after 5 failures split over both, the next is refused on either', async () => {
    const email = `throttle.${randomUUID().slice(0, 8)}@example.com`;
    for (let i = 0; i < 5; i += 1) {
      const answer = await call(i % 2 === 0 ? a : b, 'POST', '/api/auth/login', {
        body: { username: email, password: 'Incorrecta#123' },
      });
      expect(answer.status).toBe(401);
    }
    expect(
      (await call(a, 'POST', '/api/auth/login', { body: { username: email, password: 'x' } })).status,
    ).toBe(429);
    expect(
      (await call(b, 'POST', '/api/auth/login', { body: { username: email, password: 'x' } })).status,
    ).toBe(429);
  }, 60_000);

  it('a cart saved on one instance is the cart on the other', async () => {
    const shopper = await createShopper();
    const list = await call(a, 'GET', '/api/products?group=VID-MAT');
    const [first, second] = list.body.items as { code: string }[];
    const saved = await call(a, 'PUT', '/api/cart', {
      cookie: shopper.cookie,
      body: {
        items: [
          { code: first!.code, quantity: 2 },
          { code: second!.code, quantity: 1 },
        ],
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    const seen = await call(b, 'GET', '/api/cart', { cookie: shopper.cookie });
    expect(seen.body.items.map((i: { code: string; quantity: number }) => [i.code, i.quantity])).toEqual([
      [first!.code, 2],
      [second!.code, 1],
    ]);

    // And the other way round: emptied on B, empty on A.
    await call(b, 'PUT', '/api/cart', { cookie: shopper.cookie, body: { items: [] } });
    expect((await call(a, 'GET', '/api/cart', { cookie: shopper.cookie })).body.items).toEqual([]);
  });

  it('40 concurrent buyers spread over both instances, stock 7 → exactly 7 paid orders, stock 0, no oversell', async () => {
    const db = database!.db;
    const [product] = await db.select().from(products).where(eq(products.active, true)).limit(1);
    const code = product!.code;
    await db.update(products).set({ stock: 7 }).where(eq(products.code, code));
    await db.delete(stockMovements).where(eq(stockMovements.productCode, code));
    await db.insert(stockMovements).values({ productCode: code, delta: 7, reason: 'adjustment' });

    const buyers = await Promise.all(Array.from({ length: 40 }, () => createShopper()));
    const instance = (i: number) => (i % 2 === 0 ? a : b);
    const tokens = await Promise.all(
      buyers.map(async (_buyer, i) => {
        const answer = await call(instance(i + 1), 'POST', '/api/payments/sandbox/tokens', {
          body: {
            holder_name: 'Lucía Hernández',
            card_number: '4111111111111111',
            expiration_month: '12',
            expiration_year: String((new Date().getFullYear() + 3) % 100),
            cvv2: '123',
          },
        });
        expect(answer.status).toBe(201);
        return answer.body.id as string;
      }),
    );
    const answers = await Promise.all(
      buyers.map((buyer, i) =>
        call(instance(i), 'POST', '/api/orders', {
          cookie: buyer.cookie,
          headers: { 'idempotency-key': randomUUID() },
          body: { items: [{ code, quantity: 1 }], cardToken: tokens[i], deviceSessionId: `scale-${i}` },
        }),
      ),
    );
    const statuses = answers.map((x) => x.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.filter((s) => s === 201)).toHaveLength(7);
    expect(statuses.filter((s) => s === 409)).toHaveLength(33);

    const [after] = (
      await db.execute<{ stock: number; ledger: number; paid: number; sold: number }>(sql`select p.stock,
          (select coalesce(sum(delta), 0)::int from stock_movements where product_code = p.code) as ledger,
          (select count(*)::int from orders o join order_lines l on l.order_number = o.number
            where l.product_code = p.code and o.status = 'paid') as paid,
          (select coalesce(sum(l.quantity), 0)::int from orders o join order_lines l on l.order_number = o.number
            where l.product_code = p.code and o.status = 'paid') as sold
        from products p where p.code = ${code}`)
    ).rows;
    expect(after).toEqual({ stock: 0, ledger: 0, paid: 7, sold: 7 });
  }, 120_000);
});

let shopperCount = 0;
/** A registered shopper with a shipping address and a live session (made in the database directly). */
async function createShopper() {
  shopperCount += 1;
  const db = database!.db;
  const [user] = await db
    .insert(users)
    .values({
      email: `comprador${shopperCount}.${randomUUID().slice(0, 8)}@example.com`,
      passwordHash: 'x',
      nombre: 'Lucía',
      apellidoPat: 'Hernández',
      apellidoMat: 'Vega',
      telefono: '3312345678',
    })
    .returning({ id: users.id });
  await db.insert(shippingAddresses).values({ userId: user!.id, ...ADDRESS, isDefault: true });
  const session = await createSession(db, user!.id);
  return { id: user!.id, cookie: `sid=${session.token}` };
}
