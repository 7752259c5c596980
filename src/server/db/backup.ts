import { createHash } from 'node:crypto';
import { existsSync, readdirSync, renameSync } from 'node:fs';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { ConfigError } from '../config-error.ts';
import { type Database, openPglite } from './client.ts';
import { acquireDataDirLock, type DataDirLock } from './embedded-lock.ts';

/**
 * Backups of the embedded database (decision 054): `npm run backup` writes the data directory as PGlite's own tarball
 * (`dumpDataDir`, gzip), taken with the folder's lock held — so with the shop stopped, the only moment PGlite's files
 * are consistent on disk; `npm run restore` opens a fresh data directory from it. Both refuse while the shop runs, and
 * neither overwrites anything without --force (and even then the old data directory is kept aside, renamed).
 * PostgreSQL is backed up with pg_dump / pg_restore (README).
 */

export type Progress = (line: string) => void;

/** What the operator checks a backup by: the rows that matter, counted in the database. */
export type BackupSummary = { orders: number; invoices: number; stockMovements: number; ledger: number };

async function summary(database: Database): Promise<BackupSummary> {
  const { rows } = await database.db.execute<{ o: number; i: number; s: number; l: number }>(sql`select
    (select count(*)::int from orders) as o, (select count(*)::int from invoices) as i,
    (select count(*)::int from stock_movements) as s, (select count(*)::int from order_ledger) as l`);
  const r = rows[0]!;
  return { orders: Number(r.o), invoices: Number(r.i), stockMovements: Number(r.s), ledger: Number(r.l) };
}

export const describeSummary = (s: BackupSummary) =>
  `${s.orders} pedidos, ${s.invoices} facturas, ${s.stockMovements} movimientos de existencias, ${s.ledger} asientos del libro de pedidos`;

const pgliteFolder = (dataDir: string) => join(resolve(dataDir), 'pglite');
const hasDatabase = (dataDir: string) => {
  const folder = pgliteFolder(dataDir);
  return existsSync(folder) && readdirSync(folder).length > 0;
};

/** The folder's lock, or the refusal naming the running shop or command (decision 017's lock). */
function lockFolder(dataDir: string, action: string): DataDirLock {
  const taken = acquireDataDirLock(resolve(dataDir), 'tool');
  if ('heldBy' in taken) {
    const { pid, role } = taken.heldBy;
    throw new ConfigError(
      role === 'shop'
        ? `La tienda está en marcha (pid ${pid}) con ${resolve(dataDir)}: deténgala primero para ${action} (con la tienda en marcha el resultado no sería consistente).`
        : `Otro comando (pid ${pid}) usa ${resolve(dataDir)}: espere a que termine para ${action}.`,
    );
  }
  return taken.lock;
}

/** Writes `data` to `path` in chunks, reporting each step (a file is written beside it, then renamed into place). */
async function writeWithProgress(path: string, data: Uint8Array, progress: Progress) {
  const partial = `${path}.parcial`;
  const file = await open(partial, 'w');
  try {
    const chunk = 4 * 1024 * 1024;
    for (let offset = 0; offset < data.length; offset += chunk) {
      await file.write(data.subarray(offset, Math.min(offset + chunk, data.length)));
      const done = Math.min(offset + chunk, data.length);
      progress(`  escrito ${mb(done)} de ${mb(data.length)} (${Math.floor((done / data.length) * 100)} %)`);
    }
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(partial, path);
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export async function backupEmbedded(options: {
  dataDir: string;
  out: string;
  force?: boolean;
  progress?: Progress;
}): Promise<{ file: string; bytes: number; sha256: string; summary: BackupSummary }> {
  const progress = options.progress ?? (() => {});
  const out = resolve(options.out);
  if (!hasDatabase(options.dataDir)) {
    throw new ConfigError(`No hay base de datos incorporada en ${resolve(options.dataDir)} (DATA_DIR).`);
  }
  if (existsSync(out) && !options.force) {
    throw new ConfigError(
      `El respaldo ${out} ya existe; elija otro nombre con --out o use --force para reemplazarlo.`,
    );
  }
  const lock = lockFolder(options.dataDir, 'respaldar');
  try {
    progress(`Abriendo la base de datos de ${resolve(options.dataDir)}…`);
    const database = await openPglite(options.dataDir, undefined);
    let tar: Uint8Array;
    let counted: BackupSummary;
    try {
      counted = await summary(database);
      progress(`Contiene ${describeSummary(counted)}. Volcando…`);
      tar = new Uint8Array(await (await database.dumpDataDir!()).arrayBuffer());
    } finally {
      await database.close();
    }
    progress(`Comprimiendo ${mb(tar.length)}…`);
    const packed = new Uint8Array(await promisify(gzip)(tar));
    await mkdir(dirname(out), { recursive: true });
    progress(`Escribiendo ${out}…`);
    await writeWithProgress(out, packed, progress);
    const sha256 = createHash('sha256').update(packed).digest('hex');
    return { file: out, bytes: packed.length, sha256, summary: counted };
  } finally {
    lock.release();
  }
}

export async function restoreEmbedded(options: {
  file: string;
  dataDir: string;
  force?: boolean;
  progress?: Progress;
}): Promise<{ summary: BackupSummary; keptAside: string | null }> {
  const progress = options.progress ?? (() => {});
  const file = resolve(options.file);
  if (!existsSync(file)) throw new ConfigError(`No existe el respaldo ${file}.`);
  if (hasDatabase(options.dataDir) && !options.force) {
    throw new ConfigError(
      `${resolve(options.dataDir)} ya tiene una base de datos; restaure en otra carpeta (DATA_DIR) o use --force (la actual se conserva renombrada).`,
    );
  }
  await mkdir(resolve(options.dataDir), { recursive: true });
  const lock = lockFolder(options.dataDir, 'restaurar');
  let keptAside: string | null = null;
  try {
    progress(`Leyendo ${file}…`);
    const packed = await readFile(file);
    progress(`Descomprimiendo ${mb(packed.length)}…`);
    const tar = await promisify(gunzip)(packed);
    if (hasDatabase(options.dataDir)) {
      keptAside = `${pgliteFolder(options.dataDir)}.antes-de-restaurar-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      progress(`La base de datos actual se conserva en ${keptAside}`);
      renameSync(pgliteFolder(options.dataDir), keptAside);
    }
    progress(`Restaurando ${mb(tar.length)} en ${resolve(options.dataDir)}…`);
    let database: Database | undefined;
    try {
      database = await openPglite(options.dataDir, new Blob([new Uint8Array(tar)]));
      const counted = await summary(database);
      progress(`Restaurado: ${describeSummary(counted)}.`);
      return { summary: counted, keptAside };
    } catch (error) {
      // A broken file: nothing half-restored stays, and the previous database goes back where it was.
      await database?.close().catch(() => {});
      database = undefined;
      await rm(pgliteFolder(options.dataDir), { recursive: true, force: true });
      if (keptAside) renameSync(keptAside, pgliteFolder(options.dataDir));
      throw new ConfigError(
        `No se pudo restaurar ${file}: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      await database?.close();
    }
  } finally {
    lock.release();
  }
}
