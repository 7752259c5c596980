import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

/**
 * Every staff action (order transitions, cancellations, product edits, stock adjustments, imports,
 * invoice cancellations, staff accounts): who, what, on which entity, the state before and after.
 * Rows are only ever inserted. actorUserId is null for command-line work (actorLabel says so).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorUserId: integer('actor_user_id').references(() => users.id),
    /** The actor's e-mail at the time, or 'línea de comandos'. */
    actorLabel: text('actor_label').notNull(),
    /** 'order.ship', 'product.update', 'stock.adjust', 'catalogue.import'… */
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_log_entity_idx').on(t.entityType, t.entityId, t.createdAt),
    index('audit_log_created_idx').on(t.createdAt),
  ],
);
