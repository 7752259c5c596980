// npm run bench:catalog: the catalogue API at 200,000 products on PostgreSQL, measured with autocannon.
//
//   DATABASE_URL   PostgreSQL database to use (default postgres://postgres@127.0.0.1:5432/tienda_bench,
//                  created when missing); the demo catalogue is filled up to BENCH_PRODUCTS (idempotent).
//   BENCH_PRODUCTS products to generate (default 200000)
//   BENCH_SECONDS  seconds per measured case (default 5); 10 connections each.
//   BENCH_ONLY     measure only the cases and suggestion prefixes whose name contains one of these texts
//                  (comma-separated, e.g. 'grupo,marca,sugerencias').
//   BENCH_DB       'pglite' measures only the suggestions' rounds (below) on the embedded database in
//                  BENCH_DATA_DIR (default ./data/bench; filled up to BENCH_PRODUCTS like the PostgreSQL one),
//                  through the app in-process (app.inject): the load generator and PostgreSQL's counters are
//                  for PostgreSQL only.
//
// Suggestions are measured twice: 10 connections on a few prefixes asked again and again (the header's box,
// answers kept per prefix and catalogue version), and in three rounds one request at a time over SUGGEST_ROUNDS
// prefixes — each asked the first time since the last catalogue change, each asked again, and each asked
// again after a price change (a catalogue change, as an import makes) — printed side by side.
//
// Beside the latencies, which depend on whatever else the machine runs, each case prints what the server
// did per request: database queries, rows they returned and the server process's CPU time (user + system).
//
// The parent process prepares the database and drives autocannon; the server runs in a child process so
// the load generator does not share the server's event loop. For each case it measures the real endpoint,
// the same JSON bytes answered from memory (the framework's ceiling) and, for searches, the naive
// ILIKE '%q%' plan behind the same endpoint code.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';
import { or, type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../src/server/app.ts';
import { seedDemoCatalogue } from '../src/server/catalog/demo/seed.ts';
import { listProducts } from '../src/server/catalog/listing.ts';
import type { Search } from '../src/server/catalog/search.ts';
import { loadConfig } from '../src/server/config.ts';
import type { Database, Db } from '../src/server/db/client.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { products } from '../src/server/db/schema.ts';
import { productsQuerySchema } from '../src/shared/schemas/catalog.ts';
import { createDatabaseIfMissing } from './bench-db.ts';
import { createProgress } from './progress.ts';

const DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/tienda_bench';
const PRODUCTS = Number(process.env.BENCH_PRODUCTS || 200_000);
const SECONDS = Number(process.env.BENCH_SECONDS || 5);
const CONNECTIONS = 10;
const ONLY = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
const chosen = (name: string) => ONLY.length === 0 || ONLY.some((o) => name.includes(o));

type Case = { name: string; path: string; search: boolean };
const cases: Case[] = [
  { name: 'grupo (VID-MAT)', path: '/api/products?group=VID-MAT', search: false },
  { name: 'marca (Cristalux)', path: '/api/products?brand=Cristalux', search: false },
  { name: "búsqueda 'matraz'", path: '/api/products?q=matraz', search: true },
  { name: "búsqueda con error 'balansa'", path: '/api/products?q=balansa', search: true },
  { name: "búsqueda por código 'crx-10000'", path: '/api/products?q=crx-10000', search: true },
];

/** Prefixes as typed in the header's box (measured with 10 connections), and prefixes asked once per round. */
const suggestPrefixes = ['ba', 'balan', 'matraz erl', 'quim', 'crx-100'];
/** The first-seen target (issue 39): every suggestion, first-seen or repeated, p95 ≤ 30 ms at 200,000 products. */
const SUGGEST_TARGET_MS = 30;
const coldPrefixes = [
  'pi',
  'pip',
  'pipe',
  'pipet',
  'gu',
  'gua',
  'guant',
  'ac',
  'aci',
  'acid',
  'acido s',
  'ce',
  'cen',
  'centr',
  'vaso',
  'vaso de',
  'pro',
  'probe',
  'lbn-1',
  'lbn-10',
  // Unusual words and identifiers: broad two-letter starts, a typo, a synonym, a CAS number, a formula, a
  // presentation's code, words the catalogue lacks.
  'de',
  'co',
  'ñandú',
  'permang',
  'balansa',
  'acido muriat',
  '7647-01',
  'h2so4',
  'crx-10000-2',
  'zirconio',
];

/** The naive plan: every searchable column with ILIKE '%q%' (no index can serve it), code order. */
async function ilikeSearch(_db: Db, q: string): Promise<Search | 'none'> {
  const pattern = `%${q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const where = or(
    sql`${products.code} ilike ${pattern}`,
    sql`${products.name} ilike ${pattern}`,
    sql`${products.brand} ilike ${pattern}`,
    sql`${products.line} ilike ${pattern}`,
    sql`${products.type} ilike ${pattern}`,
    sql`${products.shortDesc} ilike ${pattern}`,
    sql`${products.longDescHtml} ilike ${pattern}`,
  ) as SQL;
  return { where, rank: sql`0`, tsquery: '', corrected: false, note: null };
}

/** What the server did, counted in its own process (asked for with the message 'work'). */
type Work = { queries: number; rows: number; cpuMicros: number };

// ───────────────────────────── server (child process) ─────────────────────────────
async function serve() {
  // Every query the app sends goes through the pool (drizzle's node-postgres session calls pool.query).
  const work = { queries: 0, rows: 0 };
  const poolQuery = pg.Pool.prototype.query as (...args: unknown[]) => unknown;
  pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
    work.queries++;
    const result = poolQuery.apply(this, args);
    if (result instanceof Promise) {
      result.then(
        (r: { rows?: unknown[] }) => {
          work.rows += r?.rows?.length ?? 0;
        },
        () => {},
      );
    }
    return result;
  } as typeof pg.Pool.prototype.query;
  const config = { ...loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'silent' }), clientDir: undefined };
  const database = await openDatabase({ databaseUrl: DATABASE_URL, maxConnections: 10 });
  const app = await buildApp(config, { database });
  const memory = new Map<string, string>();
  app.get('/bench/memory/:n', { schema: { hide: true } }, async (request, reply) => {
    const body = memory.get((request.params as { n: string }).n);
    return reply.type('application/json; charset=utf-8').send(body);
  });
  app.get('/bench/ilike', { schema: { hide: true } }, async (request) => {
    const query = productsQuerySchema.parse(request.query);
    return listProducts(app.db, query, { explicitSort: true, buildSearch: ilikeSearch });
  });
  // The API's own plan with nothing kept between requests: what the first request of a selection after a
  // catalogue change costs.
  app.get('/bench/cold', { schema: { hide: true } }, async (request) => {
    const query = productsQuerySchema.parse(request.query);
    const explicitSort = new URL(request.url, 'http://x').searchParams.has('sort');
    return listProducts(app.db, query, { explicitSort, cache: false });
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  for (const [i, c] of cases.entries()) memory.set(String(i), (await app.inject(c.path)).body);
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.send?.({ port });
  process.on('message', async (m) => {
    if (m === 'work') {
      const cpu = process.cpuUsage();
      process.send?.({ work: { ...work, cpuMicros: cpu.user + cpu.system } satisfies Work });
    }
    if (m === 'stop') {
      await app.close();
      await database.close();
      process.exit(0);
    }
  });
}

// ───────────────────────────── driver (parent process) ─────────────────────────────
/**
 * Migrates and fills a database up to PRODUCTS (idempotent), then leaves fresh statistics and visibility map on
 * the tables the catalogue reads, as autovacuum would on a live database. Returns the active products.
 */
async function fillCatalogue(database: Database): Promise<number> {
  await database.migrate();
  const started = Date.now();
  const { inserted } = await seedDemoCatalogue(database.db, {
    products: PRODUCTS,
    onProgress: createProgress('Catálogo'),
    presentations: true,
  });
  if (inserted > 0)
    console.log(`${inserted} productos nuevos en ${((Date.now() - started) / 1000).toFixed(0)} s`);
  for (const table of ['products', 'search_words', 'product_suggest', 'product_suggest_terms']) {
    await database.db.execute(sql.raw(`vacuum analyze ${table}`));
  }
  const { rows } = await database.db.execute<{ n: number }>(
    sql`select count(*)::int as n from products where active`,
  );
  return rows[0]?.n ?? 0;
}

async function ensureDatabase() {
  await createDatabaseIfMissing(DATABASE_URL);
  const database = await openDatabase({ databaseUrl: DATABASE_URL });
  try {
    return await fillCatalogue(database);
  } finally {
    await database.close();
  }
}

type Figures = {
  p50: number;
  p95: number;
  p99: number;
  rps: number;
  errors: number;
  bytes: number;
  /** Per request, counted by the server: queries sent, rows they returned, CPU milliseconds. */
  queries: number;
  rows: number;
  cpuMs: number;
  /** Per request, CPU milliseconds of the database's server processes (NaN when PostgreSQL runs elsewhere). */
  pgCpuMs: number;
};

/**
 * CPU time so far (ms) of each PostgreSQL process serving the benchmark database, read from /proc: the part
 * of a request's cost that the Node process does not see (planning, execution). Empty when not readable.
 */
async function databaseCpu(): Promise<Map<number, number>> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      `select pid from pg_stat_activity
       where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`,
    );
    const cpu = new Map<number, number>();
    for (const { pid } of rows) {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        // utime and stime, in clock ticks of 10 ms (fields 14 and 15 of proc(5)).
        cpu.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
      } catch {
        // Another machine's or a finished process: not counted.
      }
    }
    return cpu;
  } finally {
    await client.end();
  }
}

function cpuSince(before: Map<number, number>, after: Map<number, number>): number {
  if (after.size === 0) return Number.NaN;
  let ms = 0;
  for (const [pid, t] of after) ms += t - (before.get(pid) ?? 0);
  return ms;
}

let server: ReturnType<typeof fork> | undefined;

/** The server's counters now. */
function serverWork(): Promise<Work> {
  return new Promise((resolve) => {
    const onMessage = (m: unknown) => {
      if (m && typeof m === 'object' && 'work' in m) {
        server!.off('message', onMessage);
        resolve((m as { work: Work }).work);
      }
    };
    server!.on('message', onMessage);
    server!.send('work');
  });
}

function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function measure(url: string, seconds: number): Promise<Figures> {
  const times: number[] = [];
  let bytes = 0;
  const before = await serverWork();
  const pgBefore = await databaseCpu();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, connections: CONNECTIONS, duration: seconds }, (err, res) =>
      err ? reject(err) : resolve(res),
    );
    instance.on('response', (_client, _status, resBytes, responseTime) => {
      times.push(responseTime);
      bytes = resBytes;
    });
  });
  const after = await serverWork();
  const pgAfter = await databaseCpu();
  // Requests autocannon gave up on may still run (the naive plan): their work counts until this moment.
  const n = Math.max(1, times.length);
  times.sort((a, b) => a - b);
  return {
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    rps: result.requests.average,
    errors: result.errors + result.non2xx + result.timeouts,
    bytes,
    queries: (after.queries - before.queries) / n,
    rows: (after.rows - before.rows) / n,
    cpuMs: (after.cpuMicros - before.cpuMicros) / 1000 / n,
    pgCpuMs: cpuSince(pgBefore, pgAfter) / n,
  };
}

/** One request at a time (no queueing): the latency of the plan itself, used for the ILIKE comparison. */
async function sequential(url: string, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return percentile(times, 50);
}

/**
 * Waits until the benchmark database runs no query: requests autocannon gave up on (the naive plan) keep
 * their queries running after a case ends and would otherwise slow the next case down.
 */
async function waitForIdleDatabase() {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const deadline = Date.now() + 180_000;
    let quiet = 0;
    while (quiet < 2 && Date.now() < deadline) {
      const { rows } = await client.query(
        `select count(*)::int as n from pg_stat_activity
         where datname = current_database() and state = 'active' and pid <> pg_backend_pid()`,
      );
      quiet = rows[0].n === 0 ? quiet + 1 : 0;
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await client.end();
  }
}

const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '—');

type Round = { name: string; times: number[]; slowest: string; load: string };

/**
 * The suggestions one request at a time over coldPrefixes, in three rounds: the first time each is asked since
 * the last catalogue change (nothing of its answer kept), again (kept), and after a price change (the catalogue
 * version moved, as after an import: nothing kept again). The price is put back afterwards.
 */
async function suggestionRounds(
  ask: (q: string) => Promise<void>,
  execute: (text: string) => Promise<void>,
): Promise<{ rounds: Round[]; requests: number }> {
  const rounds: Round[] = [];
  const round = async (name: string) => {
    const asked: [string, number][] = [];
    for (const q of coldPrefixes) {
      const started = performance.now();
      await ask(q);
      asked.push([q, performance.now() - started]);
    }
    const slowest = [...asked]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([q, t]) => `'${q}' ${ms(t)}`)
      .join(', ');
    rounds.push({ name, times: asked.map(([, t]) => t).sort((a, b) => a - b), slowest, load: load() });
  };
  await round('primera vez');
  await round('repetidas');
  const product = `(select code from products where active and family_code is null order by code limit 1)`;
  await execute(`update products set price_cents = price_cents + 100 where code = ${product}`);
  try {
    await round('tras un cambio de precio');
  } finally {
    await execute(`update products set price_cents = price_cents - 100 where code = ${product}`);
  }
  return { rounds, requests: rounds.length * coldPrefixes.length };
}

function printSuggestionRounds(result: { rounds: Round[] }, where: string) {
  console.log(`\nSugerencias, una petición a la vez, ${coldPrefixes.length} prefijos por ronda (${where}):`);
  for (const r of result.rounds) {
    const p95 = percentile(r.times, 95);
    console.log(
      `  ${r.name.padEnd(26)} p50 ${ms(percentile(r.times, 50)).padStart(6)} ms · p95 ${ms(p95).padStart(6)} ms · ` +
        `máx. ${ms(r.times.at(-1)!).padStart(6)} ms ${p95 <= SUGGEST_TARGET_MS ? '✓' : '✗'} ` +
        `(objetivo p95 ≤ ${SUGGEST_TARGET_MS} ms; ${r.load}; más lentas: ${r.slowest})`,
    );
  }
}

/** One statement on the benchmark database, from the driver (the server keeps its own connections). */
async function sqlOnce(text: string) {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** BENCH_DB=pglite: the suggestions' rounds on the embedded database, through the app in-process. */
async function pgliteSuggestions() {
  const dataDir = process.env.BENCH_DATA_DIR || './data/bench';
  console.log(`Base: PGlite en ${dataDir} · ${cpus().length} núcleos · una petición a la vez (app.inject)`);
  const database = await openDatabase({ dataDir });
  const active = await fillCatalogue(database);
  console.log(`${active.toLocaleString('es-MX')} productos activos`);
  const config = { ...loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'silent' }), clientDir: undefined };
  const app = await buildApp(config, { database });
  try {
    // Warm-up: the catalogue version, the synonyms, the brands, the prepared statements.
    await app.inject('/api/search/suggest?q=zz');
    const result = await suggestionRounds(
      async (q) => {
        const res = await app.inject({ url: '/api/search/suggest', query: { q } });
        if (res.statusCode !== 200) throw new Error(`sugerencias '${q}': ${res.statusCode}`);
      },
      async (text) => {
        await database.db.execute(sql.raw(text));
      },
    );
    printSuggestionRounds(result, 'PGlite');
  } finally {
    await app.close();
    await database.close();
  }
}
/** The machine's load average over the last minute, printed beside every latency. */
const load = () => `carga ${loadavg()[0]!.toFixed(1)}`;
/** The server's work per request, which the machine's load does not change. */
const perRequest = (f: Figures) =>
  `${f.queries.toFixed(2)} consultas · ${f.rows.toFixed(1)} filas · ${f.cpuMs.toFixed(2)} ms CPU Node · ` +
  `${Number.isFinite(f.pgCpuMs) ? f.pgCpuMs.toFixed(2) : '—'} ms CPU PostgreSQL por petición`;

async function main() {
  console.log(
    `Base: ${DATABASE_URL.replace(/\/\/[^@]*@/, '//…@')} · ${cpus().length} núcleos · ${CONNECTIONS} conexiones`,
  );
  const active = await ensureDatabase();
  console.log(`${active.toLocaleString('es-MX')} productos activos`);

  const child = fork(process.argv[1]!, ['--serve'], { execArgv: process.execArgv, env: process.env });
  server = child;
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`el servidor terminó (${code})`)));
  });
  const base = `http://127.0.0.1:${port}`;

  const rows: { case: string; plan: string; f: Figures }[] = [];
  const single = new Map<string, { api: number; cold: number; ilike: number }>();
  for (const [i, c] of cases.entries()) {
    if (!chosen(c.name)) continue;
    const plans: [string, string][] = [
      ['API (PostgreSQL)', `${base}${c.path}`],
      ['mismos bytes desde memoria', `${base}/bench/memory/${i}`],
    ];
    const ilikeUrl = `${base}/bench/ilike?${c.path.split('?')[1]}`;
    if (c.search) plans.push(["ILIKE '%q%' ingenuo", ilikeUrl]);
    for (const [plan, url] of plans) {
      await measure(url, 1); // warm-up: connections, caches, JIT
      await waitForIdleDatabase();
      const f = await measure(url, SECONDS);
      await waitForIdleDatabase();
      rows.push({ case: c.name, plan, f });
      console.log(
        `${c.name.padEnd(32)} ${plan.padEnd(28)} p50 ${ms(f.p50).padStart(7)} ms  p95 ${ms(f.p95).padStart(7)} ms  ` +
          `p99 ${ms(f.p99).padStart(7)} ms  ${f.rps.toFixed(0).padStart(6)} req/s${f.errors ? `  ${f.errors} errores` : ''}` +
          `  (${load()}; ${perRequest(f)})`,
      );
    }
  }
  // The naive plan can be so slow that 10 concurrent connections complete nothing within the case's
  // seconds; the speed-up is therefore also measured one request at a time (5 runs, median), for the API
  // as served (selection facts kept) and for its plan computed afresh each time (the first request after a
  // catalogue change).
  for (const c of cases) {
    if (!chosen(c.name)) continue;
    const url = `${base}${c.path}`;
    const query = c.path.split('?')[1];
    await sequential(url, 1);
    const api = await sequential(url, 5);
    const cold = await sequential(`${base}/bench/cold?${query}`, 5);
    const ilike = c.search ? await sequential(`${base}/bench/ilike?${query}`, 5) : Number.NaN;
    single.set(c.name, { api, cold, ilike });
    console.log(
      `${c.name.padEnd(32)} secuencial p50: API ${ms(api)} ms · sin caché ${ms(cold)} ms` +
        (c.search ? ` · ILIKE ${ms(ilike)} ms` : '') +
        ` (${load()})`,
    );
  }
  // Suggestions while typing (issue 18): the header's box asks for each prefix the shopper types.
  const suggestRows: { name: string; f: Figures }[] = [];
  for (const q of suggestPrefixes) {
    if (!chosen(`sugerencias '${q}'`)) continue;
    const url = `${base}/api/search/suggest?q=${encodeURIComponent(q)}`;
    await measure(url, 1);
    await waitForIdleDatabase();
    const f = await measure(url, SECONDS);
    await waitForIdleDatabase();
    suggestRows.push({ name: `sugerencias '${q}'`, f });
    console.log(
      `${`sugerencias '${q}'`.padEnd(32)} p50 ${ms(f.p50).padStart(7)} ms  p95 ${ms(f.p95).padStart(7)} ms  ` +
        `p99 ${ms(f.p99).padStart(7)} ms  ${f.rps.toFixed(0).padStart(6)} req/s${f.errors ? `  ${f.errors} errores` : ''}` +
        `  (${load()}; ${perRequest(f)})`,
    );
  }
  const coldBefore = await serverWork();
  const suggestRounds = !chosen('sugerencias')
    ? null
    : await suggestionRounds(
        async (q) => {
          const res = await fetch(`${base}/api/search/suggest?q=${encodeURIComponent(q)}`);
          await res.arrayBuffer();
          if (!res.ok) throw new Error(`sugerencias '${q}': ${res.status}`);
        },
        (text) => sqlOnce(text),
      );
  const coldAfter = await serverWork();
  child.send('stop');

  console.log(`\n${load()} al terminar`);
  console.log(
    '| Caso | Plan | p50 ms | p95 ms | p99 ms | req/s | bytes | consultas/pet. | filas/pet. | ms CPU Node/pet. | ms CPU PostgreSQL/pet. |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const work = (f: Figures) =>
    `${f.queries.toFixed(2)} | ${f.rows.toFixed(1)} | ${f.cpuMs.toFixed(2)} | ${Number.isFinite(f.pgCpuMs) ? f.pgCpuMs.toFixed(2) : '—'}`;
  for (const r of rows) {
    console.log(
      `| ${r.case} | ${r.plan} | ${ms(r.f.p50)} | ${ms(r.f.p95)} | ${ms(r.f.p99)} | ${r.f.rps.toFixed(0)} | ${r.f.bytes} | ${work(r.f)} |`,
    );
  }
  for (const r of suggestRows) {
    console.log(
      `| ${r.name} | API (PostgreSQL) | ${ms(r.f.p50)} | ${ms(r.f.p95)} | ${ms(r.f.p99)} | ${r.f.rps.toFixed(0)} | ${r.f.bytes} | ${work(r.f)} |`,
    );
  }
  if (suggestRounds) {
    const n = suggestRounds.requests;
    printSuggestionRounds(
      suggestRounds,
      `PostgreSQL; ${((coldAfter.queries - coldBefore.queries) / n).toFixed(1)} consultas · ` +
        `${((coldAfter.cpuMicros - coldBefore.cpuMicros) / 1000 / n).toFixed(2)} ms CPU Node por petición`,
    );
  }
  for (const r of suggestRows) {
    console.log(`${r.name}: p95 ${ms(r.f.p95)} ms ${r.f.p95 <= 15 ? '✓' : '✗'} (objetivo ≤ 15 ms)`);
  }
  console.log('\nObjetivos: listados p99 ≤ 20 ms; búsqueda p95 ≤ 30 ms y ≥ 10× más rápida que ILIKE.');
  for (const c of cases) {
    if (!chosen(c.name)) continue;
    const api = rows.find((r) => r.case === c.name && r.plan.startsWith('API'))!.f;
    if (!c.search) {
      console.log(`${c.name}: p99 ${ms(api.p99)} ms ${api.p99 <= 20 ? '✓' : '✗'}`);
      continue;
    }
    const naive = rows.find((r) => r.case === c.name && r.plan.startsWith('ILIKE'))!.f;
    const one = single.get(c.name)!;
    const speedup = one.ilike / one.api;
    console.log(
      `${c.name}: p95 ${ms(api.p95)} ms ${api.p95 <= 30 ? '✓' : '✗'} · ${speedup.toFixed(1)}× más rápida que ILIKE ` +
        `(una petición a la vez) ${speedup >= 10 ? '✓' : '✗'} · sin caché ${(one.ilike / one.cold).toFixed(1)}×` +
        (Number.isFinite(naive.p50)
          ? ''
          : ` · ILIKE con ${CONNECTIONS} conexiones: ninguna respuesta en ${SECONDS} s`),
    );
  }
}

if (process.argv.includes('--serve')) await serve();
else if (process.env.BENCH_DB === 'pglite') await pgliteSuggestions();
else await main();
