import { count, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type { AdminCustomerDetail, AdminCustomerRow } from '../../shared/schemas/admin.ts';
import { getShippingAddress } from '../account/addresses.ts';
import { type Actor, writeAudit } from '../audit/log.ts';
import type { Db } from '../db/client.ts';
import { orders, users } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { AFTER_PAYMENT } from '../orders/rules.ts';
import { ordersOfUser } from './orders-service.ts';
import { PAGE_SIZE, pagesOf } from './paging.ts';

const customerFields = {
  id: users.id,
  name: sql<string>`trim(${users.nombre} || ' ' || ${users.apellidoPat} || ' ' || ${users.apellidoMat})`,
  email: users.email,
  lada: users.lada,
  telefono: users.telefono,
  role: users.role,
  createdAt: users.createdAt,
  ordersCount: sql<number>`(select count(*)::int from ${orders} where ${orders.userId} = ${users.id}
    and ${orders.status} not in ('pending_payment', 'payment_failed'))`,
};
const selectCustomers = (db: Db) => db.select(customerFields).from(users);
type CustomerRow = Awaited<ReturnType<ReturnType<typeof selectCustomers>['execute']>>[number];

const toRow = (r: CustomerRow): AdminCustomerRow => ({
  id: r.id,
  name: r.name,
  email: r.email,
  phone: `+${r.lada} ${r.telefono}`,
  role: r.role === 'staff' ? 'staff' : 'customer',
  ordersCount: r.ordersCount,
  createdAt: r.createdAt.toISOString(),
});

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** GET /api/admin/customers: read-only, by name, e-mail or phone. */
export async function listCustomers(db: Db, query: { q?: string | undefined; page: number }) {
  const q = query.q?.trim();
  const like = q ? `%${likeEscape(q)}%` : null;
  const where = like
    ? or(
        ilike(users.email, like),
        ilike(sql`${users.nombre} || ' ' || ${users.apellidoPat} || ' ' || ${users.apellidoMat}`, like),
        ilike(users.telefono, like),
      )
    : undefined;
  const [total] = await db.select({ n: count() }).from(users).where(where);
  const list = await selectCustomers(db)
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(PAGE_SIZE)
    .offset((query.page - 1) * PAGE_SIZE);
  const n = total?.n ?? 0;
  return { items: list.map(toRow), total: n, page: query.page, pages: pagesOf(n) };
}

/** GET /api/admin/customers/:id: profile, saved address and orders. */
export async function getCustomer(db: Db, id: number): Promise<AdminCustomerDetail> {
  const [row] = await selectCustomers(db).where(eq(users.id, id));
  if (!row) throw notFound('Cliente no encontrado');
  const address = await getShippingAddress(db, id);
  const list = await ordersOfUser(db, id);
  const spent = list
    .filter((o) => AFTER_PAYMENT.includes(o.status))
    .reduce((sum, o) => sum + o.totalCents, 0);
  const [flags] = await db
    .select({ requiresPurchaseOrder: users.requiresPurchaseOrder })
    .from(users)
    .where(eq(users.id, id));
  return {
    ...toRow(row),
    address,
    requiresPurchaseOrder: flags?.requiresPurchaseOrder ?? false,
    totalSpentCents: spent,
    orders: list,
  };
}

/** Staff sets whether this buyer's every order needs a purchase-order number (issue 20), audited. */
export async function setPurchaseOrderRequired(db: Db, actor: Actor, id: number, required: boolean) {
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ requiresPurchaseOrder: users.requiresPurchaseOrder })
      .from(users)
      .where(eq(users.id, id))
      .for('update');
    if (!before) throw notFound('Cliente no encontrado');
    await tx
      .update(users)
      .set({ requiresPurchaseOrder: required, updatedAt: new Date() })
      .where(eq(users.id, id));
    await writeAudit(tx, actor, {
      action: 'customer.purchase-order',
      entityType: 'user',
      entityId: id,
      before,
      after: { requiresPurchaseOrder: required },
    });
  });
  return getCustomer(db, id);
}
