// npm run bench: the server's speed, measured with autocannon on 127.0.0.1 (each case bounded in time).
//
//   1. The catalogue listings and searches at 200,000 products: scripts/bench-catalog.ts (run as is).
//   2. On the same database, the real server (`npx tsx src/server/main.ts`, NODE_ENV=production) with 1
//      and with 2 worker processes (WEB_CONCURRENCY): product detail (random products among the
//      200,000); the server-rendered HTML of a group page and of a product page beside the JSON API
//      answer the same page is made of (both gzip, target HTML p99 ≤ 2.5 × API p99, docs/decisions/012;
//      the two measured in turns, so that both see the same machine: bench-measure.ts, docs/decisions/043);
//      cart quote (3 lines) and order placement with the sandbox gateway (many shoppers with
//      an address and a session made up front, one card token and one Idempotency-Key per request,
//      stock big enough) — p50/p95/p99 and requests/s; then the orders are checked against the answers.
//   3. The embedded database: first start (migrations + demo catalogue) and restarts, until /readyz.
//
//   DATABASE_URL        PostgreSQL database (default postgres://postgres@127.0.0.1:5432/tienda_bench)
//   BENCH_PRODUCTS      catalogue size (default 200000)
//   BENCH_SECONDS       seconds per measured case (default 8; 1 s of warm-up before each)
//   BENCH_CONNECTIONS   concurrent connections (default 10)
//   BENCH_WORKERS       worker counts to measure, e.g. "1" or "1,2" (default "1,2")
//   BENCH_PORT          first port used (default 3191; the startup runs use the next one)
//   BENCH_SKIP=catalog,server,startup   parts to skip
//   BENCH_CASES         only the server cases whose name contains one of these, e.g. "HTML,API JSON"
//   BENCH_CPU_PROF      a folder: run the server under node --cpu-prof (open the .cpuprofile in DevTools)
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { createSession } from '../src/server/auth/session.ts';
import { seedDemoCatalogue } from '../src/server/catalog/demo/seed.ts';
import { type Database, type Db, openDatabase } from '../src/server/db/client.ts';
import {
  orders,
  products,
  sandboxTokens,
  shippingAddresses,
  stockMovements,
  users,
} from '../src/server/db/schema.ts';
import { createDatabaseIfMissing } from './bench-db.ts';
import { type Figures, groupCpuMs, measure, measureInTurns, type RequestSpec } from './bench-measure.ts';
import { createProgress } from './progress.ts';

const root = resolve(import.meta.dirname, '..');
const DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/tienda_bench';
const PRODUCTS = Number(process.env.BENCH_PRODUCTS || 200_000);
const SECONDS = Number(process.env.BENCH_SECONDS || 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 10);
const WORKERS = (process.env.BENCH_WORKERS || '1,2').split(',').map((n) => Number(n.trim()));
const PORT = Number(process.env.BENCH_PORT || 3191);
const SKIP = new Set((process.env.BENCH_SKIP ?? '').split(',').map((s) => s.trim()));
const ONLY = process.env.BENCH_CASES?.split(',').map((s) => s.trim());
const SHOPPERS = 400;
const HOT_PRODUCTS = 50;
const ORDER_TARGET_P95 = 100;
/** Server rendering's cost: the HTML's p99 at most this many times the p99 of the JSON it is made of. */
const HTML_TARGET_RATIO = 2.5;
/** Seconds of warm-up before each case; cases compared are measured in this many turns (bench-measure.ts). */
const WARM_SECONDS = 1;
const TURNS = 4;
/** The group page measured (the bench catalogue's biggest sub-group, as in bench-catalog.ts). */
const BENCH_GROUP = 'VID-MAT';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '—');
const cpuPerRequest = (f: { cpuMs?: number }) => (f.cpuMs === undefined ? '—' : f.cpuMs.toFixed(2));

// ───────────────────────────── processes ─────────────────────────────

type Server = { child: ChildProcess; output: () => string; stop: () => Promise<void> };

function startServer(env: Record<string, string>): Server {
  // BENCH_CPU_PROF=<dir>: the server runs under `node --cpu-prof` (one .cpuprofile per process, at exit).
  const profile = process.env.BENCH_CPU_PROF;
  const [command, args] = profile
    ? [
        process.execPath,
        ['--cpu-prof', `--cpu-prof-dir=${resolve(profile)}`, '--import', 'tsx', 'src/server/main.ts'],
      ]
    : ['npx', ['tsx', 'src/server/main.ts']];
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', CLIENT_DIR: 'none', ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  return {
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {}
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {}
      }, 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function waitReady(base: string, server: Server, timeoutMs = 300_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`el servidor terminó:\n${server.output()}`);
    try {
      const res = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
    } catch {}
    await sleep(25);
  }
  throw new Error(`el servidor no estuvo listo en ${timeoutMs / 1000} s:\n${server.output()}`);
}

