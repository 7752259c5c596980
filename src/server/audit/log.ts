import { and, count, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import { addDays, mexicoDayStart } from '../../shared/mexico-time.ts';
import { AUDIT_ACTION_LABELS, type AuditEntry } from '../../shared/schemas/admin.ts';
import type { Db } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';

/**
 * The audit log: one row per staff action, written in the transaction of the action itself. It sits below
 * the features (orders, catalogue import, invoices, staff accounts write it; admin reads it), so a feature's
 * state change can record its staff actor without importing the admin HTTP layer.
 */

/** Who did it: a signed-in staff member, or the command line (scripts). */
export type Actor = { userId: number | null; label: string };
export const CLI_ACTOR: Actor = { userId: null, label: 'línea de comandos' };
export const actorOf = (user: { id: number; email: string }): Actor => ({
  userId: user.id,
  label: user.email,
});

export type AuditRecord = {
  action: keyof typeof AUDIT_ACTION_LABELS | string;
  entityType:
    | 'order'
    | 'product'
    | 'catalogue'
    | 'invoice'
    | 'user'
    | 'quotation'
    | 'synonym'
    | 'export'
    | 'institution';
  entityId: string | number;
  before?: unknown;
  after?: unknown;
};

export async function writeAudit(tx: Db, actor: Actor, record: AuditRecord): Promise<void> {
  await tx.insert(auditLog).values({
    actorUserId: actor.userId,
    actorLabel: actor.label,
    action: record.action,
    entityType: record.entityType,
    entityId: String(record.entityId),
    before: record.before ?? null,
    after: record.after ?? null,
  });
}

const toAuditEntry = (r: typeof auditLog.$inferSelect): AuditEntry => ({
  id: r.id,
  actor: r.actorLabel,
  action: r.action,
  actionLabel: AUDIT_ACTION_LABELS[r.action] ?? r.action,
  entityType: r.entityType,
  entityId: r.entityId,
  before: r.before,
  after: r.after,
  createdAt: r.createdAt.toISOString(),
});

/** The history of one entity, newest first. */
export async function auditOf(db: Db, entityType: string, entityId: string): Promise<AuditEntry[]> {
  const list = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityType, entityType), eq(auditLog.entityId, entityId)))
    .orderBy(desc(auditLog.id))
    .limit(200);
  return list.map(toAuditEntry);
}

/** One page of the log, newest first, filtered by entity, actor (part of the e-mail), action and days in Mexico City. */
export async function auditPage(
  db: Db,
  query: {
    entityType?: string | undefined;
    entityId?: string | undefined;
    actor?: string | undefined;
    action?: string | undefined;
    from?: string | undefined;
    to?: string | undefined;
  },
  page: { limit: number; offset: number },
): Promise<{ items: AuditEntry[]; total: number }> {
  const conditions: SQL[] = [];
  if (query.entityType) conditions.push(eq(auditLog.entityType, query.entityType));
  if (query.entityId) conditions.push(eq(auditLog.entityId, query.entityId));
  if (query.actor) {
    const escaped = query.actor.toLowerCase().replace(/[\\%_]/g, '\\$&');
    conditions.push(sql`lower(${auditLog.actorLabel}) like ${`%${escaped}%`}`);
  }
  if (query.action) conditions.push(eq(auditLog.action, query.action));
  if (query.from) conditions.push(gte(auditLog.createdAt, mexicoDayStart(query.from)));
  if (query.to) conditions.push(lt(auditLog.createdAt, mexicoDayStart(addDays(query.to, 1))));
  const where = and(...conditions);
  const [total] = await db.select({ n: count() }).from(auditLog).where(where);
  const list = await db
    .select()
    .from(auditLog)
    .where(where)
    .orderBy(desc(auditLog.id))
    .limit(page.limit)
    .offset(page.offset);
  return { items: list.map(toAuditEntry), total: total?.n ?? 0 };
}
