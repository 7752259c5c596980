import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import { addDays, mexicoDayStart, mexicoWallClock } from '../../shared/mexico-time.ts';
import { type Actor, writeAudit } from '../audit/log.ts';
import type { Db } from '../db/client.ts';
import { controlledDeclarations, orders, users } from '../db/schema.ts';
import { csvFile } from '../http/csv.ts';
import { badRequest } from '../http/errors.ts';
import { orderStatusLabel } from '../orders/rules.ts';

/**
 * The list of controlled-chemical sales of a period (decision 030), for the authority or the shop's own
 * books: one CSV row per controlled product of each order whose declaration was accepted in the period.
 * Days are Mexico City days (src/shared/mexico-time.ts), both inclusive. UTF-8 with a BOM so that Excel
 * opens the accents right; a cell that starts like a formula is prefixed with an apostrophe (the declared use
 * is the buyer's own text).
 */

export const MAX_EXPORT_DAYS = 366;
export const EXPORT_HEADER = [
  'Fecha',
  'Pedido',
  'Estado',
  'Código',
  'Producto',
  'Cantidad',
  'Comprador',
  'Correo',
  'RFC',
  'Razón social',
  'Uso final declarado',
] as const;

/** 'YYYY-MM-DD HH:MM' in Mexico City. */
const mexicoTime = (d: Date) => mexicoWallClock(d).slice(0, 16).replace('T', ' ');

export function periodBounds(from: string, to: string) {
  if (from > to) {
    const message = 'La fecha inicial es posterior a la final';
    throw badRequest(message, { from: message });
  }
  const start = mexicoDayStart(from);
  const end = mexicoDayStart(addDays(to, 1));
  if ((end.getTime() - start.getTime()) / 86_400_000 > MAX_EXPORT_DAYS) {
    const message = `El periodo admite hasta ${MAX_EXPORT_DAYS} días; exporte por partes`;
    throw badRequest(message, { to: message });
  }
  return { start, end };
}

export type ControlledSaleRow = {
  date: string;
  orderNumber: number;
  status: string;
  code: string;
  name: string;
  quantity: number;
  buyer: string;
  email: string;
  rfc: string;
  razonSocial: string;
  declaredUse: string;
};

/** The period's controlled sales, one row per controlled product of each order, oldest first. */
export async function controlledSales(db: Db, period: { from: string; to: string }) {
  const { start, end } = periodBounds(period.from, period.to);
  const list = await db
    .select({
      d: controlledDeclarations,
      status: orders.status,
      cancelledAt: orders.cancelledAt,
      paymentMethod: orders.paymentMethod,
      buyer: sql<string>`trim(${users.nombre} || ' ' || ${users.apellidoPat} || ' ' || ${users.apellidoMat})`,
      email: users.email,
    })
    .from(controlledDeclarations)
    .innerJoin(orders, eq(orders.number, controlledDeclarations.orderNumber))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(and(gte(controlledDeclarations.acceptedAt, start), lt(controlledDeclarations.acceptedAt, end)))
    .orderBy(asc(controlledDeclarations.acceptedAt), asc(controlledDeclarations.orderNumber));
  const rows: ControlledSaleRow[] = list.flatMap((r) =>
    r.d.products.map((p) => ({
      date: mexicoTime(r.d.acceptedAt),
      orderNumber: r.d.orderNumber,
      status: orderStatusLabel(r),
      code: p.code,
      name: p.name,
      quantity: p.quantity,
      buyer: r.buyer,
      email: r.email,
      rfc: r.d.rfc,
      razonSocial: r.d.razonSocial,
      declaredUse: r.d.declaredUse,
    })),
  );
  return { orders: list.length, rows };
}

/** The CSV staff download; the download itself is written to the audit log (who took which period). */
export async function controlledSalesCsv(
  db: Db,
  actor: Actor,
  period: { from: string; to: string },
): Promise<{ csv: string; filename: string; rows: number }> {
  const { orders: count, rows } = await controlledSales(db, period);
  const csv = csvFile([
    EXPORT_HEADER,
    ...rows.map((r) => [
      r.date,
      r.orderNumber,
      r.status,
      r.code,
      r.name,
      r.quantity,
      r.buyer,
      r.email,
      r.rfc,
      r.razonSocial,
      r.declaredUse,
    ]),
  ]);
  await writeAudit(db, actor, {
    action: 'controlled.export',
    entityType: 'export',
    entityId: `ventas-controladas ${period.from}..${period.to}`,
    after: { orders: count, rows: rows.length },
  });
  return {
    csv,
    filename: `ventas-controladas_${period.from}_${period.to}.csv`,
    rows: rows.length,
  };
}
