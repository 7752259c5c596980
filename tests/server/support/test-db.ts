import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../../../src/server/db/client.ts';

/**
 * An isolated, migrated database for one test file: in-memory PGlite by default, or a fresh database
 * on the PostgreSQL server of TEST_DATABASE_URL (created here, dropped by close()). `postgres: true` for a
 * test that needs concurrent connections: TEST_DATABASE_URL, else PG_ADMIN_URL, else the local server.
 */
export async function openTestDatabase(options: { postgres?: boolean } = {}): Promise<Database> {
  const adminUrl = options.postgres
    ? process.env.TEST_DATABASE_URL ||
      process.env.PG_ADMIN_URL ||
      'postgres://postgres@127.0.0.1:5432/postgres'
    : process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const database = await openDatabase({ dataDir: 'memory://' });
    await database.migrate();
    return database;
  }
  const name = `tienda_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), maxConnections: 20 });
  await database.migrate();
  return {
    ...database,
    close: async () => {
      await database.close();
      const drop = new pg.Client({ connectionString: adminUrl });
      await drop.connect();
      await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await drop.end();
    },
  };
}
