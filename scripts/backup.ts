// npm run backup [-- --out RUTA] [--force]: the embedded database (DATA_DIR) as one file, with the shop stopped
// (src/server/db/backup.ts, decision 054). With DATABASE_URL: pg_dump (README, "Backups").
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/server/config.ts';
import { ConfigError } from '../src/server/config-error.ts';
import { backupEmbedded, describeSummary } from '../src/server/db/backup.ts';
import { exitWithConfigError } from './cli.ts';

const { values } = parseArgs({
  options: { out: { type: 'string' }, force: { type: 'boolean', default: false } },
});
const config = exitWithConfigError(loadConfig);
if (config.databaseUrl) {
  console.error(
    'Con DATABASE_URL la base de datos es PostgreSQL: respáldela con pg_dump -Fc "$DATABASE_URL" > tienda.dump (README, "Backups").',
  );
  process.exit(1);
}
const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
const out = values.out ?? `backups/tienda-${stamp}.tar.gz`;
try {
  const started = Date.now();
  const done = await backupEmbedded({
    dataDir: config.dataDir,
    out,
    force: values.force,
    progress: console.log,
  });
  console.log(
    `Respaldo listo: ${done.file} (${(done.bytes / 1024 / 1024).toFixed(1)} MB, sha256 ${done.sha256}) en ${((Date.now() - started) / 1000).toFixed(1)} s — ${describeSummary(done.summary)}.`,
  );
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
