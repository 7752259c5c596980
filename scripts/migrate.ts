// npm run db:migrate: applies the committed SQL migrations to DATABASE_URL or the embedded database.
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { exitWithConfigError } from './cli.ts';

const config = exitWithConfigError(loadConfig);
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
await database.migrate();
console.log(`Migraciones aplicadas (${database.kind}).`);
await database.close();
