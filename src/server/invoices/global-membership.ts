import { eq } from 'drizzle-orm';
import { periodName } from '../../shared/mexico-time.ts';
import type { Db, Tx } from '../db/client.ts';
import { globalInvoiceOrders, globalInvoices } from '../db/schema.ts';

export { periodName };

/** The global CFDI an order was included in ({year, month}), or null (decision 023). */
export async function globalInvoiceOf(db: Db | Tx, orderNumber: number) {
  const [row] = await db
    .select({ year: globalInvoices.year, month: globalInvoices.month, issuedAt: globalInvoices.issuedAt })
    .from(globalInvoiceOrders)
    .innerJoin(globalInvoices, eq(globalInvoices.id, globalInvoiceOrders.globalInvoiceId))
    .where(eq(globalInvoiceOrders.orderNumber, orderNumber));
  return row ?? null;
}

/**
 * An order still in a global CFDI when its nominative CFDI is claimed: the release (global.ts releaseFromGlobal)
 * did not finish; the buyer is told to try again.
 */
export const inGlobalMessage = (g: { year: number; month: number }) =>
  `Este pedido está en la factura global al público en general de ${periodName(g.year, g.month)}, que se está cancelando (motivo 04) para emitir su factura; intente de nuevo en un momento.`;

/**
 * The global CFDI can no longer be cancelled (CFF art. 29-A; decision 016's deadline), so the order cannot be
 * invoiced to its buyer: it stays in the global.
 */
export const globalTooLateMessage = (g: { year: number; month: number }, deadline: string) =>
  `Este pedido se incluyó en la factura global al público en general de ${periodName(g.year, g.month)}, y el plazo para cancelarla ante el SAT venció el ${deadline}; ya no es posible emitir una factura a su nombre para este pedido.`;
