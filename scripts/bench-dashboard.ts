// npm run bench:dashboard: the dashboard's SQL aggregates at 200,000 products and 100,000 orders (decision 065).
//
//   DATABASE_URL      PostgreSQL database to use (default postgres://postgres@127.0.0.1:5432/tienda_dashboard_bench,
//                     created when missing). BENCH_ENGINE=pglite uses the embedded database in a temporary folder.
//   BENCH_PRODUCTS    products (default 200000); BENCH_ORDERS orders (default 100000), spread over 400 days.
//   BENCH_RUNS        times each query is run (default 20, after 2 warm-up runs).
//   BENCH_EXPLAIN=1   print EXPLAIN (ANALYZE, BUFFERS) of the sales and ranking queries.
//
// The data is made by set-based SQL (generate_series, a fixed random seed) in chunks with progress: orders of
// every state and payment method, 1–4 lines each, their ledger (charges, sales on credit, refunds owed, paid and
// failed), quotations with revisions, search misses, invoices. An existing database with the orders already there
// is measured as it is. Each query prints p50 / p95 / max; the target is < 200 ms each and for the whole endpoint.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app.ts';
import { createSession, sessionCookieName } from '../src/server/auth/session.ts';
import { seedDemoCatalogue } from '../src/server/catalog/demo/seed.ts';
import { listMisses } from '../src/server/catalog/vocabulary.ts';
import { loadConfig } from '../src/server/config.ts';
import { waitingQueues } from '../src/server/dashboard/queues.ts';
import { linesSold, salesFigures, topInstitutions } from '../src/server/dashboard/sales.ts';
import { dashboard, ordersByStatus, quotationConversion } from '../src/server/dashboard/service.ts';
import { dashboardWindows } from '../src/server/dashboard/windows.ts';
import { type Database, type Db, openDatabase } from '../src/server/db/client.ts';
import { createDatabaseIfMissing } from './bench-db.ts';
import { createProgress } from './progress.ts';

const ENGINE = process.env.BENCH_ENGINE === 'pglite' ? 'pglite' : 'postgresql';
const DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/tienda_dashboard_bench';
const PRODUCTS = Number(process.env.BENCH_PRODUCTS || 200_000);
const ORDERS = Number(process.env.BENCH_ORDERS || 100_000);
const RUNS = Number(process.env.BENCH_RUNS || 20);
const CHUNK = 10_000;
const FIRST_ORDER = 5_000_000;
const DAYS = 400;

const count = async (database: Database, query: ReturnType<typeof sql>) =>
  Number((await database.db.execute<{ n: number }>(query)).rows[0]?.n ?? 0);

async function fillProducts(database: Database) {
  const { db } = database;
  await seedDemoCatalogue(db, { products: 600, mediaLimit: 0 });
  const have = await count(database, sql`select count(*)::int as n from products`);
  if (have >= PRODUCTS) return;
  const progress = createProgress('Productos');
  // Codes BD-1 … BD-(PRODUCTS − the demo's): the orders' lines pick among them.
  const demo = await count(database, sql`select count(*)::int as n from products where code not like 'BD-%'`);
  for (let done = have; done < PRODUCTS; ) {
    const n = Math.min(CHUNK * 5, PRODUCTS - done);
    await db.execute(sql`
      with demo as (select row_number() over (order by code) - 1 as k, * from products where code not like 'BD-%'),
      c as (select count(*) as c from demo)
      insert into products (code, name, brand, group_clas, price_cents, stock, short_desc)
      select 'BD-' || (${done - demo}::int + i), demo.name || ' ' || (${done - demo}::int + i), demo.brand, demo.group_clas,
        demo.price_cents, demo.stock, demo.short_desc
      from generate_series(1, ${n}::int) i join demo on demo.k = i % (select c from c)
      on conflict do nothing`);
    done += n;
    progress(done, PRODUCTS);
  }
}

async function fillPeople(database: Database) {
  const { db } = database;
  await db.execute(sql`
    insert into users (email, password_hash, nombre, apellido_pat, telefono)
    select 'bench' || i || '@example.mx', 'x', 'Cliente', 'Prueba ' || i, '3300000000'
    from generate_series(1, 5000) i on conflict do nothing`);
  const institutions = await count(
    database,
    sql`select count(*)::int as n from institutions where rfc = 'BEN010101AA1'`,
  );
  if (institutions === 0) {
    await db.execute(sql`
      insert into institutions (razon_social, rfc, regimen_fiscal, cp)
      select (array['Universidad', 'Instituto', 'Laboratorio', 'Centro de Investigación', 'Hospital'])[1 + i % 5]
        || ' ' || (array['de Occidente', 'del Bajío', 'Tapatío', 'de Jalisco', 'del Pacífico', 'Regional'])[1 + i % 6]
        || ' ' || i, 'BEN010101AA1', '603', '44100'
      from generate_series(1, 150) i`);
  }
}

