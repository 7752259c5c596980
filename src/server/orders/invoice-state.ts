import type { InvoiceState } from '../../shared/schemas/orders.ts';
import type { Db } from '../db/client.ts';

/**
 * The invoice state of each order (none, issued, cancelled), which the history's buttons and the
 * cancellation rule depend on. The invoices feature (issue 7) owns the invoice tables; until it
 * lands every order reads 'none'.
 */
export async function invoiceStates(_db: Db, numbers: readonly number[]): Promise<Map<number, InvoiceState>> {
  return new Map(numbers.map((n) => [n, 'none' as const]));
}
