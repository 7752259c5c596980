import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { globalInvoiceOrders, globalInvoices } from '../db/schema.ts';

const MONTHS = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
];
export const periodName = (year: number, month: number) => `${MONTHS[month - 1]} de ${year}`;

/** The global CFDI an order was included in ({year, month}), or null (decision 023). */
export async function globalInvoiceOf(db: Db | Tx, orderNumber: number) {
  const [row] = await db
    .select({ year: globalInvoices.year, month: globalInvoices.month })
    .from(globalInvoiceOrders)
    .innerJoin(globalInvoices, eq(globalInvoices.id, globalInvoiceOrders.globalInvoiceId))
    .where(eq(globalInvoiceOrders.orderNumber, orderNumber));
  return row ?? null;
}

/**
 * An order already in a global CFDI asks for its own: per the SAT, the global must be cancelled with motivo 04
 * ('Operación nominativa relacionada en una factura global') and issued again without it before the nominative
 * CFDI; staff do that (decision 023), so the shopper is told to ask for it.
 */
export const inGlobalMessage = (g: { year: number; month: number }) =>
  `Este pedido se incluyó en la factura global al público en general de ${periodName(g.year, g.month)}. Para emitir su factura a su nombre, escríbanos: la tienda debe cancelar primero la factura global (motivo 04) y volver a emitirla sin este pedido.`;
