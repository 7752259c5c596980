import { and, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { mexicoCityDate, mexicoMonth } from '../../shared/mexico-time.ts';
import { formatMoney } from '../../shared/money.ts';
import type { Db, Tx } from '../db/client.ts';
import { institutionMembers, orders, requisitions } from '../db/schema.ts';
import { conflict } from '../http/errors.ts';

/**
 * A member's spending limits (issue 34, decision 059): per order and per calendar month in Mexico City, in
 * centavos, null = none. ONE function, so the requisition's send, its placement and (once the lead unifies it)
 * checkout's order rules all ask the same question the same way.
 */

/** [start, end) of `now`'s month in Mexico City. */
export function mexicoMonthOf(now: Date) {
  const [year, month] = mexicoCityDate(now).split('-').map(Number) as [number, number];
  return mexicoMonth(year, month);
}

/**
 * What a member has spent for the institution this month: its orders that count (not declined, not released
 * unpaid) placed by the member or placed from the member's requisitions.
 */
export async function spentThisMonth(db: Db | Tx, institutionId: number, userId: number, now: Date) {
  const { start, end } = mexicoMonthOf(now);
  const fromTheirRequisitions = db
    .select({ n: requisitions.orderNumber })
    .from(requisitions)
    .where(and(eq(requisitions.institutionId, institutionId), eq(requisitions.requesterId, userId)));
  const [row] = await db
    .select({ cents: sql<string>`coalesce(sum(${orders.totalCents}), 0)::text` })
    .from(orders)
    .where(
      and(
        eq(orders.institutionId, institutionId),
        gte(orders.createdAt, start),
        lt(orders.createdAt, end),
        or(eq(orders.userId, userId), inArray(orders.number, fromTheirRequisitions)),
        sql`${orders.status} <> 'payment_failed'`,
        sql`not (${orders.status} = 'cancelled' and ${orders.paidAt} is null)`,
      ),
    );
  return Number(row?.cents ?? 0);
}

/**
 * Refuses (409, in Spanish, with the figures) an order of `totalCents` for `userId` in `institutionId` above their
 * limit per order, or above what is left of their monthly limit. With `lock`, the member's row is locked first
 * so two placements for the same member in the same month cannot both pass on the same figure.
 */
export async function checkSpendingLimits(
  db: Db | Tx,
  member: { institutionId: number; userId: number; name: string },
  totalCents: number,
  options: { now?: Date; lock?: boolean } = {},
): Promise<void> {
  const now = options.now ?? new Date();
  const query = db
    .select({
      orderLimitCents: institutionMembers.orderLimitCents,
      monthlyLimitCents: institutionMembers.monthlyLimitCents,
    })
    .from(institutionMembers)
    .where(
      and(
        eq(institutionMembers.institutionId, member.institutionId),
        eq(institutionMembers.userId, member.userId),
        isNull(institutionMembers.removedAt),
      ),
    );
  const [limits] = options.lock ? await query.for('update') : await query;
  if (!limits) throw conflict(`${member.name} ya no es miembro de la institución`, 'not_a_member');
  if (limits.orderLimitCents !== null && totalCents > limits.orderLimitCents)
    throw conflict(
      `El total de ${formatMoney(totalCents)} rebasa el límite por pedido de ${member.name} (${formatMoney(limits.orderLimitCents)})`,
      'order_limit',
    );
  if (limits.monthlyLimitCents !== null) {
    const spent = await spentThisMonth(db, member.institutionId, member.userId, now);
    if (spent + totalCents > limits.monthlyLimitCents)
      throw conflict(
        `El total de ${formatMoney(totalCents)} rebasa lo que queda del límite mensual de ${member.name}: ${formatMoney(Math.max(0, limits.monthlyLimitCents - spent))} de ${formatMoney(limits.monthlyLimitCents)}`,
        'monthly_limit',
      );
  }
}
