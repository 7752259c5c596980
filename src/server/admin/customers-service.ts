import { sql } from 'drizzle-orm';
import type { AdminCustomerDetail, AdminCustomerRow } from '../../shared/schemas/admin.ts';
import type { Db } from '../db/client.ts';
import type { AddressSnapshot } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { ordersOfUser } from './orders-service.ts';
import { PAGE_SIZE, pagesOf } from './paging.ts';
import { iso, rows } from './sql.ts';

type UserRow = {
  id: number;
  name: string;
  email: string;
  lada: string;
  telefono: string;
  role: string;
  orders_count: number;
  created_at: string | Date;
};

const USER_SELECT = sql`select u.id, trim(u.nombre || ' ' || u.apellido_pat || ' ' || u.apellido_mat) as name, u.email,
    u.lada, u.telefono, u.role, u.created_at,
    (select count(*)::int from orders o where o.user_id = u.id and o.status not in ('pending_payment', 'payment_failed'))
      as orders_count
  from users u`;

const toRow = (r: UserRow): AdminCustomerRow => ({
  id: Number(r.id),
  name: r.name,
  email: r.email,
  phone: `+${r.lada} ${r.telefono}`,
  role: r.role === 'staff' ? 'staff' : 'customer',
  ordersCount: Number(r.orders_count),
  createdAt: iso(r.created_at),
});

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** GET /api/admin/customers: read-only, by name, e-mail or phone. */
export async function listCustomers(db: Db, query: { q?: string | undefined; page: number }) {
  const q = query.q?.trim();
  const like = q ? `%${likeEscape(q)}%` : null;
  const where = like
    ? sql`where u.email ilike ${like} or (u.nombre || ' ' || u.apellido_pat || ' ' || u.apellido_mat) ilike ${like}
        or u.telefono ilike ${like}`
    : sql``;
  const [count] = await rows<{ n: number }>(db, sql`select count(*)::int as n from users u ${where}`);
  const list = await rows<UserRow>(
    db,
    sql`${USER_SELECT} ${where} order by u.created_at desc, u.id desc
      limit ${PAGE_SIZE} offset ${(query.page - 1) * PAGE_SIZE}`,
  );
  const total = Number(count?.n ?? 0);
  return { items: list.map(toRow), total, page: query.page, pages: pagesOf(total) };
}

/** GET /api/admin/customers/:id: profile, saved address and orders. */
export async function getCustomer(db: Db, id: number): Promise<AdminCustomerDetail> {
  const [row] = await rows<UserRow>(db, sql`${USER_SELECT} where u.id = ${id}`);
  if (!row) throw notFound('Cliente no encontrado');
  const [address] = await rows<{ address: AddressSnapshot }>(
    db,
    sql`select json_build_object('nombreEnvio', nombre_envio, 'telefonoEnvio', telefono_envio, 'cpEnvio', cp_envio,
        'calleEnvio', calle_envio, 'numExtEnvio', num_ext_envio, 'numIntEnvio', num_int_envio,
        'coloniaEnvio', colonia_envio, 'municipioEnvio', municipio_envio, 'ciudadEnvio', ciudad_envio,
        'estadoEnvio', estado_envio, 'paisEnvio', pais_envio) as address
      from shipping_addresses where user_id = ${id}`,
  );
  const orders = await ordersOfUser(db, id);
  const spent = orders
    .filter((o) => ['paid', 'preparing', 'shipped', 'delivered'].includes(o.status))
    .reduce((sum, o) => sum + o.totalCents, 0);
  return { ...toRow(row), address: address?.address ?? null, totalSpentCents: spent, orders };
}
