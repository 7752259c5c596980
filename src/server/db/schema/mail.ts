import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export type OutboxAttachment = { filename: string; contentType: string; contentBase64: string };

/**
 * Mail is written here in the same transaction as the event that causes it and sent by a worker
 * with retries, so nothing the shopper should receive is lost in a crash.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    /** Optional key that makes enqueueing idempotent (e.g. 'order-paid:1042'). */
    dedupeKey: text('dedupe_key'),
    kind: text('kind').notNull(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    attachments: jsonb('attachments').$type<OutboxAttachment[]>().notNull().default([]),
    /** 'pending', 'sent' or 'failed' (gave up after the last retry). */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('mail_outbox_dedupe_idx').on(t.dedupeKey).where(sql`${t.dedupeKey} is not null`),
    index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt),
  ],
);
