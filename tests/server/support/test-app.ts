import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/server/app.ts';
import { seedDemoCatalogue } from '../../../src/server/catalog/demo/seed.ts';
import { type AppConfig, loadConfig } from '../../../src/server/config.ts';
import type { Database } from '../../../src/server/db/client.ts';
import { openTestDatabase } from './test-db.ts';

export type TestApp = { app: FastifyInstance; database: Database; close(): Promise<void> };

/**
 * The real app on an isolated database, for app.inject; optionally with the demo catalogue, and on PostgreSQL
 * itself (`postgres: true`) for a test of concurrent connections even when the run uses PGlite.
 */
export async function createTestApp(
  options: { seedProducts?: number; config?: Partial<AppConfig>; postgres?: boolean } = {},
): Promise<TestApp> {
  const database = await openTestDatabase({ postgres: options.postgres ?? false });
  if (options.seedProducts) await seedDemoCatalogue(database.db, { products: options.seedProducts });
  const config: AppConfig = {
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
    ...options.config,
  };
  const app = await buildApp(config, { database });
  await app.ready();
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}