function runCatalogueBenchmark(): Promise<void> {
  return new Promise((ok, ko) => {
    const child = spawn('npx', ['tsx', 'scripts/bench-catalog.ts'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL, BENCH_PRODUCTS: String(PRODUCTS) },
      stdio: 'inherit',
    });
    child.on('exit', (code) => (code === 0 ? ok() : ko(new Error(`bench-catalog terminó con ${code}`))));
  });
}

// ───────────────────────────── database and fixtures ─────────────────────────────

async function ensureDatabase(): Promise<Database> {
  await createDatabaseIfMissing(DATABASE_URL);
  const database = await openDatabase({ databaseUrl: DATABASE_URL, maxConnections: 4 });
  await database.migrate();
  const [{ n } = { n: 0 }] = (
    await database.db.execute<{ n: number }>(sql`select count(*)::int as n from products`)
  ).rows;
  if (Number(n) < PRODUCTS)
    await seedDemoCatalogue(database.db, { products: PRODUCTS, onProgress: createProgress('Catálogo') });
  return database;
}

type Fixtures = { cookies: string[]; hot: string[]; detailCodes: string[]; runTag: string };

/** Shoppers with an address and a live session; hot products with a big stock (the ledger says so). */
async function prepareFixtures(db: Db): Promise<Fixtures> {
  const runTag = randomBytes(4).toString('hex');
  const created = await db
    .insert(users)
    .values(
      Array.from({ length: SHOPPERS }, (_, i) => ({
        email: `bench.${runTag}.${i}@example.com`,
        passwordHash: 'x',
        nombre: 'Comprador',
        apellidoPat: 'De Prueba',
        apellidoMat: 'Carga',
        telefono: '3312345678',
      })),
    )
    .returning({ id: users.id });
  await db.insert(shippingAddresses).values(
    created.map((u) => ({
      userId: u.id,
      nombreEnvio: 'Comprador De Prueba',
      telefonoEnvio: '3312345678',
      cpEnvio: '44100',
      calleEnvio: 'Avenida Juárez',
      numExtEnvio: '120',
      numIntEnvio: '',
      coloniaEnvio: 'Centro',
      municipioEnvio: 'Guadalajara',
      ciudadEnvio: 'Guadalajara',
      estadoEnvio: 'Jalisco',
      paisEnvio: 'México',
    })),
  );
  const cookies: string[] = [];
  for (const u of created) cookies.push(`__Host-sid=${(await createSession(db, u.id)).token}`);

  // Hot products: active, with a weight, stock raised to 10 million through a ledger adjustment.
  const hot = (
    await db.execute<{ code: string; stock: number }>(
      sql`select code, stock from products where active and price_cents > 0 order by code limit ${HOT_PRODUCTS}`,
    )
  ).rows;
  for (const p of hot) {
    const delta = 10_000_000 - Number(p.stock);
    if (delta === 0) continue;
    await db.transaction(async (tx) => {
      await tx.update(products).set({ stock: 10_000_000 }).where(eq(products.code, p.code));
      await tx.insert(stockMovements).values({ productCode: p.code, delta, reason: 'adjustment' });
    });
  }
  const detail = (
    await db.execute<{ code: string }>(
      sql`select code from products where active order by random() limit 2000`,
    )
  ).rows;
  return { cookies, hot: hot.map((p) => p.code), detailCodes: detail.map((d) => d.code), runTag };
}

/** Single-use card tokens of the sandbox gateway (what the card form gets from tokenization). */
async function makeTokens(db: Db, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, () => `kbench${randomBytes(8).toString('hex')}`);
  const expiresAt = new Date(Date.now() + 60 * 60_000);
  for (let i = 0; i < ids.length; i += 1000) {
    await db.insert(sandboxTokens).values(
      ids.slice(i, i + 1000).map((id) => ({
        id,
        holderName: 'Comprador De Prueba',
        brand: 'visa',
        maskedNumber: '411111XXXXXX1111',
        outcome: 'approve',
        expiresAt,
      })),
    );
  }
  return ids;
}

const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;

