import { and, count, desc, eq, ilike, or } from 'drizzle-orm';
import { INVOICE_STATUS_LABELS } from '../../shared/schemas/admin.ts';
import { type Actor, writeAudit } from '../audit/log.ts';
import type { SessionUser } from '../auth/session.ts';
import type { Db } from '../db/client.ts';
import { invoices, orders, users } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { PAGE_SIZE, pagesOf } from './paging.ts';

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** GET /api/admin/invoices */
const CANCELLATION_LABELS: Record<string, string> = {
  pending: 'Vigente · cancelación en proceso',
  rejected: 'Vigente · cancelación rechazada',
};

export async function listAdminInvoices(
  db: Db,
  query: { status: '' | 'issued' | 'cancelled' | 'pending'; q?: string | undefined; page: number },
) {
  const q = query.q?.trim();
  const like = q ? `%${likeEscape(q)}%` : '';
  const number = q && /^#?\d{1,9}$/.test(q) ? Number(q.replace('#', '')) : null;
  const where = and(
    query.status ? eq(invoices.status, query.status) : undefined,
    q
      ? or(
          number !== null ? eq(invoices.orderNumber, number) : undefined,
          ilike(invoices.rfc, like),
          ilike(invoices.uuid, like),
          ilike(users.email, like),
          ilike(invoices.nombreFiscal, like),
        )
      : undefined,
  );
  const [total] = await db
    .select({ n: count() })
    .from(invoices)
    .innerJoin(users, eq(users.id, invoices.userId))
    .where(where);
  const list = await db
    .select({
      id: invoices.id,
      orderNumber: invoices.orderNumber,
      status: invoices.status,
      uuid: invoices.uuid,
      rfc: invoices.rfc,
      nombreFiscal: invoices.nombreFiscal,
      email: users.email,
      totalCents: invoices.totalCents,
      test: invoices.test,
      issuedAt: invoices.issuedAt,
      cancelledAt: invoices.cancelledAt,
      cancelStatus: invoices.cancelStatus,
    })
    .from(invoices)
    .innerJoin(users, eq(users.id, invoices.userId))
    .where(where)
    .orderBy(desc(invoices.id))
    .limit(PAGE_SIZE)
    .offset((query.page - 1) * PAGE_SIZE);
  const n = total?.n ?? 0;
  return {
    items: list.map(({ cancelStatus, ...r }) => ({
      ...r,
      // A cancellation 'en proceso' is not a cancelled invoice: it is still valid until the receptor accepts.
      statusLabel:
        r.status === 'issued' && cancelStatus
          ? (CANCELLATION_LABELS[cancelStatus] ?? r.status)
          : (INVOICE_STATUS_LABELS[r.status] ?? r.status),
      issuedAt: r.issuedAt?.toISOString() ?? null,
      cancelledAt: r.cancelledAt?.toISOString() ?? null,
    })),
    total: n,
    page: query.page,
    pages: pagesOf(n),
  };
}

/**
 * The order's owner as the invoices service expects its caller: that service checks ownership and
 * mails the owner, which is what a staff action on their invoice must do too.
 */
export async function ownerOf(db: Db, number: number): Promise<SessionUser> {
  const [u] = await db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      nombre: users.nombre,
      apellidoPat: users.apellidoPat,
      apellidoMat: users.apellidoMat,
      telefono: users.telefono,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.number, number));
  if (!u) throw notFound('Pedido no encontrado');
  return { ...u, role: u.role === 'staff' ? 'staff' : 'customer' };
}

/** Cancels through the invoices service, then writes the audit row. */
export async function cancelInvoiceByStaff(
  db: Db,
  actor: Actor,
  number: number,
  motivo: string,
  cancel: (owner: SessionUser) => Promise<{ message: string; invoice: { cancellation: string | null } }>,
): Promise<{ message: string }> {
  const owner = await ownerOf(db, number);
  const [before] = await db
    .select({ uuid: invoices.uuid, status: invoices.status })
    .from(invoices)
    .where(and(eq(invoices.orderNumber, number), eq(invoices.status, 'issued'), eq(invoices.kind, 'I')))
    .limit(1);
  const answer = await cancel(owner);
  // A repeated cancellation (double click, retry after a lost answer) answers the state reached; nothing
  // happened, so nothing is audited.
  if (!before) return { message: answer.message };
  const pending = answer.invoice.cancellation !== null;
  await writeAudit(db, actor, {
    action: 'invoice.cancel',
    entityType: 'invoice',
    entityId: number,
    before: before ?? null,
    after: {
      uuid: before?.uuid ?? null,
      status: pending ? 'issued' : 'cancelled',
      cancellation: answer.invoice.cancellation,
      motivo,
    },
  });
  return {
    message: pending
      ? `La cancelación de la factura del pedido #${number} quedó en proceso: el receptor debe aceptarla ante el SAT.`
      : `Factura del pedido #${number} cancelada; avisamos al cliente por correo.`,
  };
}
