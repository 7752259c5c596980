import { lt, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { recoveryCodes, sessions } from '../db/schema.ts';
import { SESSION_IDLE_MS } from './session.ts';
import { purgeOldAttempts } from './throttle.ts';

/** Removes expired sessions and recovery codes and old attempt counters. */
export async function purgeExpiredAuthData(db: Db) {
  const now = Date.now();
  await db
    .delete(sessions)
    .where(
      or(lt(sessions.expiresAt, new Date(now)), lt(sessions.lastSeenAt, new Date(now - SESSION_IDLE_MS))),
    );
  await db.delete(recoveryCodes).where(lt(recoveryCodes.expiresAt, new Date(now - 24 * 60 * 60 * 1000)));
  await purgeOldAttempts(db);
}

/** Hourly purge; the first one a minute after start. */
export function startAuthCleanup(db: Db, log: FastifyBaseLogger) {
  const run = () =>
    purgeExpiredAuthData(db).catch((error: unknown) =>
      log.error({ err: error }, 'limpieza de sesiones fallida'),
    );
  const first = setTimeout(run, 60_000);
  const every = setInterval(run, 60 * 60_000);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
