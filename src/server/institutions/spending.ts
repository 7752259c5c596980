import { and, eq, gte, inArray, isNull, lt, notInArray, sql } from 'drizzle-orm';
import { mexicoCityDate, mexicoMonth } from '../../shared/mexico-time.ts';
import { formatMoney } from '../../shared/money.ts';
import type { Db, Tx } from '../db/client.ts';
import { institutionMembers, orders, requisitions } from '../db/schema.ts';
import { conflict } from '../http/errors.ts';

/**
 * A member's spending limits (issue 34, decisions 058 and 059): per order and per calendar month in Mexico City, in
 * centavos, null = none. The one home of what a member has spent and of the check, asked the same way by checkout's
 * order rules (`order-rules.ts`), a requisition sent for approval and a requisition placed.
 */

/** Orders that never were, or were undone, spend nothing against a limit. */
export const NOT_SPENDING = ['cancelled', 'payment_failed'] as const;

/** The calendar month of `now` in Mexico City: [start, end). */
export function monthOf(now: Date) {
  const [year, month] = mexicoCityDate(now).split('-').map(Number) as [number, number];
  return mexicoMonth(year, month);
}

/**
 * What each of `userIds` has spent for the institution in `now`'s month: its orders that count, each one charged to
 * the person it was bought for — the requester of the requisition it was placed from, else whoever placed it.
 */
export async function spentThisMonth(
  db: Db | Tx,
  institutionId: number,
  userIds: number[],
  now = new Date(),
): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const { start, end } = monthOf(now);
  const spender = sql<number>`coalesce(${requisitions.requesterId}, ${orders.userId})`;
  const rows = await db
    .select({ userId: spender, cents: sql<string>`coalesce(sum(${orders.totalCents}), 0)::text` })
    .from(orders)
    .leftJoin(requisitions, eq(requisitions.orderNumber, orders.number))
    .where(
      and(
        eq(orders.institutionId, institutionId),
        inArray(spender, userIds),
        notInArray(orders.status, [...NOT_SPENDING]),
        gte(orders.createdAt, start),
        lt(orders.createdAt, end),
      ),
    )
    .groupBy(spender);
  return new Map(rows.map((r) => [Number(r.userId), Number(r.cents)]));
}

type Spender = {
  institutionId: number;
  userId: number;
  /** The institution's name, as the messages say it. */
  institution: string;
  /** Whose limit it is, as the messages say it: null when the person placing the order is the member ('su límite'). */
  name: string | null;
};

/** 'su límite por pedido' to the member themself, 'el límite por pedido de María López' to whoever places it. */
const limitOf = (s: Spender, kind: 'por pedido' | 'mensual') =>
  s.name === null ? `su límite ${kind}` : `el límite ${kind} de ${s.name}`;

export const overOrderLimit = (s: Spender, total: number, limit: number) =>
  `El pedido (${formatMoney(total)}) excede por ${formatMoney(total - limit)} ${limitOf(s, 'por pedido')} en ${s.institution} (${formatMoney(limit)}). Reduzca el pedido, envíelo a aprobación o pida al administrador que ajuste el límite.`;
export const overMonthlyLimit = (s: Spender, spent: number, total: number, limit: number) =>
  `Con este pedido (${formatMoney(total)}) las compras de este mes para ${s.institution} sumarían ${formatMoney(spent + total)}: ${formatMoney(spent + total - limit)} más que ${limitOf(s, 'mensual')} de ${formatMoney(limit)}. Envíelo a aprobación o pida al administrador que ajuste el límite.`;

/**
 * Refuses (409, in Spanish, saying by how much) an order of `totalCents` above the member's limit per order, or
 * above what is left of their monthly limit. With `lock`, the member's row is locked first, so two orders of the same
 * member at once cannot both pass a monthly limit only one of them fits (checkout's rule locks it itself).
 */
export async function checkSpendingLimits(
  db: Db | Tx,
  member: Spender,
  totalCents: number,
  options: { now?: Date; lock?: boolean } = {},
): Promise<void> {
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
  if (!limits)
    throw conflict(`${member.name ?? 'Usted'} ya no es miembro de ${member.institution}`, 'not_a_member');
  if (limits.orderLimitCents !== null && totalCents > limits.orderLimitCents)
    throw conflict(overOrderLimit(member, totalCents, limits.orderLimitCents), 'order_limit');
  if (limits.monthlyLimitCents !== null) {
    const spent =
      (await spentThisMonth(db, member.institutionId, [member.userId], options.now)).get(member.userId) ?? 0;
    if (spent + totalCents > limits.monthlyLimitCents)
      throw conflict(overMonthlyLimit(member, spent, totalCents, limits.monthlyLimitCents), 'monthly_limit');
  }
}
