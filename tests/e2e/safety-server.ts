/**
 * The shop for the browser safety journeys (tests/e2e/safety.spec.ts), run as its own process with
 * `node --import tsx tests/e2e/safety-server.ts`: the real app on a fresh in-memory database whose
 * every displayed field carries an XSS payload — product names, brand and group names and long
 * descriptions written raw into the database (past the sanitizer) and through the back office (through
 * it), a shopper's name (raw), address, saved cart, orders with a payload tracking guide, an invoice
 * with a payload fiscal name, and the mails about them. Prints one line `SAFETY_READY {json}`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../src/server/app.ts';
import { createSession } from '../../src/server/auth/session.ts';
import { seedDemoCatalogue } from '../../src/server/catalog/demo/seed.ts';
import { loadConfig } from '../../src/server/config.ts';
import { openDatabase } from '../../src/server/db/client.ts';
import { users } from '../../src/server/db/schema.ts';
import { registerWithCode } from '../server/support/accounts.ts';
import { ADDRESS_PAYLOADS, PAYLOADS } from './safety-payloads.ts';

const freePort = () =>
  new Promise<number>((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });

async function main() {
  const clientDir = resolve(process.env.CLIENT_DIR ?? 'dist/client');
  if (!existsSync(resolve(clientDir, 'index.html')))
    throw new Error(`no hay cliente compilado en ${clientDir}`);
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  // The run's migrated template (scripts/e2e-template.ts), when playwright.config.ts made one: no initdb and
  // no migrations here; `migrate()` then finds nothing to do.
  const template = process.env.E2E_TEMPLATE_DIR
    ? resolve(process.env.E2E_TEMPLATE_DIR, 'migrated.tar')
    : null;
  const database = await openDatabase({
    dataDir: 'memory://',
    ...(template && existsSync(template) ? { loadDataDir: new Blob([readFileSync(template)]) } : {}),
  });
  await database.migrate();
  const db = database.db;
  await seedDemoCatalogue(db, { products: 16 });
  const config = {
    ...loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'warn', PUBLIC_URL: publicUrl, PORT: String(port) }),
    clientDir,
  };
  const app = await buildApp(config, { database });
  await app.ready();

  const inject = async (
    cookie: string | null,
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const res = await app.inject({
      method,
      url,
      headers: { ...headers, ...(cookie ? { cookie } : {}) },
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    });
    if (res.statusCode >= 300)
      throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    return res.json() as Record<string, unknown>;
  };

  const products = (
    await db.execute<{ code: string; group_clas: string; brand: string }>(
      sql`select code, group_clas, brand from products where active order by code limit 16`,
    )
  ).rows;
  const codes = products.map((p) => p.code);
  for (const code of codes) {
    await db.execute(sql`insert into stock_movements (product_code, delta, reason)
      select code, 50 - stock, 'adjustment' from products where code = ${code}`);
    await db.execute(sql`update products set stock = 50 where code = ${code}`);
  }

  // Raw in the database, past every write-path check.
  for (const [i, payload] of PAYLOADS.slice(0, codes.length).entries()) {
    const code = codes[i]!;
    await db.execute(
      sql`update products set name = ${`Matraz ${i} ${payload}`}, short_desc = ${payload} where code = ${code}`,
    );
  }
  await db.execute(
    sql`update products set long_desc_html = ${PAYLOADS.join('\n<p>texto</p>\n')} where code = ${codes[0]!}`,
  );
  const brand = `Marca ${PAYLOADS[1]!}`;
  const group = `Grupo ${PAYLOADS[2]!}`;
  await db.execute(sql`insert into brands (name, featured) values (${brand}, true)`);
  await db.execute(sql`update products set brand = ${brand} where code = ${codes[2]!}`);
  const parent = products[3]!.group_clas;
  await db.execute(sql`insert into groups (clas, name, parent_clas, position)
    values ('XSS', ${group}, (select coalesce(parent_clas, clas) from groups where clas = ${parent}), 99)`);
  await db.execute(sql`update products set group_clas = 'XSS' where code = ${codes[3]!}`);

  // Staff, and a long description through the back office (the sanitizer on write).
  const [staffRow] = await db
    .insert(users)
    .values({
      email: 'personal.xss@ciencia-occidente.mx',
      passwordHash: 'x',
      nombre: `Personal ${PAYLOADS[3]!}`,
      apellidoPat: PAYLOADS[4]!,
      telefono: '3311112222',
      role: 'staff',
      staffRole: 'administrador',
    })
    .returning({ id: users.id });
  // Past the second factor, as after the password and the TOTP code (decision 064).
  const staff = await createSession(db, staffRow!.id, {}, { secondFactorAt: new Date() });
  const staffCookie = `sid=${staff.token}`;
  const edit = await inject(staffCookie, 'GET', `/api/admin/products/${encodeURIComponent(codes[1]!)}`);
  const product = (edit.product ?? edit) as Record<string, unknown>;
  await inject(staffCookie, 'PUT', `/api/admin/products/${encodeURIComponent(codes[1]!)}`, {
    name: `Probeta ${PAYLOADS[5]!}`,
    brand: product.brand ?? '',
    groupClas: product.groupClas,
    line: product.line ?? '',
    type: product.type ?? '',
    price: String(product.price ?? '100.00'),
    weightKg: String(product.weightKg ?? '1'),
    shortDesc: PAYLOADS[6]!,
    longDescHtml: PAYLOADS.join('\n<p>texto</p>\n'),
    satProductKey: '',
    satUnitKey: '',
    active: true,
  });

  // A shopper: registered through the API, then a raw name; the address and invoice through the API.
  const email = 'victima.xss@example.com';
  const password = 'Matraz#2024x';
  const reg = await registerWithCode(app, {
    username: email,
    password,
    nombre: 'Victima',
    apellidoPat: 'Prueba',
    apellidoMat: '',
    telefono: '3312345678',
  });
  const cookie = String([reg.headers['set-cookie']].flat()[0]).split(';')[0]!;
  await db.execute(sql`update users set nombre = ${`Ana ${PAYLOADS[7]!}`}, apellido_pat = ${PAYLOADS[8]!},
    apellido_mat = ${PAYLOADS[9]!} where email = ${email}`);
  await inject(cookie, 'PUT', '/api/account/shipping-address', ADDRESS_PAYLOADS);
  const token = async () =>
    (
      await inject(null, 'POST', '/api/payments/sandbox/tokens', {
        holder_name: PAYLOADS[10]!,
        card_number: '4111111111111111',
        expiration_month: '12',
        expiration_year: String((new Date().getFullYear() + 3) % 100),
        cvv2: '123',
      })
    ).id as string;
  const order = async (items: { code: string; quantity: number }[]) =>
    (
      await inject(
        cookie,
        'POST',
        '/api/orders',
        { items, cardToken: await token(), deviceSessionId: PAYLOADS[11]! },
        { 'idempotency-key': `xss-${Math.random().toString(36).slice(2)}` },
      )
    ).number as number;
  const invoiced = await order([
    { code: codes[0]!, quantity: 1 },
    { code: codes[1]!, quantity: 1 },
  ]);
  await inject(cookie, 'POST', `/api/orders/${invoiced}/invoice`, {
    nombreFiscal: `Laboratorio ${PAYLOADS[12]!}`,
    rfc: 'LQB150101AB3',
    regimenFiscal: '601',
    usoCfdi: 'G03',
    formaPago: '04',
    cp: '44100',
  });
  const shipped = await order([{ code: codes[4]!, quantity: 1 }]);
  await db.execute(sql`update orders set tracking_guide = ${PAYLOADS[13]!}, delivery_provider = ${PAYLOADS[14]!},
    status = 'shipped', shipped_at = now() where number = ${shipped}`);
  // Paid, not invoiced, no guide: one forged request away from being cancelled and refunded.
  const cancellable = await order([{ code: codes[5]!, quantity: 1 }]);
  await inject(cookie, 'PUT', '/api/cart', {
    items: codes.slice(0, 6).map((code) => ({ code, quantity: 1 })),
  });
  const [user] = (await db.execute<{ id: number }>(sql`select id from users where email = ${email}`)).rows;
  const mails = (await db.execute<{ id: number }>(sql`select id from mail_outbox order by id`)).rows;

  await app.listen({ port, host: '127.0.0.1' });
  console.log(
    `SAFETY_READY ${JSON.stringify({
      port,
      cookie,
      staffCookie,
      email,
      password,
      userId: user!.id,
      codes,
      brand,
      group,
      orders: [invoiced, shipped, cancellable],
      mails: mails.map((m) => m.id),
    })}`,
  );
  const stop = async () => {
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
