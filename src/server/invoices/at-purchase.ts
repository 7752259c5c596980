import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { SessionUser } from '../auth/session.ts';
import { orders, purchaseInvoiceRequests, users } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { AFTER_PAYMENT } from '../orders/rules.ts';
import type { InvoicingContext } from './context.ts';
import { issueInvoice } from './issue.ts';

/**
 * 'Facturar esta compra' (issue 20): the checkout stores the chosen fiscal profile with the order; once the
 * order is paid (card at once, 3-D Secure or the webhook later), this issues its CFDI through issueInvoice —
 * the same checks, SAT rules, stamping, recovery and mail (XML + PDF) as the invoice form — to the profile's
 * invoice e-mail. Run by a short interval and right after a paid checkout; a claim with a lease keeps two
 * instances from working on one order, and issueInvoice itself never stamps an order twice.
 */

/** How long one worker holds a request before another may retry it (a dead worker's claim expires). */
const LEASE_MS = 60_000;
/** A PAC that keeps failing: after this many attempts the request is given up (the buyer can still ask). */
export const MAX_ATTEMPTS = 5;

type Row = typeof purchaseInvoiceRequests.$inferSelect;

async function claim(ctx: InvoicingContext, orderNumber: number): Promise<Row | undefined> {
  const [row] = await ctx.db
    .update(purchaseInvoiceRequests)
    .set({ attempts: sql`${purchaseInvoiceRequests.attempts} + 1`, updatedAt: ctx.now() })
    .where(
      and(
        eq(purchaseInvoiceRequests.orderNumber, orderNumber),
        eq(purchaseInvoiceRequests.status, 'waiting'),
        sql`(${purchaseInvoiceRequests.attempts} = 0 or ${purchaseInvoiceRequests.updatedAt} < ${new Date(ctx.now().getTime() - LEASE_MS)})`,
      ),
    )
    .returning();
  return row;
}

async function finish(
  ctx: InvoicingContext,
  orderNumber: number,
  status: 'issued' | 'failed' | 'waiting',
  error: string | null,
) {
  await ctx.db
    .update(purchaseInvoiceRequests)
    .set({ status, error, updatedAt: status === 'waiting' ? new Date(0) : ctx.now() })
    .where(eq(purchaseInvoiceRequests.orderNumber, orderNumber));
}

/** Issues the CFDI of one paid order that asked for it at checkout; true when it was issued now. */
export async function issueAtPurchase(ctx: InvoicingContext, orderNumber: number): Promise<boolean> {
  const row = await claim(ctx, orderNumber);
  if (!row) return false;
  const [owner] = await ctx.db.select().from(users).where(eq(users.id, row.userId));
  if (!owner) return false;
  const user: SessionUser = {
    id: owner.id,
    // The CFDI is mailed to the profile's invoice e-mail.
    email: row.email,
    role: owner.role === 'staff' ? 'staff' : 'customer',
    nombre: owner.nombre,
    apellidoPat: owner.apellidoPat,
    apellidoMat: owner.apellidoMat,
    telefono: owner.telefono,
  };
  try {
    await issueInvoice(ctx, user, orderNumber, { ...row.request });
    await finish(ctx, orderNumber, 'issued', null);
    return true;
  } catch (error) {
    if (error instanceof AppError && error.statusCode < 500 && error.code !== 'pac_error') {
      // An invoice the buyer requested meanwhile counts as done; anything else refused is final.
      const [active] = await ctx.db
        .execute<{ n: number }>(
          sql`select count(*)::int as n from invoices where order_number = ${orderNumber}
          and kind = 'I' and status in ('pending', 'issued')`,
        )
        .then((r) => r.rows);
      await finish(ctx, orderNumber, Number(active?.n ?? 0) > 0 ? 'issued' : 'failed', error.message);
      return false;
    }
    ctx.log?.error({ err: error, order: orderNumber }, 'no se pudo emitir la factura solicitada al comprar');
    await finish(
      ctx,
      orderNumber,
      row.attempts >= MAX_ATTEMPTS ? 'failed' : 'waiting',
      error instanceof Error ? error.message : String(error),
    );
    return false;
  }
}

/** Every paid order still waiting for its 'Facturar esta compra' CFDI, oldest first. */
export async function issueWaitingAtPurchase(ctx: InvoicingContext, limit = 20): Promise<number> {
  const waiting = await ctx.db
    .select({ number: purchaseInvoiceRequests.orderNumber })
    .from(purchaseInvoiceRequests)
    .innerJoin(orders, eq(orders.number, purchaseInvoiceRequests.orderNumber))
    .where(
      and(
        eq(purchaseInvoiceRequests.status, 'waiting'),
        inArray(orders.status, [...AFTER_PAYMENT]),
        lt(purchaseInvoiceRequests.updatedAt, new Date(ctx.now().getTime() - 1)),
      ),
    )
    .orderBy(purchaseInvoiceRequests.createdAt)
    .limit(limit);
  let issued = 0;
  for (const { number } of waiting) if (await issueAtPurchase(ctx, number)) issued += 1;
  return issued;
}
