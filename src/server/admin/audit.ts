import { sql } from 'drizzle-orm';
import { AUDIT_ACTION_LABELS, type AuditEntry } from '../../shared/schemas/admin.ts';
import type { Db } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';
import { rows } from './sql.ts';

/** Who did it: a signed-in staff member, or the command line (scripts). */
export type Actor = { userId: number | null; label: string };
export const CLI_ACTOR: Actor = { userId: null, label: 'línea de comandos' };
export const actorOf = (user: { id: number; email: string }): Actor => ({
  userId: user.id,
  label: user.email,
});

export type AuditRecord = {
  action: keyof typeof AUDIT_ACTION_LABELS | string;
  entityType: 'order' | 'product' | 'catalogue' | 'invoice' | 'user';
  entityId: string | number;
  before?: unknown;
  after?: unknown;
};

/** One row per staff action, written in the transaction of the action itself. */
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

type AuditRow = {
  id: number;
  actor_label: string;
  action: string;
  entity_type: string;
  entity_id: string;
  before: unknown;
  after: unknown;
  created_at: string | Date;
};

export const toAuditEntry = (r: AuditRow): AuditEntry => ({
  id: Number(r.id),
  actor: r.actor_label,
  action: r.action,
  actionLabel: AUDIT_ACTION_LABELS[r.action] ?? r.action,
  entityType: r.entity_type,
  entityId: r.entity_id,
  before: r.before,
  after: r.after,
  createdAt: new Date(r.created_at).toISOString(),
});

export async function auditOf(db: Db, entityType: string, entityId: string): Promise<AuditEntry[]> {
  const list = await rows<AuditRow>(
    db,
    sql`select id, actor_label, action, entity_type, entity_id, before, after, created_at from audit_log
      where entity_type = ${entityType} and entity_id = ${entityId} order by id desc limit 200`,
  );
  return list.map(toAuditEntry);
}

export const PAGE_SIZE = 25;
export const pagesOf = (total: number, size = PAGE_SIZE) => Math.max(1, Math.ceil(total / size));

export async function listAudit(
  db: Db,
  query: { entityType?: string | undefined; entityId?: string | undefined; page: number },
) {
  const where = sql`where true ${query.entityType ? sql`and entity_type = ${query.entityType}` : sql``}
    ${query.entityId ? sql`and entity_id = ${query.entityId}` : sql``}`;
  const [count] = await rows<{ n: number }>(db, sql`select count(*)::int as n from audit_log ${where}`);
  const list = await rows<AuditRow>(
    db,
    sql`select id, actor_label, action, entity_type, entity_id, before, after, created_at from audit_log ${where}
      order by id desc limit ${PAGE_SIZE} offset ${(query.page - 1) * PAGE_SIZE}`,
  );
  const total = Number(count?.n ?? 0);
  return { items: list.map(toAuditEntry), total, page: query.page, pages: pagesOf(total) };
}
