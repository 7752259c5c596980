import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { mailOutbox, type OutboxAttachment } from '../db/schema.ts';

export type { OutboxAttachment };

export type OutgoingMail = {
  /** What the mail is about, for logs and /dev/correo: 'recovery-code', 'welcome', 'order-paid'… */
  kind: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  attachments?: OutboxAttachment[];
  /** Makes enqueueing idempotent: a second mail with the same key is ignored. */
  dedupeKey?: string;
};

/**
 * Writes a mail to the outbox. Call it with the transaction of the event that causes the mail
 * (`enqueueMail(tx, …)`), so the mail exists exactly when the event does; the worker sends it.
 * Returns the outbox id, or null when a mail with the same dedupeKey was already queued.
 */
export async function enqueueMail(db: Db, mail: OutgoingMail): Promise<number | null> {
  const rows = await db
    .insert(mailOutbox)
    .values({
      kind: mail.kind,
      to: mail.to,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      attachments: mail.attachments ?? [],
      dedupeKey: mail.dedupeKey ?? null,
    })
    .onConflictDoNothing({ target: mailOutbox.dedupeKey, where: sql`${mailOutbox.dedupeKey} is not null` })
    .returning({ id: mailOutbox.id });
  return rows[0]?.id ?? null;
}
