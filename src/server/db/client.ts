import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import type { Assume, ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { acquireDataDirLock, type DataDirLock, EmbeddedDatabaseInUse } from './embedded-lock.ts';
import {
  type EmbeddedSocketServer,
  SOCKET_PORT,
  serveEmbeddedDatabase,
  socketPathFits,
} from './embedded-socket.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;

type RowsOf<T> = { rows: Assume<T, Record<string, unknown>>[] };
/** Both drivers answer `execute()` with `{ rows }` (node-postgres' QueryResult, PGlite's Results). */
export interface RowsResultHKT extends PgQueryResultHKT {
  type: RowsOf<this['row']>;
}
/** The same Drizzle API over either driver; `execute<Row>(sql)` answers `{ rows: Row[] }`. */
export type Db = PgDatabase<RowsResultHKT, Schema>;
/**
 * Inside `db.transaction(…)`. A Tx is also a Db, so a service taking `Db` composes inside a caller's
 * transaction; a function taking `Tx` (row locks, multi-statement invariants) can only run inside one.
 */
export type Tx = PgTransaction<RowsResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs the committed SQL migrations (idempotent). */
  migrate(): Promise<void>;
  /** Cheap round trip for /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: the data directory as a tarball, which `loadDataDir` opens again (tests copy a migrated one). */
  dumpDataDir?(): Promise<Blob>;
  /** PGlite only: the instance (served to commands on the data directory's socket). */
  pglite?: PGlite;
  /** PostgreSQL only: one connection of the pool kept apart (the background jobs' advisory locks, db/lease.ts). */
  session?(): Promise<DatabaseSession>;
};

export type DatabaseSession = {
  query<R>(text: string, params: unknown[]): Promise<{ rows: R[] }>;
  /** Called once if the connection is lost (its session's locks are gone with it). */
  onLost(listener: () => void): void;
  release(): void;
};

export const migrationsFolder = resolve(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Key of the PostgreSQL advisory lock held while migrating (any constant shared by all instances). */
const MIGRATION_LOCK = 7_310_001;

export type DatabaseOptions = {
  /** postgres://… for a real server; otherwise PGlite. */
  databaseUrl?: string | undefined;
  /** PGlite data directory; 'memory://' keeps it in memory (tests). */
  dataDir?: string;
  /** Pool size for PostgreSQL. */
  maxConnections?: number;
  /** PGlite: start from this dumped data directory (Database.dumpDataDir) instead of an empty one. */
  loadDataDir?: Blob;
  /**
   * PGlite on a folder: 'shop' (the server) owns the data directory and serves it to commands on a unix
   * socket there; 'tool' (default: a command) reaches the running shop's database through that socket,
   * or owns the folder itself while no shop runs. Either refuses a folder another live process owns
   * (EmbeddedDatabaseInUse, the Spanish line of issue 16).
   */
  role?: 'shop' | 'tool';
};

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.maxConnections ?? 10);
  const dataDir = options.dataDir ?? './data';
  if (dataDir.startsWith('memory://')) return openPglite(dataDir, options.loadDataDir);
  const role = options.role ?? 'tool';
  const folder = resolve(dataDir);
  mkdirSync(folder, { recursive: true });
  const serveSocket = role === 'shop' && socketPathFits(folder);
  let taken = acquireDataDirLock(folder, role, serveSocket ? folder : null);
  // A shop restarted by a watcher (npm run dev) may start while the old process is still closing: wait
  // a few seconds for it to let go before refusing.
  for (let waited = 0; role === 'shop' && 'heldBy' in taken && waited < 5_000; waited += 250) {
    await new Promise((r) => setTimeout(r, 250));
    taken = acquireDataDirLock(folder, role, serveSocket ? folder : null);
  }
  if ('heldBy' in taken) {
    const holder = taken.heldBy;
    // A command reaches the running shop's database through its socket; anything else is refused.
    if (role === 'tool' && holder.role === 'shop' && holder.socketDir) {
      const url = `postgres://postgres@localhost:${SOCKET_PORT}/postgres?host=${encodeURIComponent(holder.socketDir)}`;
      const viaShop = await openPostgres(url, 1).catch(() => undefined);
      if (
        viaShop &&
        (await viaShop.ping().then(
          () => true,
          () => false,
        ))
      )
        return { ...viaShop, kind: 'pglite' };
      await viaShop?.close().catch(() => undefined);
    }
    throw new EmbeddedDatabaseInUse(holder);
  }
  try {
    const database = await openPglite(dataDir, options.loadDataDir);
    return await withOwnership(database, taken.lock, serveSocket ? folder : null);
  } catch (error) {
    taken.lock.release();
    throw error;
  }
}

/** The owner of the folder: serves it on the socket (the shop) and lets go of the lock on close. */
async function withOwnership(
  database: Database,
  lock: DataDirLock,
  socketDir: string | null,
): Promise<Database> {
  let server: EmbeddedSocketServer | undefined;
  if (socketDir && database.pglite) server = await serveEmbeddedDatabase(database.pglite, socketDir);
  return {
    ...database,
    close: async () => {
      await server?.stop();
      try {
        await database.close();
      } finally {
        lock.release();
      }
    },
  };
}

async function openPostgres(url: string, max: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5000 });
  // A dropped connection (database restart) must not crash the process; the pool reconnects.
  pool.on('error', () => {});
  // The same for a connection that is checked out but between queries (a transaction waiting on the payment
  // gateway, the migration lock): pg emits its loss on the client itself, and with no listener Node ends the
  // process (seen in the crash tests: PostgreSQL stopped under load). The query in flight still fails, and
  // the pool discards the broken client when it is released.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db: Db = drizzlePg(pool, { schema });
  return {
    db,
    kind: 'postgres',
    migrate: async () => {
      // Several instances may start at once on a new database or release: one migrates, the others
      // wait on the advisory lock and then find nothing to do (without it they race and fail).
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        await migratePg(drizzlePg(client), { migrationsFolder });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
        client.release();
      }
    },
    ping: async () => {
      await pool.query('select 1');
    },
    session: async () => {
      const client = await pool.connect();
      let released = false;
      return {
        query: async <R>(text: string, params: unknown[]) => ({
          rows: (await client.query(text, params)).rows as R[],
        }),
        onLost: (listener) => {
          client.once('error', listener);
          client.once('end', listener);
        },
        release: () => {
          if (released) return;
          released = true;
          // Destroyed, never back to the pool: its session's advisory locks end with it.
          client.release(true);
        },
      };
    },
    close: () => pool.end(),
  };
}

/** PGlite on `dataDir` (its `pglite` subfolder) or in memory, without the lock: callers hold it (openDatabase, db/backup.ts). */
export async function openPglite(dataDir: string, loadDataDir: Blob | undefined): Promise<Database> {
  let location = dataDir;
  if (!dataDir.startsWith('memory://')) {
    location = join(resolve(dataDir), 'pglite');
    mkdirSync(location, { recursive: true });
  }
  const client = await PGlite.create(location, {
    extensions: { pg_trgm, unaccent },
    ...(loadDataDir ? { loadDataDir } : {}),
  });
  const db: Db = drizzlePglite(client, { schema });
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder }),
    ping: async () => {
      await client.query('select 1');
    },
    close: () => client.close(),
    dumpDataDir: () => client.dumpDataDir('none'),
    pglite: client,
  };
}