/** A case; cases with the same `compare` are measured in turns (bench-measure.ts), a page's HTML beside its API. */
type Case = { name: string; spec: RequestSpec; ok: number; compare?: string };

function cases(f: Fixtures, tokens: string[]): Case[] {
  let shopper = 0;
  return [
    {
      name: 'detalle de producto',
      ok: 200,
      spec: {
        method: 'GET',
        path: '/api/products/x',
        setup: () => ({ path: `/api/products/${pick(f.detailCodes)}` }),
      },
    },
    // Each page twice: the server-rendered HTML, and the JSON API answer it is made of (same compression).
    ...(
      [
        ['grupo — HTML', `/grupos/${BENCH_GROUP}`],
        ['grupo — API JSON', `/api/products?group=${BENCH_GROUP}`],
      ] as const
    ).map(([name, path]) => ({
      name,
      ok: 200,
      compare: 'grupo',
      spec: { method: 'GET' as const, path, setup: () => ({ headers: { 'accept-encoding': 'gzip' } }) },
    })),
    ...(
      [
        ['producto — HTML', '/productos/'],
        ['producto — API JSON', '/api/products/'],
      ] as const
    ).map(([name, prefix]) => ({
      name,
      ok: 200,
      compare: 'producto',
      spec: {
        method: 'GET' as const,
        path: prefix,
        setup: () => ({ path: `${prefix}${pick(f.detailCodes)}`, headers: { 'accept-encoding': 'gzip' } }),
      },
    })),
    {
      name: 'cotización del carrito (3 líneas)',
      ok: 200,
      spec: {
        method: 'POST',
        path: '/api/cart/quote',
        setup: () => ({
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            items: [...new Set([pick(f.detailCodes), pick(f.detailCodes), pick(f.hot)])].map((code, i) => ({
              code,
              quantity: i + 1,
            })),
            postalCode: '44100',
          }),
        }),
      },
    },
    {
      name: 'compra (sandbox)',
      ok: 201,
      spec: {
        method: 'POST',
        path: '/api/orders',
        setup: () => {
          const token = tokens.pop();
          if (!token) throw new Error('se acabaron los tokens de tarjeta');
          shopper = (shopper + 1) % f.cookies.length;
          const lines = Math.random() < 0.5 ? 1 : 2;
          const codes = new Set<string>();
          while (codes.size < lines) codes.add(pick(f.hot));
          return {
            headers: {
              'content-type': 'application/json',
              cookie: f.cookies[shopper]!,
              'idempotency-key': randomUUID(),
            },
            body: JSON.stringify({
              items: [...codes].map((code) => ({ code, quantity: 1 + Math.floor(Math.random() * 3) })),
              cardToken: token,
              deviceSessionId: `bench-${shopper}`,
            }),
          };
        },
      },
    },
  ];
}

type Row = { workers: number; connections: number; name: string; f: Figures; ok: number; warm: number };