/**
 * One chunk of orders [from, from + n): created over the last DAYS days (more in recent months, on weekdays and
 * in office hours), in every state and payment method, with their lines, ledger and refunds.
 */
async function fillOrders(database: Database, from: number, n: number) {
  const { db } = database;
  const firstUser = await count(
    database,
    sql`select min(id)::int as n from users where email like 'bench%@example.mx'`,
  );
  const firstInstitution = await count(
    database,
    sql`select min(id)::int as n from institutions where rfc = 'BEN010101AA1'`,
  );
  await db.transaction(async (tx) => {
    await tx.execute(sql`select setseed(${(from % 997) / 997}::float8)`);
    await tx.execute(sql`
      create temporary table bench_o on commit drop as
      select ${FIRST_ORDER}::int + i as number, r1, r2, r3,
        -- Order numbers grow with time, as the shop's do; more orders in recent months.
        now() - make_interval(secs => power(1 - i / ${ORDERS}::float8, 1.3) * ${DAYS}::int * 86400
          + random() * 3600) as created_at,
        case when r1 < 0.78 then 'delivered' when r1 < 0.82 then 'shipped' when r1 < 0.84 then 'preparing'
          when r1 < 0.86 then 'paid' when r1 < 0.87 then 'partially_shipped' when r1 < 0.90 then 'cancelled'
          when r1 < 0.93 then 'payment_failed' when r1 < 0.94 then 'pending_payment' else 'delivered' end as status,
        case when r2 < 0.6 then 'card' when r2 < 0.85 then 'spei' when r2 < 0.95 then 'cash' else 'credit' end
          as method,
        ${firstUser}::int + (i * 7919) % 5000 as user_id,
        case when r3 < 0.2 then ${firstInstitution}::int + (i % 150) end
          as institution_id
      from (select i, random() as r1, random() as r2, random() as r3
            from generate_series(${from}::int, ${from + n - 1}::int) i) s`);
    // A cancelled order was paid first in half the cases (then refunded); the other half never was.
    await tx.execute(sql`
      insert into orders (number, user_id, status, subtotal_cents, shipping_cents, iva_cents, total_cents, address,
        idempotency_key, request_hash, payment_method, paid_at, shipped_at, cancelled_at, payment_due_at,
        institution_id, created_at, updated_at)
      select number, user_id,
        case when method = 'credit' and status in ('paid', 'payment_failed', 'pending_payment') then 'on_credit'
          else status end,
        0, 0, 0, 0, '{}'::jsonb, 'bench-' || number, 'x', method,
        case when method <> 'credit' and (status not in ('payment_failed', 'pending_payment', 'cancelled')
          or (status = 'cancelled' and r3 < 0.5)) then created_at + interval '20 minutes' end,
        case when status in ('shipped', 'delivered', 'partially_shipped') then created_at + interval '2 days' end,
        case when status = 'cancelled' then created_at + interval '1 day' end,
        case when status = 'pending_payment' then now() + interval '1 day' end,
        institution_id, created_at, created_at
      from bench_o`);
    await tx.execute(sql`
      insert into order_lines (order_number, line_no, product_code, description, unit_price_cents, quantity)
      select o.number, l, 'BD-' || (1 + floor(power(random(), 2.5) * ${PRODUCTS - 600}::int)::int),
        'Producto de prueba', 0, 1 + floor(random() * 6)::int
      from bench_o o, generate_series(1, 1 + floor(o.r2 * 10)::int % 4) l`);
    await tx.execute(sql`
      update order_lines ol set description = p.name, unit_price_cents = p.price_cents
      from products p where p.code = ol.product_code and ol.order_number between ${FIRST_ORDER + from}::int
        and ${FIRST_ORDER + from + n - 1}::int`);
    await tx.execute(sql`
      update orders o set subtotal_cents = t.s, total_cents = t.s, iva_cents = t.s - round(t.s / 1.16)
      from (select order_number, sum(unit_price_cents * quantity) as s from order_lines
            where order_number between ${FIRST_ORDER + from}::int and ${FIRST_ORDER + from + n - 1}::int
            group by order_number) t
      where o.number = t.order_number`);
    const actor = sql`'{"by":"system","userId":null,"label":"bench"}'::jsonb`;
    await tx.execute(sql`
      insert into order_ledger (order_number, kind, amount_cents, method, reference, actor, created_at)
      select number, case when payment_method = 'credit' then 'credit_sale' else 'charge' end, total_cents,
        case when payment_method = 'credit' then null else payment_method end, 'bench-ch-' || number, ${actor},
        coalesce(paid_at, created_at)
      from orders where number between ${FIRST_ORDER + from}::int and ${FIRST_ORDER + from + n - 1}::int
        and (paid_at is not null or status = 'on_credit' or (payment_method = 'credit' and status <> 'cancelled'))`);
    // Refunds: every paid order later cancelled, and a partial refund on 3 % of the rest.
    await tx.execute(sql`
      insert into order_refunds (order_number, route, amount_cents, state, reason, actor, created_at, done_at)
      select number, case when payment_method = 'card' then 'card' else 'transfer' end,
        case when status = 'cancelled' then total_cents else greatest(1, total_cents / 4) end,
        case when created_at > now() - interval '10 days' and payment_method <> 'card' then 'owed' else 'done' end,
        'bench', ${actor}, coalesce(cancelled_at, created_at + interval '5 days'),
        coalesce(cancelled_at, created_at + interval '5 days')
      from orders where number between ${FIRST_ORDER + from}::int and ${FIRST_ORDER + from + n - 1}::int
        and paid_at is not null and (status = 'cancelled' or number % 33 = 0)`);
    await tx.execute(sql`
      insert into order_ledger (order_number, kind, amount_cents, method, refund_id, reference, actor, created_at)
      select r.order_number, k.kind, r.amount_cents, r.route, r.id, 'bench-' || k.kind || '-' || r.id, ${actor},
        r.created_at
      from order_refunds r
      join (values ('refund_due'), ('refund')) k(kind) on k.kind = 'refund_due' or r.state = 'done'
      where r.order_number between ${FIRST_ORDER + from}::int and ${FIRST_ORDER + from + n - 1}::int`);
  });
}

