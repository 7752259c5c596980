import { lt, or } from 'drizzle-orm';
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
