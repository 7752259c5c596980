import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertInvoiceRow } from '../../../tests/server/support/invoice-orders.ts';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createStaff,
  paidOrderOfNew,
  type Shopper,
  stockOf,
} from '../../../tests/server/support/staff.ts';
import { orders } from '../db/schema.ts';
import { lockOrder } from './lock.ts';

/**
 * The race the claim must win: an invoice is claimed (being stamped) while a cancellation of the same order is
 * deciding. (A valid invoice no longer stops a cancellation — issue 33: its CFDI follows the refund.)
 * Whoever issues an invoice holds the order's row lock (lockOrder) while it writes it; a cancellation decides
 * only under that lock, so it sees the invoice and refuses, on the shopper's path and on the staff's alike.
 * PostgreSQL: the lock is held from a second connection while the request waits on it.
 */
let t: CheckoutTestApp;
let staff: Shopper;
beforeAll(async () => {
  t = await createCheckoutApp({ postgres: true });
  staff = await createStaff(t);
});
afterAll(() => t.close());

/** Resolves once some statement of this database waits on a row lock. */
async function someoneWaitsOnALock() {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const { rows } = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (rows[0]!.n > 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('nadie esperó el bloqueo del pedido');
}

describe('an invoice claimed while a cancellation waits for the order', () => {
  it.each([
    ['shopper', 'invoiced', 'La factura del pedido se está generando; intente cancelar en un momento'],
    ['staff', 'not_cancellable', 'La factura del pedido se está generando; intente cancelar en un momento'],
  ] as const)('%s: refused with 409, nothing refunded', async (who, code, message) => {
    const { shopper, product, number } = await paidOrderOfNew(t, who === 'shopper' ? 0 : 1);
    let cancel!: Promise<LightMyRequestResponse>;
    await t.db.transaction(async (tx) => {
      await lockOrder(tx, number);
      await insertInvoiceRow(tx, { orderNumber: number, userId: shopper.id, status: 'pending' });
      cancel = t.app.inject({
        method: 'POST',
        url: who === 'shopper' ? `/api/orders/${number}/cancel` : `/api/admin/orders/${number}/cancel`,
        headers: { cookie: (who === 'shopper' ? shopper : staff).cookie },
        payload: who === 'shopper' ? {} : { reason: 'El cliente ya no lo quiere' },
      });
      // The invoice commits when this transaction ends, while the cancellation waits for the order.
      await someoneWaitsOnALock();
    });
    const answer = await cancel;
    expect(answer.statusCode).toBe(409);
    expect(answer.json().error).toEqual({ code, message });
    const [order] = await t.db.select().from(orders).where(eq(orders.number, number));
    expect(order).toMatchObject({ status: 'paid', cancelledAt: null });
    expect(await stockOf(t, product.code)).toEqual({ stock: 8, ledger: 8 });
  });
});