async function fillTheRest(database: Database) {
  const { db } = database;
  await db.execute(sql`select setseed(0.5)`);
  // 20,000 quotations; a third converted into an order of theirs.
  await db.execute(sql`
    insert into quotations (folio, user_id, valid_until, buyer_name, order_number, converted_at, created_at)
    select 'COT-BENCH-' || i, o.user_id, o.created_at + interval '30 days', 'Cliente de prueba',
      case when i % 3 = 0 then o.number end, case when i % 3 = 0 then o.created_at end,
      o.created_at - interval '2 days'
    from generate_series(1, 20000) i join orders o on o.number = ${FIRST_ORDER}::int + i * 5`);
  await db.execute(sql`
    insert into quotation_revisions (quotation_id, revision, reason, lines, subtotal_cents, shipping_cents,
      iva_cents, total_cents, valid_until, created_at)
    select q.id, 1, 'created', '[]'::jsonb, o.total_cents, 0, 0,
      case when q.order_number is null then o.total_cents * 2 else o.total_cents end, q.valid_until, q.created_at
    from quotations q join orders o on o.number = ${FIRST_ORDER}::int + substr(q.folio, 11)::int * 5
    where q.folio like 'COT-BENCH-%'`);
  await db.execute(sql`
    insert into search_misses (day, term, results, searches)
    select (now() at time zone 'America/Mexico_City')::date - d,
      (array['acido perclorico', 'pipeta 7 ml', 'bureta digital', 'agar sangre', 'vaso dewar', 'crisol zirconio',
             'tamiz 400', 'balanza 0.01 mg', 'cloruro de cesio', 'medio mrs', 'filtro 0.1 um', 'placa 384'])[1 + t],
      t % 3, 1 + floor(random() * 6)::int
    from generate_series(0, ${DAYS}::int) d, generate_series(0, 11) t where random() < 0.4
    on conflict do nothing`);
  await db.execute(sql`
    insert into invoices (order_number, user_id, status, pac, rfc, nombre_fiscal, regimen_fiscal, uso_cfdi, forma_pago,
      cp, subtotal_cents, iva_cents, total_cents, issued_at, created_at)
    select number, user_id, case when number % 500 = 0 then 'pending' else 'issued' end, 'sandbox', 'XAXX010101000',
      'PRUEBA', '616', 'S01', '04', '44100', subtotal_cents - iva_cents, iva_cents, total_cents, paid_at, paid_at
    from orders where number >= ${FIRST_ORDER}::int and paid_at is not null and number % 4 = 0`);
  // As autovacuum would have by then: statistics and the visibility map (index-only scans need it).
  await db.execute(sql`vacuum analyze`);
}

