// npm run bench:import [-- --rows 10000]: generates a catalogue CSV and imports it into a fresh
// PostgreSQL database (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres as the
// server to create it on), printing rows per second for a first import (all new), a second one (all
// unchanged) and a third (prices and stock changed). Target: 10,000 rows in under a minute.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { importCatalogue } from '../src/server/admin/import/importer.ts';
import { CLI_ACTOR } from '../src/server/audit/log.ts';
import { seedDemoCatalogue } from '../src/server/catalog/demo/seed.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { createProgress } from './progress.ts';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '10000' } } });
const count = Number(values.rows);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `tienda_bench_import_${process.pid}_${randomBytes(3).toString('hex')}`;

const quote = (v: string) => (/[",;\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

function csv(groups: string[], round: number): Buffer {
  const header =
    'code,name,brand,group,line,type,price,stock,weight_kg,short_desc,long_desc_html,active,sat_product_key,sat_unit_key';
  const lines = [header];
  for (let i = 0; i < count; i += 1) {
    const price = (125 + (i % 900) * 3.5 + round * 10).toFixed(2).replace('.', ',');
    lines.push(
      [
        `BENCH-${String(i).padStart(6, '0')}`,
        `Matraz Erlenmeyer de vidrio borosilicato ${100 + (i % 40) * 25} ml modelo ${i}`,
        `Marca Banco ${i % 30}`,
        groups[i % groups.length]!,
        `Línea ${i % 12}`,
        i % 2 ? 'Vidrio' : 'Plástico',
        price,
        String((i * 7 + round) % 250),
        `${(i % 50) / 10}`.replace('.', ','),
        'Resistente al choque térmico; graduado, con boca estrecha.',
        '<p>Para <strong>titulaciones</strong> y cultivos.</p><ul><li>ASTM E1404</li></ul><script>x()</script>',
        'sí',
        '41121800',
        'H87',
      ]
        .map(quote)
        .join(','),
    );
  }
  return Buffer.from(lines.join('\n'), 'utf8');
}

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const database = await openDatabase({ databaseUrl: url.toString() });
try {
  await database.migrate();
  await seedDemoCatalogue(database.db, { products: 1 });
  const groups = (await database.db.execute<{ clas: string }>(
    'select clas from groups where parent_clas is not null' as never,
  )) as unknown as {
    rows: { clas: string }[];
  };
  const clas = groups.rows.map((g) => g.clas);
  console.log(`${count.toLocaleString('es-MX')} filas, PostgreSQL (${name})`);
  for (const [round, label] of [
    [0, 'primera importación (todo nuevo)'],
    [0, 'segunda importación (sin cambios)'],
    [1, 'tercera importación (precios y existencias cambian)'],
  ] as const) {
    const bytes = csv(clas, round);
    const started = performance.now();
    const report = await importCatalogue(database.db, bytes, {
      filename: 'bench.csv',
      dryRun: false,
      actor: CLI_ACTOR,
      onProgress: createProgress(`  ${label}`),
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `  ${label}: ${seconds.toFixed(1)} s, ${Math.round(count / seconds).toLocaleString('es-MX')} filas/s — ${report.message}`,
    );
    if (report.rejected.length > 0) console.log('  rechazadas:', report.rejected.slice(0, 3));
  }
} finally {
  await database.close();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
