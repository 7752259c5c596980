// npm run seed:demo [-- --products N]: fills the demo catalogue (idempotent).
import { parseArgs } from 'node:util';
import { seedDemoCatalogue } from '../src/server/catalog/demo/seed.ts';
import { loadConfig } from '../src/server/config.ts';
import { exitWithConfigError, openCommandDatabase } from './cli.ts';
import { createProgress } from './progress.ts';

const { values } = parseArgs({ options: { products: { type: 'string', default: '600' } } });
const count = Number(values.products);
if (!Number.isInteger(count) || count < 1 || count > 1_000_000) {
  console.error('--products debe ser un entero entre 1 y 1000000');
  process.exit(1);
}
const config = exitWithConfigError(loadConfig);
const database = await openCommandDatabase(config);
await database.migrate();
const started = Date.now();
const { inserted } = await seedDemoCatalogue(database.db, {
  products: count,
  onProgress: createProgress('Catálogo demo'),
  presentations: true,
});
console.log(
  `${inserted} productos nuevos (${count - inserted} ya existían) en ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
await database.close();