async function serverBenchmarks(database: Database): Promise<Row[]> {
  // The server renders pages with the built client's index.html and manifest: build it when it is missing or old.
  const build = spawnSync('node', ['scripts/ensure-build.mjs'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('no se pudo compilar el cliente');
  console.log('\nPreparando compradores, existencias y tokens…');
  const fixtures = await prepareFixtures(database.db);
  const out: Row[] = [];
  for (const workers of WORKERS) {
    const base = `http://127.0.0.1:${PORT}`;
    const server = startServer({
      NODE_ENV: 'production',
      PAYMENTS_SANDBOX_IN_PRODUCTION: 'true',
      CFDI_SANDBOX_IN_PRODUCTION: 'true',
      // Production starts only with these explicit (issue 23): reached directly; mail to a closed port.
      TRUST_PROXY: '0',
      SMTP_URL: 'smtp://127.0.0.1:9',
      PORT: String(PORT),
      PUBLIC_URL: base,
      DATABASE_URL,
      CLIENT_DIR: 'dist/client',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      WEB_CONCURRENCY: String(workers),
    });
    try {
      await waitReady(base, server);
      // Every worker listening (the primary logs nothing at warn; give the second one its start).
      if (workers > 1) await sleep(3000);
      console.log(
        `\nServidor con ${workers} ${workers === 1 ? 'proceso' : 'procesos de trabajo'} (${SECONDS} s por caso)`,
      );
      // Enough single-use tokens for the warm-up and the measured seconds at a generous rate.
      const tokens = await makeTokens(database.db, (SECONDS + 1) * 1500 * workers);
      // With the first worker count, each case also one request at a time: the latency without queueing.
      const runs = workers === WORKERS[0] ? [CONNECTIONS, 1] : [CONNECTIONS];
      const cpu = () => groupCpuMs(server.child.pid!);
      const all = cases(fixtures, tokens).filter((c) => !ONLY || ONLY.some((o) => c.name.includes(o)));
      for (const [at, c] of all.entries()) {
        // A case compared with others is measured with them, in turns, at the first of them.
        if (c.compare && all.findIndex((o) => o.compare === c.compare) !== at) continue;
        const group = c.compare ? all.filter((o) => o.compare === c.compare) : [c];
        for (const connections of runs) {
          const warm: Figures[] = [];
          for (const g of group) warm.push(await measure(base, g.spec, WARM_SECONDS, connections));
          const measured =
            group.length > 1
              ? await measureInTurns(
                  base,
                  group.map((g) => g.spec),
                  SECONDS,
                  connections,
                  TURNS,
                  cpu,
                )
              : [await measure(base, c.spec, SECONDS, connections, cpu)];
          for (const [i, g] of group.entries()) {
            const f = measured[i]!;
            out.push({ workers, connections, name: g.name, f, ok: g.ok, warm: warm[i]?.statuses[g.ok] ?? 0 });
            const bad = Object.entries(f.statuses)
              .filter(([st]) => Number(st) !== g.ok)
              .map(([st, n]) => `${n}×${st}`)
              .join(' ');
            console.log(
              `  ${g.name.padEnd(34)} ${String(connections).padStart(2)} con.  p50 ${ms(f.p50).padStart(6)} ms  p95 ${ms(f.p95).padStart(6)} ms  p99 ${ms(f.p99).padStart(6)} ms  ${f.rps.toFixed(0).padStart(5)} req/s  CPU ${cpuPerRequest(f)} ms/req  carga ${loadavg()[0]!.toFixed(1)}${bad ? `  otras respuestas: ${bad}` : ''}${f.errors ? `  ${f.errors} errores` : ''}`,
            );
          }
        }
      }
    } finally {
      await server.stop();
    }
  }

  // The orders the bench made: one per 201, paid, and the hot products' ledgers still balance.
  const db = database.db;
  const shopperIds = db
    .select({ id: users.id })
    .from(users)
    .where(sql`${users.email} like ${`bench.${fixtures.runTag}.%`}`);
  const [made] = (
    await db.execute<{
      n: number;
      paid: number;
    }>(sql`select count(*)::int as n, count(*) filter (where status = 'paid')::int as paid from ${orders}
        where user_id in (${shopperIds})`)
  ).rows;
  const buys = out.filter((r) => r.name.startsWith('compra'));
  const created = buys.reduce((a, r) => a + (r.f.statuses[201] ?? 0) + r.warm, 0);
  const unbalanced = (
    await db.execute<{ code: string }>(sql`select p.code from products p where p.code in ${fixtures.hot}
        and p.stock <> (select coalesce(sum(delta), 0) from stock_movements m where m.product_code = p.code)`)
  ).rows;
  // autocannon ends each run by dropping its connections: a purchase in flight at that moment has no
  // counted answer (at most one per connection); it ends paid or, if the server stopped under it, stays
  // pending until the sweeper releases it.
  console.log(
    `\nComprobación: ${created} respuestas 201 (con el calentamiento) → ${made!.paid} pedidos pagados de ` +
      `${made!.n} creados (cortados al terminar cada corrida: ${made!.n - created}, máximo ${buys.reduce((a, r) => a + r.connections * 2, 0)}); ` +
      `existencias = libro en los ${fixtures.hot.length} productos: ${unbalanced.length === 0 ? 'sí' : `NO (${unbalanced.map((u) => u.code).join(', ')})`}`,
  );
  // Leave the bench database as it was: the bench shoppers' sessions go; orders stay as history.
  await db.execute(sql`delete from sessions where user_id in (${shopperIds})`);
  await db
    .delete(sandboxTokens)
    .where(and(sql`${sandboxTokens.id} like 'kbench%'`, sql`${sandboxTokens.usedAt} is null`));
  return out;
}

// ───────────────────────────── embedded start ─────────────────────────────

async function startupBenchmarks() {
  const dataDir = mkdtempSync(join(tmpdir(), 'tienda-bench-start-'));
  const port = PORT + 1;
  const base = `http://127.0.0.1:${port}`;
  const results: { name: string; wall: number; own: number | null }[] = [];
  try {
    for (const name of ['primer arranque (migraciones + catálogo demo de 600)', 'reinicio', 'reinicio']) {
      const started = Date.now();
      const server = startServer({
        PORT: String(port),
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        LOG_LEVEL: 'info',
        NODE_ENV: 'development',
        WEB_CONCURRENCY: '',
      });
      await waitReady(base, server);
      const wall = Date.now() - started;
      const ready = server
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg: string; ms?: number })
        .find((l) => l.msg === 'tienda lista');
      results.push({ name, wall, own: ready?.ms ?? null });
      console.log(
        `  ${name.padEnd(54)} ${(wall / 1000).toFixed(1)} s hasta /readyz (el servidor: ${ready?.ms ?? '—'} ms)`,
      );
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return results;
}

// ───────────────────────────── main ─────────────────────────────

async function main() {
  const cpu = cpus();
  console.log(
    `Máquina: ${cpu.length} núcleos (${cpu[0]?.model.trim()}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ` +
      `carga ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}, Node ${process.version}`,
  );

  if (!SKIP.has('catalog')) {
    console.log('\n━━ 1. Catálogo (scripts/bench-catalog.ts) ━━');
    await runCatalogueBenchmark();
  }

  let rowsOut: Row[] = [];
  if (!SKIP.has('server')) {
    console.log('\n━━ 2. Detalle, cotización y compra ━━');
    const database = await ensureDatabase();
    const [{ v } = { v: '?' }] = (
      await database.db.execute<{ v: string }>(sql`select current_setting('server_version') as v`)
    ).rows;
    const [{ n } = { n: 0 }] = (
      await database.db.execute<{ n: number }>(sql`select count(*)::int as n from products where active`)
    ).rows;
    console.log(`PostgreSQL ${v}, ${Number(n).toLocaleString('es-MX')} productos activos`);
    try {
      rowsOut = await serverBenchmarks(database);
    } finally {
      await database.close();
    }
  }

  let starts: Awaited<ReturnType<typeof startupBenchmarks>> = [];
  if (!SKIP.has('startup')) {
    console.log('\n━━ 3. Arranque con la base embebida (PGlite) ━━');
    starts = await startupBenchmarks();
  }

  if (rowsOut.length > 0) {
    console.log(
      '\n| Procesos | Conexiones | Caso | p50 ms | p95 ms | p99 ms | req/s | CPU del servidor ms/req | respuestas |\n|---:|---:|---|---:|---:|---:|---:|---:|---|',
    );
    for (const r of rowsOut) {
      const answers = Object.entries(r.f.statuses)
        .map(([s, c]) => `${c}×${s}`)
        .join(', ');
      console.log(
        `| ${r.workers} | ${r.connections} | ${r.name} | ${ms(r.f.p50)} | ${ms(r.f.p95)} | ${ms(r.f.p99)} | ${r.f.rps.toFixed(0)} | ${cpuPerRequest(r.f)} | ${answers} |`,
      );
    }
    for (const page of ['grupo', 'producto']) {
      for (const html of rowsOut.filter((r) => r.name === `${page} — HTML`)) {
        const api = rowsOut.find(
          (r) =>
            r.name === `${page} — API JSON` &&
            r.workers === html.workers &&
            r.connections === html.connections,
        );
        if (!api) continue;
        const ratio = html.f.p99 / api.f.p99;
        console.log(
          `${page === 'grupo' ? `Grupo ${BENCH_GROUP}` : 'Producto'} con ${html.workers} proceso(s) y ${html.connections} conexión(es): ` +
            `HTML p99 ${ms(html.f.p99)} ms = ${ratio.toFixed(2)} × API p99 ${ms(api.f.p99)} ms ` +
            `${ratio <= HTML_TARGET_RATIO ? '✓' : '✗'} (objetivo ≤ ${HTML_TARGET_RATIO}×)`,
        );
      }
    }
    for (const r of rowsOut.filter((x) => x.name.startsWith('compra'))) {
      console.log(
        `Compra con ${r.workers} proceso(s) y ${r.connections} conexión(es): p95 ${ms(r.f.p95)} ms ${r.f.p95 <= ORDER_TARGET_P95 ? '✓' : '✗'} (objetivo ≤ ${ORDER_TARGET_P95} ms)`,
      );
    }
  }
  if (starts.length > 0) {
    console.log('\n| Arranque (PGlite) | hasta /readyz | el servidor |\n|---|---:|---:|');
    for (const s of starts)
      console.log(`| ${s.name} | ${(s.wall / 1000).toFixed(1)} s | ${s.own ?? '—'} ms |`);
  }
}

await main();
