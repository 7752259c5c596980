import { type SQL, sql } from 'drizzle-orm';
import { INVOICE_STATUS_LABELS } from '../../shared/schemas/admin.ts';
import { type Actor, writeAudit } from '../audit/log.ts';
import type { SessionUser } from '../auth/session.ts';
import type { Db } from '../db/client.ts';
import { notFound } from '../http/errors.ts';
import { PAGE_SIZE, pagesOf } from './paging.ts';
import { isoOrNull, rows } from './sql.ts';

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** GET /api/admin/invoices */
export async function listAdminInvoices(
  db: Db,
  query: { status: '' | 'issued' | 'cancelled' | 'pending'; q?: string | undefined; page: number },
) {
  const conditions: SQL[] = [];
  if (query.status) conditions.push(sql`i.status = ${query.status}`);
  const q = query.q?.trim();
  if (q) {
    const like = `%${likeEscape(q)}%`;
    const number = /^#?\d{1,9}$/.test(q) ? Number(q.replace('#', '')) : null;
    conditions.push(sql`(${number !== null ? sql`i.order_number = ${number} or` : sql``}
      i.rfc ilike ${like} or i.uuid ilike ${like} or u.email ilike ${like} or i.nombre_fiscal ilike ${like})`);
  }
  const where = conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
  const [count] = await rows<{ n: number }>(
    db,
    sql`select count(*)::int as n from invoices i join users u on u.id = i.user_id ${where}`,
  );
  const list = await rows<{
    id: number;
    order_number: number;
    status: string;
    uuid: string | null;
    rfc: string;
    nombre_fiscal: string;
    email: string;
    total_cents: number;
    test: boolean;
    issued_at: string | Date | null;
    cancelled_at: string | Date | null;
  }>(
    db,
    sql`select i.id, i.order_number, i.status, i.uuid, i.rfc, i.nombre_fiscal, u.email, i.total_cents, i.test,
        i.issued_at, i.cancelled_at
      from invoices i join users u on u.id = i.user_id ${where}
      order by i.id desc limit ${PAGE_SIZE} offset ${(query.page - 1) * PAGE_SIZE}`,
  );
  const total = Number(count?.n ?? 0);
  return {
    items: list.map((r) => ({
      id: Number(r.id),
      orderNumber: Number(r.order_number),
      status: r.status,
      statusLabel: INVOICE_STATUS_LABELS[r.status] ?? r.status,
      uuid: r.uuid,
      rfc: r.rfc,
      nombreFiscal: r.nombre_fiscal,
      email: r.email,
      totalCents: Number(r.total_cents),
      test: r.test,
      issuedAt: isoOrNull(r.issued_at),
      cancelledAt: isoOrNull(r.cancelled_at),
    })),
    total,
    page: query.page,
    pages: pagesOf(total),
  };
}

/**
 * The order's owner as the invoices service expects its caller: that service checks ownership and
 * mails the owner, which is what a staff action on their invoice must do too.
 */
export async function ownerOf(db: Db, number: number): Promise<SessionUser> {
  const [u] = await rows<{
    id: number;
    email: string;
    role: string;
    nombre: string;
    apellido_pat: string;
    apellido_mat: string;
    telefono: string;
  }>(
    db,
    sql`select u.id, u.email, u.role, u.nombre, u.apellido_pat, u.apellido_mat, u.telefono
      from orders o join users u on u.id = o.user_id where o.number = ${number}`,
  );
  if (!u) throw notFound('Pedido no encontrado');
  return {
    id: Number(u.id),
    email: u.email,
    role: u.role === 'staff' ? 'staff' : 'customer',
    nombre: u.nombre,
    apellidoPat: u.apellido_pat,
    apellidoMat: u.apellido_mat,
    telefono: u.telefono,
  };
}

/** Cancels through the invoices service, then writes the audit row. */
export async function cancelInvoiceByStaff(
  db: Db,
  actor: Actor,
  number: number,
  cancel: (owner: SessionUser) => Promise<{ message: string }>,
): Promise<{ message: string }> {
  const owner = await ownerOf(db, number);
  const [before] = await rows<{ uuid: string | null; status: string }>(
    db,
    sql`select uuid, status from invoices where order_number = ${number} and status = 'issued' limit 1`,
  );
  await cancel(owner);
  await writeAudit(db, actor, {
    action: 'invoice.cancel',
    entityType: 'invoice',
    entityId: number,
    before: before ?? null,
    after: { uuid: before?.uuid ?? null, status: 'cancelled', motivo: '02' },
  });
  return { message: `Factura del pedido #${number} cancelada; avisamos al cliente por correo.` };
}