async function prepare(database: Database) {
  await database.migrate();
  const had = await count(
    database,
    sql`select count(*)::int as n from orders where number >= ${FIRST_ORDER}::int`,
  );
  if (had >= ORDERS) {
    console.log(`Ya hay ${had.toLocaleString('es-MX')} pedidos de prueba: se miden tal cual.`);
    return;
  }
  const started = Date.now();
  await fillProducts(database);
  await fillPeople(database);
  const progress = createProgress('Pedidos');
  for (let from = had; from < ORDERS; from += CHUNK) {
    await fillOrders(database, from, Math.min(CHUNK, ORDERS - from));
    progress(Math.min(from + CHUNK, ORDERS), ORDERS);
  }
  console.log('Cotizaciones, búsquedas, facturas y VACUUM ANALYZE…');
  await fillTheRest(database);
  console.log(`Datos generados en ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/**
 * BENCH_EXPLAIN=1: the query functions are first run on a Db whose execute() asks for EXPLAIN ANALYZE of each of
 * their statements instead, and the plans are printed (the functions answer nonsense then; only the plans count).
 */
function explaining(db: Db): Db {
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop !== 'execute') return Reflect.get(target, prop, receiver);
      return async (query: SQL) => {
        const { rows } = await target.execute<{ 'QUERY PLAN': string }>(
          sql`explain (analyze, costs off) ${query}`,
        );
        console.log(rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n'));
        return { rows: [] };
      };
    },
  });
}

async function measure(name: string, run: (db: Db) => Promise<unknown>, db: Db) {
  if (process.env.BENCH_EXPLAIN === '1') {
    console.log(`— EXPLAIN ${name}`);
    await run(explaining(db)).catch(() => undefined);
  }
  for (let i = 0; i < 2; i++) await run(db);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await run(db);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const f = (ms: number) => `${ms.toFixed(1).padStart(7)} ms`;
  const verdict = pct(times, 0.95) < 200 ? 'ok' : 'SOBRE 200 ms';
  console.log(
    `${name.padEnd(34)} p50 ${f(pct(times, 0.5))}  p95 ${f(pct(times, 0.95))}  máx ${f(times.at(-1)!)}  ${verdict}`,
  );
}

async function main() {
  const dir = ENGINE === 'pglite' ? mkdtempSync(join(tmpdir(), 'bench-dashboard-')) : null;
  if (!dir) await createDatabaseIfMissing(DATABASE_URL);
  const database = await openDatabase(
    dir ? { dataDir: join(dir, 'pglite') } : { databaseUrl: DATABASE_URL, maxConnections: 10 },
  );
  try {
    console.log(
      `Tablero: ${PRODUCTS.toLocaleString('es-MX')} productos, ${ORDERS.toLocaleString('es-MX')} pedidos en ${DAYS} días, ${ENGINE}; ${cpus().length} CPU, carga ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    await prepare(database);
    const { db } = database;
    const now = new Date();
    const { today, window } = dashboardWindows(now);
    const from30 = window(30).current.from;
    console.log(`\n${RUNS} corridas por consulta (después de 2 de calentamiento):`);
    await measure('ventas (periodos, días, formas)', (d) => salesFigures(d, now), db);
    await measure('categorías y productos', (d) => linesSold(d, now), db);
    await measure('instituciones', (d) => topInstitutions(d, now), db);
    await measure('pedidos por estado', (d) => ordersByStatus(d, from30, now), db);
    await measure('cotizaciones', (d) => quotationConversion(d, from30, now), db);
    await measure('búsquedas sin resultados', (d) => listMisses(d, 30, { limit: 10, today }), db);
    await measure('pendientes (colas)', (d) => waitingQueues(d), db);
    await measure('tablero completo (servicio)', (d) => dashboard(d, now), db);
    const app = await buildApp(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }), { database });
    await app.ready();
    await db.execute(sql`
      insert into users (email, password_hash, nombre, apellido_pat, telefono, role, staff_role)
      values ('tablero.bench@ciencia-occidente.mx', 'x', 'Personal', 'Bench', '3300000000', 'staff', 'administrador')
      on conflict do nothing`);
    await db.execute(sql`update users set staff_role = 'administrador'
      where email = 'tablero.bench@ciencia-occidente.mx' and staff_role is null`);
    const [staff] = (
      await db.execute<{ id: number }>(
        sql`select id from users where email = 'tablero.bench@ciencia-occidente.mx'`,
      )
    ).rows;
    // A staff session that has passed the second factor (decision 064), as after signing in.
    const session = await createSession(db, staff!.id, {}, { secondFactorAt: new Date() });
    const cookie = `${sessionCookieName(app.config)}=${session.token}`;
    process.env.BENCH_EXPLAIN = '';
    await measure(
      'GET /api/admin/dashboard',
      async () => {
        const res = await app.inject({ url: '/api/admin/dashboard', headers: { cookie } });
        if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body.slice(0, 200)}`);
      },
      db,
    );
    await app.close();
  } finally {
    await database.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
