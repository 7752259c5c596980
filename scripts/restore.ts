// npm run restore -- RESPALDO.tar.gz [--force]: opens DATA_DIR from a backup of `npm run backup`, with the shop
// stopped; an existing database is refused without --force and kept aside (renamed) with it (decision 054).
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/server/config.ts';
import { ConfigError } from '../src/server/config-error.ts';
import { restoreEmbedded } from '../src/server/db/backup.ts';
import { exitWithConfigError } from './cli.ts';

const { values, positionals } = parseArgs({
  options: { force: { type: 'boolean', default: false } },
  allowPositionals: true,
});
const config = exitWithConfigError(loadConfig);
if (config.databaseUrl) {
  console.error(
    'Con DATABASE_URL la base de datos es PostgreSQL: restaure con pg_restore -d <base nueva> tienda.dump (README, "Backups").',
  );
  process.exit(1);
}
const [file] = positionals;
if (!file || positionals.length > 1) {
  console.error('Uso: npm run restore -- RESPALDO.tar.gz [--force]   (DATA_DIR elige la carpeta de destino)');
  process.exit(1);
}
try {
  const started = Date.now();
  const done = await restoreEmbedded({
    file,
    dataDir: config.dataDir,
    force: values.force,
    progress: console.log,
  });
  console.log(
    `Restauración lista en ${((Date.now() - started) / 1000).toFixed(1)} s${done.keptAside ? ` (la base anterior quedó en ${done.keptAside})` : ''}. Inicie la tienda con npm start.`,
  );
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
