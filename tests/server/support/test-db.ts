import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../../src/server/db/client.ts';
import { adminQuery, databaseUrl } from './global-setup.ts';

/** Where a test asks for PostgreSQL itself: TEST_DATABASE_URL, else PG_ADMIN_URL, else the local server. */
export const postgresAdminUrl = () =>
  process.env.TEST_DATABASE_URL || process.env.PG_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * An isolated, migrated database for one test file, copied from the run's template (global-setup.ts):
 * in-memory PGlite by default, or a fresh database on the PostgreSQL server of TEST_DATABASE_URL (dropped by
 * close()). `postgres: true` for a test that needs concurrent connections even when the run uses PGlite.
 */
export async function openTestDatabase(options: { postgres?: boolean } = {}): Promise<Database> {
  const template = inject('databaseTemplate');
  if (template.kind === 'pglite' && !options.postgres) {
    return openDatabase({ dataDir: 'memory://', loadDataDir: new Blob([readFileSync(template.file)]) });
  }
  const adminUrl = template.kind === 'postgres' ? template.adminUrl : postgresAdminUrl();
  const name = `tienda_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await adminQuery(
    adminUrl,
    template.kind === 'postgres'
      ? `CREATE DATABASE ${name} TEMPLATE ${template.name}`
      : `CREATE DATABASE ${name}`,
  );
  const database = await openDatabase({ databaseUrl: databaseUrl(adminUrl, name), maxConnections: 20 });
  if (template.kind !== 'postgres') await database.migrate();
  return {
    ...database,
    close: async () => {
      await database.close();
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
