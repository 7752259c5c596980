// npm run import -- productos.csv [--images DIR] [--datasheets DIR] [--hds DIR] [--dry-run] [--strict]
// Imports the catalogue CSV described in docs/admin.md: upsert by code, one transaction per batch,
// rejected rows reported with their line numbers. Exit code 0 when everything landed, 2 when some rows
// were rejected or a batch failed, 1 when the file was refused as a whole.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { ImportFileError, importCatalogue } from '../src/server/admin/import/importer.ts';
import { CLI_ACTOR } from '../src/server/audit/log.ts';
import { loadConfig } from '../src/server/config.ts';
import { exitWithConfigError, openCommandDatabase } from './cli.ts';
import { createProgress } from './progress.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    images: { type: 'string' },
    datasheets: { type: 'string' },
    hds: { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
    strict: { type: 'boolean', default: false },
  },
});
const file = positionals[0];
if (!file || positionals.length > 1) {
  console.error(
    'Uso: npm run import -- productos.csv [--images CARPETA] [--datasheets CARPETA] [--hds CARPETA] [--dry-run] [--strict]',
  );
  process.exit(1);
}
let bytes: Buffer;
try {
  bytes = readFileSync(file);
} catch {
  console.error(`No se puede leer ${file}`);
  process.exit(1);
}

const config = exitWithConfigError(loadConfig);
const database = await openCommandDatabase(config);
await database.migrate();
const started = Date.now();
const dryRun = values['dry-run'] ?? false;
try {
  const report = await importCatalogue(database.db, bytes, {
    filename: basename(file),
    dryRun,
    strict: values.strict ?? false,
    actor: CLI_ACTOR,
    media: { images: values.images, datasheets: values.datasheets, hds: values.hds },
    onProgress: createProgress(dryRun ? 'Simulación' : 'Importación'),
  });
  for (const r of report.rejected) {
    console.log(`  línea ${r.line}${r.code ? ` (${r.code})` : ''}: ${r.reasons.join('; ')}`);
  }
  for (const b of report.batches.filter((x) => x.error)) {
    console.log(`  lote ${b.index} (líneas ${b.firstLine}–${b.lastLine}) NO se aplicó: ${b.error}`);
  }
  if (report.brandsCreated.length) {
    console.log(`  marcas ${dryRun ? 'que se crearían' : 'creadas'}: ${report.brandsCreated.join(', ')}`);
  }
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `${report.message} (${seconds.toFixed(1)} s, ${Math.round(report.rows / Math.max(seconds, 0.001))} filas/s)`,
  );
  await database.close();
  process.exit(report.rejected.length > 0 || report.batches.some((b) => b.error) ? 2 : 0);
} catch (error) {
  await database.close();
  if (error instanceof ImportFileError) {
    console.error(`Archivo rechazado, no se importó nada: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
