import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../../src/server/db/client.ts';

/**
 * Vitest's global setup: the migrations run once per test run, into a template that every test file copies
 * (support/test-db.ts). On PostgreSQL (TEST_DATABASE_URL) a template database, cloned with CREATE DATABASE …
 * TEMPLATE; on PGlite a dumped data directory, loaded by each file's in-memory database (this skips PGlite's
 * initdb as well as the migrations).
 */
export type DatabaseTemplate =
  | { kind: 'pglite'; file: string }
  | { kind: 'postgres'; adminUrl: string; name: string };

declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplate: DatabaseTemplate;
  }
}

export const databaseUrl = (adminUrl: string, name: string) => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/** One statement on the PostgreSQL server (CREATE/DROP DATABASE). */
export async function adminQuery(adminUrl: string, query: string) {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 30_000 });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject) {
  const started = performance.now();
  const adminUrl = process.env.TEST_DATABASE_URL;
  let template: DatabaseTemplate;
  let teardown: () => Promise<void>;
  if (adminUrl) {
    const name = `tienda_template_${process.pid}_${randomBytes(4).toString('hex')}`;
    await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
    const database = await openDatabase({ databaseUrl: databaseUrl(adminUrl, name), maxConnections: 1 });
    await database.migrate();
    // No session may stay connected to a template while it is copied.
    await database.close();
    template = { kind: 'postgres', adminUrl, name };
    teardown = () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } else {
    const database = await openDatabase({ dataDir: 'memory://' });
    await database.migrate();
    const file = join(
      tmpdir(),
      `tienda-pglite-template-${process.pid}-${randomBytes(4).toString('hex')}.tar`,
    );
    writeFileSync(file, Buffer.from(await (await database.dumpDataDir!()).arrayBuffer()));
    await database.close();
    template = { kind: 'pglite', file };
    teardown = async () => rmSync(file, { force: true });
  }
  project.provide('databaseTemplate', template);
  console.log(
    `Base de datos de prueba migrada una vez (${template.kind}) en ${Math.round(performance.now() - started)} ms`,
  );
  return teardown;
}
