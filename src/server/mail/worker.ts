import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { mailOutbox } from '../db/schema.ts';
import type { MailMessage, MailTransport } from './transport.ts';

export type MailWorkerOptions = {
  db: Db;
  transport: MailTransport;
  log: FastifyBaseLogger;
  /** Pause between polls. */
  intervalMs?: number;
  batchSize?: number;
  /** After this many failed attempts a mail is marked 'failed'. */
  maxAttempts?: number;
  /** First retry delay; doubles with each attempt, capped at one hour. */
  backoffBaseMs?: number;
  /** How long a claimed mail stays reserved for this worker (a crashed worker's claim expires). */
  lockMs?: number;
};

export type MailWorker = {
  /** Claims and sends one batch of due mails; resolves with how many were sent. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
};

const claimedColumns = {
  id: mailOutbox.id,
  kind: mailOutbox.kind,
  to: mailOutbox.to,
  subject: mailOutbox.subject,
  html: mailOutbox.html,
  text: mailOutbox.text,
  attachments: mailOutbox.attachments,
  attempts: mailOutbox.attempts,
};
type ClaimedRow = { [K in keyof typeof claimedColumns]: (typeof mailOutbox.$inferSelect)[K] };

export const backoffMs = (attempts: number, base: number) => Math.min(base * 2 ** (attempts - 1), 3_600_000);

/**
 * Sends the outbox. Claiming is one UPDATE over a `FOR UPDATE SKIP LOCKED` subselect that also sets
 * lockedUntil, so several instances never take the same mail; failures are retried with
 * exponential backoff and given up after maxAttempts.
 */
export function startMailWorker(options: MailWorkerOptions, autoStart = true): MailWorker {
  const {
    db,
    transport,
    log,
    intervalMs = 2000,
    batchSize = 10,
    maxAttempts = 8,
    backoffBaseMs = 30_000,
    lockMs = 120_000,
  } = options;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<number> | undefined;

  async function claim(): Promise<ClaimedRow[]> {
    const due = db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.status, 'pending'),
          lte(mailOutbox.nextAttemptAt, sql`now()`),
          or(isNull(mailOutbox.lockedUntil), lt(mailOutbox.lockedUntil, sql`now()`)),
        ),
      )
      .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.id))
      .limit(batchSize)
      .for('update', { skipLocked: true });
    return db
      .update(mailOutbox)
      .set({
        lockedUntil: sql`now() + make_interval(secs => ${lockMs / 1000}::float8)`,
        attempts: sql`${mailOutbox.attempts} + 1`,
      })
      .where(inArray(mailOutbox.id, due))
      .returning(claimedColumns);
  }

  async function sendOne(row: ClaimedRow): Promise<boolean> {
    const mail: MailMessage = { ...row, attachments: row.attachments ?? [] };
    try {
      await transport.send(mail);
      await db
        .update(mailOutbox)
        .set({ status: 'sent', sentAt: sql`now()`, lockedUntil: null, lastError: null })
        .where(eq(mailOutbox.id, row.id));
      return true;
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      const giveUp = row.attempts >= maxAttempts;
      const delay = backoffMs(row.attempts, backoffBaseMs);
      await db
        .update(mailOutbox)
        .set({
          status: giveUp ? 'failed' : 'pending',
          nextAttemptAt: sql`now() + make_interval(secs => ${delay / 1000}::float8)`,
          lockedUntil: null,
          lastError: message,
        })
        .where(eq(mailOutbox.id, row.id));
      log[giveUp ? 'error' : 'warn'](
        { mailId: row.id, kind: row.kind, attempts: row.attempts, err: message },
        giveUp ? 'correo descartado tras el último intento' : 'no se pudo enviar el correo; se reintentará',
      );
      return false;
    }
  }

  async function runOnce(): Promise<number> {
    const rows = await claim();
    let sent = 0;
    for (const row of rows) if (await sendOne(row)) sent++;
    return sent;
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      running = runOnce()
        .catch((error: unknown) => {
          log.error({ err: error }, 'error en el envío de correos');
          return 0;
        })
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, intervalMs);
    timer.unref();
  }

  if (autoStart) schedule();

  return {
    runOnce: () => {
      running = runOnce();
      return running.finally(() => {
        running = undefined;
      });
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => 0);
      transport.close();
    },
  };
}
