import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { expect } from '@playwright/test';
import pg from 'pg';

/**
 * The journeys that start a shop of their own (a fresh copy of the run's template, a staff account made with
 * `npm run staff:create` before the server opens the embedded database) and the port each listens on. The workers'
 * servers take E2E_PORT + 0 … + (workers − 1), at most 8 (playwright.config.ts); these take E2E_PORT + 8 and up, one
 * each, so no two servers ever meet on a port, whichever files run side by side.
 */
const OWN_SERVERS = [
  'admin',
  'refunds',
  'returns',
  'requisitions',
  'institutions',
  'credit',
  'shipments',
  'staff',
  'dashboard',
  'accounting',
] as const;
export type OwnServer = (typeof OWN_SERVERS)[number];

export const ownServerPort = (name: OwnServer): number =>
  Number(process.env.E2E_PORT ?? 3100) + 8 + OWN_SERVERS.indexOf(name);

export type StaffAccount = { email: string; password: string; nombre: string };

/** Node with tsx's loader, as the other journey servers start (scripts/e2e-server.mjs, decision 040). */
const TSX = ['--import', 'tsx', '--import', './scripts/quick-start.mjs'];

/**
 * A shop of its own on the embedded database, with one staff account: `start()` in the spec's beforeAll (it waits
 * until /readyz answers), `stop()` in its afterAll.
 */
export function ownShop(name: OwnServer, staff: StaffAccount) {
  const port = ownServerPort(name);
  const base = `http://127.0.0.1:${port}`;
  const dataDir = `test-results/e2e-${name}-data-${port}`;
  let server: ChildProcess | undefined;
  return {
    port,
    base,
    dataDir,
    async start() {
      rmSync(dataDir, { recursive: true, force: true });
      if (process.env.E2E_TEMPLATE_DIR)
        cpSync(`${process.env.E2E_TEMPLATE_DIR}/pglite`, `${dataDir}/pglite`, { recursive: true });
      const env = {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'development',
      };
      const created = spawnSync(
        process.execPath,
        [...TSX, 'scripts/staff-create.ts', '--email', staff.email, '--nombre', staff.nombre],
        { input: `${staff.password}\n`, env, encoding: 'utf8' },
      );
      expect(created.status, created.stderr).toBe(0);
      expect(created.stdout).toContain('Cuenta de personal creada');
      server = spawn(process.execPath, [...TSX, 'src/server/main.ts'], {
        stdio: 'inherit',
        env: { ...env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: base },
      });
      await expect
        .poll(
          () =>
            fetch(`${base}/readyz`).then(
              (r) => r.ok,
              () => false,
            ),
          { message: `the ${name} journey's shop did not start`, timeout: 200_000, intervals: [1000] },
        )
        .toBe(true);
    },
    stop() {
      server?.kill('SIGTERM');
    },
  };
}

/** One statement on a PostgreSQL database (a journey sets up what staff would, or moves dates as time would). */
export async function pgQuery(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * A shop of its own on a PostgreSQL database of its own (`<name>_e2e_<port>`, made afresh), with the demo catalogue
 * (24 products) and one staff account, for a journey that writes to the database while the shop runs (credit,
 * accounting). `sql(text, values)` runs on that database.
 */
export function ownPostgresShop(name: OwnServer, staff: StaffAccount) {
  const port = ownServerPort(name);
  const base = `http://127.0.0.1:${port}`;
  const adminUrl =
    process.env.TEST_DATABASE_URL ||
    process.env.PG_ADMIN_URL ||
    'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = `${name}_e2e_${port}`;
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();
  let server: ChildProcess | undefined;
  return {
    port,
    base,
    databaseUrl,
    sql: (text: string, values: unknown[] = []) => pgQuery(databaseUrl, text, values),
    async start() {
      await pgQuery(adminUrl, `drop database if exists ${dbName} with (force)`);
      await pgQuery(adminUrl, `create database ${dbName}`);
      const env = { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', NODE_ENV: 'development' };
      const seeded = spawnSync(process.execPath, [...TSX, 'scripts/seed-demo.ts', '--products', '24'], {
        env,
        encoding: 'utf8',
      });
      expect(seeded.status, seeded.stderr).toBe(0);
      const created = spawnSync(
        process.execPath,
        [...TSX, 'scripts/staff-create.ts', '--email', staff.email, '--nombre', staff.nombre],
        { input: `${staff.password}\n`, env, encoding: 'utf8' },
      );
      expect(created.status, created.stderr).toBe(0);
      server = spawn(process.execPath, [...TSX, 'src/server/main.ts'], {
        stdio: 'inherit',
        env: { ...env, SEED_DEMO: 'false', PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: base },
      });
      await expect
        .poll(
          () =>
            fetch(`${base}/readyz`)
              .then((r) => r.ok)
              .catch(() => false),
          { message: `the ${name} journey's shop did not start`, timeout: 120_000 },
        )
        .toBe(true);
    },
    stop() {
      server?.kill('SIGTERM');
    },
  };
}
