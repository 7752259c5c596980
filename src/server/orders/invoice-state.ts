import type { InvoiceState } from '../../shared/schemas/orders.ts';
import type { Db } from '../db/client.ts';
import { invoiceStatesOf } from '../invoices/service.ts';

/**
 * The invoice state of each order (none, issued, cancelled), which the history's buttons and the
 * cancellation rule depend on. The invoices feature owns the invoice table and answers it.
 */
export function invoiceStates(db: Db, numbers: readonly number[]): Promise<Map<number, InvoiceState>> {
  return invoiceStatesOf(db, numbers);
}
