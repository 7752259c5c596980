/**
 * The server's CPU per page, in-process (docs/decisions/037): the real app (buildApp) on a bench database, pages
 * asked through app.inject one at a time — first renders of products never seen, the same products again (kept
 * bodies), and the group page of `npm run bench` — with the process's CPU time per request. On a shared machine
 * CPU time compares between runs where wall time does not (inject's own cost is included in both).
 *
 *   NODE_ENV=production DATABASE_URL=postgres://…/hssr_bench LOG_LEVEL=silent RATE_LIMIT_PER_MINUTE=100000000 \
 *     [N=1000] [PROF=/tmp/x] npx tsx scripts/profile-ssr.ts
 *
 * NODE_ENV=production matters: React's development build renders several times slower. PROF=<prefix> writes a V8
 * CPU profile per part (`<prefix>-product.cpuprofile`, … open them in Chrome's DevTools). The client must be built
 * (dist/client: `npm run build`).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';

const N = Number(process.env.N || 1000);
const GROUP = '/grupos/VID-MAT';
const WARM = 200;
const KEPT = 200;

const config = loadConfig();
config.clientDir = resolve(import.meta.dirname, '../dist/client');
const database = await openDatabase({ databaseUrl: config.databaseUrl, role: 'shop' });
const app = await buildApp(config, { database });
await app.ready();
const { rows } = await database.db.execute<{ code: string }>(
  sql`select code from products where active order by md5(code) limit ${N + WARM}`,
);
const pages = rows.map((r) => `/productos/${encodeURIComponent(r.code)}`);

async function get(url: string) {
  const stuck = setTimeout(() => {
    console.error(`sin respuesta en 10 s: ${url}`);
    process.exit(1);
  }, 10_000);
  const res = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
  clearTimeout(stuck);
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
}

const session = new Session();
session.connect();

async function measure(label: string, urls: string[]) {
  if (process.env.PROF) {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
  }
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (const url of urls) await get(url);
  const used = process.cpuUsage(cpu);
  const wall = performance.now() - start;
  if (process.env.PROF) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(`${process.env.PROF}-${label.replaceAll(' ', '-')}.cpuprofile`, JSON.stringify(profile));
  }
  const per = (us: number) => (us / 1000 / urls.length).toFixed(3);
  console.log(
    `${label.padEnd(22)} ${urls.length} req  CPU ${per(used.user + used.system)} ms/req (user ${per(used.user)})  ` +
      `wall ${(wall / urls.length).toFixed(3)} ms/req`,
  );
}

// Warm-up (modules, JIT, the frame and CSS caches): products not measured afterwards, and the group page.
for (const url of pages.slice(N)) await get(url);
for (let i = 0; i < 50; i++) await get(GROUP);

await measure('product first render', pages.slice(0, N));
// The last ones rendered are still kept (the kept bodies are bounded by bytes): asked again, same data.
await measure('product kept body', pages.slice(N - KEPT, N));
await measure('group kept body', Array<string>(N).fill(GROUP));

session.disconnect();
await app.close();
await database.close();
// What the app started in the background (mail outbox, sweepers' timers) may keep the loop alive: the figures are out.
process.exit(0);
