import { and, eq, inArray } from 'drizzle-orm';
import type { InvoiceState } from '../../shared/schemas/orders.ts';
import type { Db } from '../db/client.ts';
import { invoices } from '../db/schema.ts';

/**
 * What an order's rules need to know about its invoices, read from the invoices table (the invoices feature
 * writes it and builds on orders — it claims an invoice under lockOrder — so orders reads the table, not the feature).
 */

/**
 * Invoice state of many orders at once (none / issued / cancelled), for the history's buttons. Only the order's
 * invoices (kind 'I') count: a credit note (egreso) is not the order's invoice.
 */
export async function invoiceStates(db: Db, numbers: readonly number[]): Promise<Map<number, InvoiceState>> {
  const states = new Map<number, InvoiceState>(numbers.map((n) => [n, 'none']));
  if (numbers.length === 0) return states;
  const list = await db
    .select({ orderNumber: invoices.orderNumber, status: invoices.status })
    .from(invoices)
    .where(
      and(
        inArray(invoices.orderNumber, [...numbers]),
        inArray(invoices.status, ['issued', 'cancelled']),
        eq(invoices.kind, 'I'),
      ),
    );
  for (const row of list) {
    if (row.status === 'issued') states.set(row.orderNumber, 'issued');
    else if (states.get(row.orderNumber) === 'none') states.set(row.orderNumber, 'cancelled');
  }
  return states;
}

/** True while the order has a valid invoice or one being stamped ('pending'): it cannot be cancelled. */
export async function hasActiveInvoice(db: Db, number: number): Promise<boolean> {
  const [row] = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(
      and(
        eq(invoices.orderNumber, number),
        inArray(invoices.status, ['issued', 'pending']),
        eq(invoices.kind, 'I'),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * True while an invoice of the order is being stamped ('pending'): a cancellation waits for it (the order's lock
 * makes issuing and cancelling exclusive, issue 23). A valid invoice no longer stops a cancellation: its CFDI is
 * cancelled with motivo 03 once the money is back (decision 045).
 */
export async function invoiceInProgress(db: Db, number: number): Promise<boolean> {
  const [row] = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.orderNumber, number), eq(invoices.status, 'pending'), eq(invoices.kind, 'I')))
    .limit(1);
  return row !== undefined;
}
