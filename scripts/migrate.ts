// npm run db:migrate: applies the committed SQL migrations to DATABASE_URL or the embedded database.
import { loadConfig } from '../src/server/config.ts';
import { exitWithConfigError, openCommandDatabase } from './cli.ts';

const config = exitWithConfigError(loadConfig);
const database = await openCommandDatabase(config);
await database.migrate();
console.log(`Migraciones aplicadas (${database.kind}).`);
await database.close();
