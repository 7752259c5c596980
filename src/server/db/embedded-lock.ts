import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../config-error.ts';

/**
 * One process owns an embedded (PGlite) data directory at a time (issue 16): two PGlite instances on
 * one folder each keep their own copy in memory, and the second one's writes vanish. The owner writes
 * `tienda.lock` in the data directory with its pid and start time; a lock whose process is gone (or
 * whose pid now belongs to another process, told apart by its start time) is stale and taken over.
 */

export const LOCK_FILE = 'tienda.lock';

export type LockHolder = {
  pid: number;
  /** Process start time: Linux clock ticks since boot (/proc/PID/stat), or null elsewhere. */
  start: string | null;
  /** 'shop' (the server, which also serves the database on `socket`) or 'tool' (a command). */
  role: 'shop' | 'tool';
  /** Unix socket directory where the shop serves its database (pg connects with host = this folder). */
  socketDir: string | null;
  since: string;
};

export const inUseMessage = (pid: number) =>
  `La base de datos incorporada está en uso por la tienda (pid ${pid}). Deténgala o use DATABASE_URL.`;

export class EmbeddedDatabaseInUse extends ConfigError {
  constructor(readonly holder: LockHolder) {
    super(inUseMessage(holder.pid));
  }
}

/** Field 22 of /proc/PID/stat (start time in clock ticks since boot); null where there is no /proc. */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** The recorded process still runs (and is the same process, not a reused pid). */
export function holderAlive(holder: LockHolder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else — still alive.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (holder.start === null) return true;
  const now = processStart(holder.pid);
  return now === null || now === holder.start;
}

export const lockPath = (dataDir: string) => join(resolve(dataDir), LOCK_FILE);

function readHolder(path: string): { raw: string; holder: LockHolder | null } | null {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = JSON.parse(raw) as LockHolder;
    return { raw, holder: Number.isInteger(parsed.pid) ? parsed : null };
  } catch {
    return { raw, holder: null };
  }
}

export type DataDirLock = { release(): void };

/**
 * Takes the lock, or answers the live holder. A stale lock (holder gone, or an unreadable file left by
 * a crash while writing) is removed only if it still has the content read, then taken like a free one:
 * `wx` creates the file only if nobody else created it in between, so two processes never both win.
 */
export function acquireDataDirLock(
  dataDir: string,
  role: LockHolder['role'],
  socketDir: string | null = null,
): { lock: DataDirLock } | { heldBy: LockHolder } {
  const path = lockPath(dataDir);
  const mine: LockHolder = {
    pid: process.pid,
    start: processStart(process.pid),
    role,
    socketDir,
    since: new Date().toISOString(),
  };
  const text = `${JSON.stringify(mine)}\n`;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      writeFileSync(path, text, { flag: 'wx' });
      const release = () => {
        const current = readHolder(path);
        if (current?.raw === text) {
          try {
            unlinkSync(path);
          } catch {}
        }
        process.off('exit', release);
      };
      process.on('exit', release);
      return { lock: { release } };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const current = readHolder(path);
    if (!current) continue; // removed meanwhile: try again
    if (current.holder && current.holder.pid !== process.pid && holderAlive(current.holder)) {
      return { heldBy: current.holder };
    }
    // Stale: remove it only if it is still the file we judged.
    if (readHolder(path)?.raw === current.raw) {
      try {
        unlinkSync(path);
      } catch {}
    }
  }
  throw new Error(`No se pudo tomar el candado de ${path}`);
}
