// npm run bench:cfdi-zip: the accountant's ZIP of a large period (decision 066) is streamed — each CFDI is read,
// its PDF rendered, deflated and handed on before the next — so memory stays flat however many documents the
// period holds. One real invoice is stamped (sandbox PAC) and cloned to BENCH_DOCS documents in an in-memory
// database; the period's ZIP is then pulled through the same code the route sends (periodDocuments →
// documentFiles → zipStream) into a sink that only counts bytes, at two sizes, sampling the heap and RSS.
//
//   BENCH_DOCS   documents of the larger run (default 1000; the smaller run is a quarter)

import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import { documentFiles, periodDocuments } from '../src/server/accounting/documents.ts';
import { periodOf } from '../src/server/accounting/period.ts';
import { buildApp } from '../src/server/app.ts';
import { seedDemoCatalogue } from '../src/server/catalog/demo/seed.ts';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { invoices } from '../src/server/db/schema.ts';
import { zipStream } from '../src/server/http/zip.ts';
import { mexicoCityDate } from '../src/shared/mexico-time.ts';
import { createTestOrder, createTestShopper } from '../tests/server/support/invoice-orders.ts';
import { createProgress } from './progress.ts';

const DOCS = Number(process.env.BENCH_DOCS || 1000);
/** node --expose-gc (the npm script passes it): a collection before each retained-memory reading. */
const gc = (globalThis as { gc?: () => void }).gc;
const MB = 1024 * 1024;
const mb = (n: number) => `${(n / MB).toFixed(1)} MB`;

const database = await openDatabase({ dataDir: 'memory://' });
await database.migrate();
await seedDemoCatalogue(database.db, { products: 12 });
const app = await buildApp(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }), { database });
await app.ready();
const db = database.db;

const shopper = await createTestShopper(db, 'Banco');
const number = await createTestOrder(db, shopper.id);
const issued = await app.inject({
  method: 'POST',
  url: `/api/orders/${number}/invoice`,
  cookies: shopper.cookie,
  payload: {
    nombreFiscal: 'Laboratorios Químicos del Bajío',
    rfc: 'LQB150101AB3',
    regimenFiscal: '601',
    usoCfdi: 'G03',
    cp: '44100',
  },
});
if (issued.statusCode !== 201) throw new Error(`factura: ${issued.statusCode} ${issued.body}`);
const [original] = await db.select({ id: invoices.id, folio: invoices.folio }).from(invoices);

/** Clones of the stamped invoice (cancelled, so the one-live-invoice-per-order index allows them), new UUIDs. */
async function cloneTo(total: number) {
  const have = Number(
    (await db.execute<{ n: number }>(sql`select count(*)::int as n from invoices`)).rows[0]!.n,
  );
  if (have >= total) return;
  await db.execute(sql`
    insert into invoices (order_number, user_id, status, pac, test, uuid, rfc, nombre_fiscal, regimen_fiscal, uso_cfdi,
      forma_pago, cp, subtotal_cents, iva_cents, total_cents, xml, snapshot, issued_at, cancelled_at, cancel_motivo,
      kind, serie, folio, metodo_pago)
    select order_number, user_id, 'cancelled', pac, test, upper(gen_random_uuid()::text), rfc, nombre_fiscal,
      regimen_fiscal, uso_cfdi, forma_pago, cp, subtotal_cents, iva_cents, total_cents, xml, snapshot, issued_at, now(),
      '02', kind, serie, folio + ${have} + g, metodo_pago
    from invoices, generate_series(0, ${total - have - 1}) g where id = ${original!.id}`);
}

async function run(docs: number) {
  await cloneTo(docs);
  const month = mexicoCityDate(new Date()).slice(0, 7);
  const period = periodOf({ month });
  const documents = await periodDocuments(db, period, ['ingreso']);
  gc?.();
  const base = process.memoryUsage();
  let retained = 0;
  let peakHeap = base.heapUsed;
  let peakRss = base.rss;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakRss = Math.max(peakRss, m.rss);
  }, 20);
  const progress = createProgress(`ZIP de ${docs} CFDI`);
  const totalFiles = documents.length * 2;
  let bytes = 0;
  let files = 0;
  const perFile: number[] = [];
  let last = performance.now();
  async function* counted() {
    for await (const f of documentFiles(db, documents)) {
      const now = performance.now();
      perFile.push(now - last);
      last = now;
      files += 1;
      progress(files, totalFiles);
      // What stays alive (after a collection) every 100 files: it must not grow with the files already sent.
      if (gc && files % 100 === 0) {
        gc();
        retained = Math.max(retained, process.memoryUsage().heapUsed - base.heapUsed);
      }
      yield f;
    }
  }
  const started = performance.now();
  await pipeline(
    Readable.from(zipStream(counted())),
    new Writable({
      write(chunk: Buffer, _enc, done) {
        bytes += chunk.length;
        done();
      },
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  perFile.sort((a, b) => a - b);
  const median = perFile[Math.floor(perFile.length / 2)]!;
  const worst = perFile[perFile.length - 1]!;
  return {
    docs,
    files,
    bytes,
    seconds,
    heap: peakHeap - base.heapUsed,
    retained,
    rss: peakRss - base.rss,
    median,
    worst,
  };
}

const results = [await run(Math.max(1, Math.floor(DOCS / 4))), await run(DOCS)];
console.log('\nZIP de CFDI (XML + PDF) por streaming, memoria sobre la base al empezar:');
if (!gc) console.log('(sin --expose-gc: la memoria retenida no se mide)');
console.log(
  'documentos | archivos | ZIP      | segundos | retenido (tras GC) | pico heap | pico RSS | ms por archivo (mediana / peor)',
);
for (const r of results)
  console.log(
    `${String(r.docs).padStart(10)} | ${String(r.files).padStart(8)} | ${mb(r.bytes).padStart(8)} | ${r.seconds.toFixed(1).padStart(8)} | ${mb(r.retained).padStart(18)} | ${mb(r.heap).padStart(9)} | ${mb(r.rss).padStart(8)} | ${r.median.toFixed(1)} / ${r.worst.toFixed(1)}`,
  );
await app.close();
await database.close();
