import { and, desc, eq } from 'drizzle-orm';
import { mexicoLongDate } from '../../shared/mexico-time.ts';
import type { InvoiceState } from '../../shared/schemas/invoice.ts';
import { shop } from '../../shared/shop.ts';
import type { SessionUser } from '../auth/session.ts';
import type { Db } from '../db/client.ts';
import { institutions, invoices, orders } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { type InvoiceBlock, invoiceBlock } from '../orders/rules.ts';
import type { InvoiceRow, InvoicingContext, OrderRow } from './context.ts';
import { correctionBlock } from './corrections.ts';

/** The read side of an order's invoices: what the shopper is told, and whether they may ask for one. */

export const ORDER_NOT_FOUND = 'Pedido no encontrado';
export const NOT_PAID = 'El pedido aún no está pagado; podrá facturarlo cuando se confirme el pago';
export const ORDER_CANCELLED = 'El pedido está cancelado; no se puede facturar';
export const ORDER_CANCELLING = 'Cancelación en proceso: el pedido no se puede facturar';
export const PAYMENT_REFUNDED = 'El pago de este pedido fue reembolsado; no se puede facturar';
export const PAYMENT_IN_DISPUTE =
  'El pago de este pedido está en aclaración con el banco; no se puede facturar por ahora';
export const ALREADY_INVOICED = 'Este pedido ya tiene una factura vigente; cancélela para solicitar otra';
export const IN_PROGRESS = 'La factura de este pedido se está generando; espere un momento';
export const NO_ACTIVE_INVOICE = 'Este pedido no tiene una factura vigente';
export const INVOICE_CANCELLED =
  'Factura cancelada correctamente. Puede solicitar una nueva factura para este pedido.';
export const NO_INVOICE = 'Este pedido no tiene factura';
export const GENERATION_FAILED = 'No se pudo generar su factura';

/** The order's own state (orders/rules.ts decides; invoicing words it). */
const ORDER_BLOCKS: Record<InvoiceBlock, string> = {
  cancelled: ORDER_CANCELLED,
  cancelling: ORDER_CANCELLING,
  refunded: PAYMENT_REFUNDED,
  in_dispute: PAYMENT_IN_DISPUTE,
  not_paid: NOT_PAID,
};

const DAY_MS = 24 * 60 * 60 * 1000;

export async function ownOrder(db: Db, userId: number, number: number): Promise<OrderRow> {
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.number, number), eq(orders.userId, userId)))
    .limit(1);
  // Another shopper's order answers exactly like a missing one.
  if (!order) throw notFound(ORDER_NOT_FOUND);
  return order;
}

function deadlineOf(order: OrderRow): Date | null {
  return order.paidAt ? new Date(order.paidAt.getTime() + shop.invoicingWindowDays * DAY_MS) : null;
}

/** Why the order cannot be invoiced now (Spanish), or null when it can (SPEC-NOTES 9). */
export function blockedReason(order: OrderRow, active: InvoiceRow | undefined, now: Date): string | null {
  const block = invoiceBlock(order);
  if (block) return ORDER_BLOCKS[block];
  if (active?.status === 'issued') return ALREADY_INVOICED;
  if (active?.status === 'pending') return IN_PROGRESS;
  const deadline = deadlineOf(order);
  if (deadline && now.getTime() > deadline.getTime()) {
    return `El plazo para facturar este pedido (${shop.invoicingWindowDays} días desde el pago) terminó el ${mexicoLongDate(deadline)}`;
  }
  return null;
}

export async function invoicesOf(db: Db, orderNumber: number): Promise<InvoiceRow[]> {
  return db.select().from(invoices).where(eq(invoices.orderNumber, orderNumber)).orderBy(desc(invoices.id));
}

export function stateOf(order: OrderRow, all: InvoiceRow[], now: Date): InvoiceState {
  // The order's invoice (Comprobante de ingreso); its credit notes are documents of their own.
  const rows = all.filter((r) => r.kind === 'I');
  const active = rows.find((r) => r.status === 'issued' || r.status === 'pending');
  const shown = rows.find((r) => r.status === 'issued') ?? rows.find((r) => r.status === 'cancelled');
  const reason = blockedReason(order, active, now);
  const deadline = deadlineOf(order);
  return {
    orderNumber: order.number,
    state: shown?.status === 'issued' ? 'issued' : shown?.status === 'cancelled' ? 'cancelled' : 'none',
    uuid: shown?.uuid ?? null,
    test: shown?.test ?? false,
    issuedAt: shown?.issuedAt?.toISOString() ?? null,
    cancelledAt: shown?.cancelledAt?.toISOString() ?? null,
    rfc: shown?.rfc ?? null,
    nombreFiscal: shown?.nombreFiscal ?? null,
    totalCents: shown?.totalCents ?? null,
    cancellation: shown?.status === 'issued' ? (shown.cancelStatus ?? null) : null,
    cancelRequestedAt: shown?.status === 'issued' ? (shown.cancelRequestedAt?.toISOString() ?? null) : null,
    canRequest: reason === null,
    blockedReason: reason,
    ...correctionOf(shown, rows, now),
    deadline: deadline?.toISOString() ?? null,
    creditNotes: creditNotesOf(all),
  };
}

/** 'F12', 'NC3': the document's Serie and Folio; rows issued before decision 047 used their id, kept in the snapshot. */
export const serieFolioOf = (r: InvoiceRow): string =>
  r.folio !== null ? `${r.serie ?? ''}${r.folio}` : `${r.snapshot?.serie ?? ''}${r.snapshot?.folio ?? r.id}`;

/** The order's stamped credit notes, newest first (shown beside the invoice with their downloads). */
function creditNotesOf(all: InvoiceRow[]): InvoiceState['creditNotes'] {
  return all.flatMap((r) =>
    r.kind === 'E' && r.uuid && (r.status === 'issued' || r.status === 'cancelled')
      ? [
          {
            uuid: r.uuid,
            serieFolio: serieFolioOf(r),
            invoiceUuid: r.relatedUuid,
            totalCents: r.totalCents,
            issuedAt: r.issuedAt?.toISOString() ?? null,
            status: r.status === 'cancelled' ? ('cancelled' as const) : ('issued' as const),
          },
        ]
      : [],
  );
}

/**
 * Whether the shopper may correct the shown invoice themself: the same rules cancelInvoice and replaceInvoice
 * apply to a shopper (one correction per order, none while a cancellation is under way, the SAT's deadline).
 */
function correctionOf(
  shown: InvoiceRow | undefined,
  rows: InvoiceRow[],
  now: Date,
): { canCorrect: boolean; correctionBlockedReason: string | null } {
  if (shown?.status !== 'issued') return { canCorrect: false, correctionBlockedReason: null };
  const block = correctionBlock(shown, rows, now, 'shopper');
  return { canCorrect: block === null, correctionBlockedReason: block?.message ?? null };
}

/** GET /api/orders/:number/invoice — the order's invoice state, for /factura, /historial and the receipt. */
export async function getInvoiceState(ctx: InvoicingContext, user: SessionUser, number: number) {
  const order = await ownOrder(ctx.db, user.id, number);
  const state = stateOf(order, await invoicesOf(ctx.db, number), ctx.now());
  const receptor = await institutionReceptorOf(ctx.db, order.institutionId);
  return receptor ? { ...state, institutionReceptor: receptor } : state;
}

/** An institution order's receptor (decision 058): the institution's fiscal data, the form's starting point. */
async function institutionReceptorOf(db: Db, institutionId: number | null) {
  if (institutionId === null) return null;
  const [row] = await db.select().from(institutions).where(eq(institutions.id, institutionId));
  return row
    ? {
        nombreFiscal: row.razonSocial,
        rfc: row.rfc,
        regimenFiscal: row.regimenFiscal,
        usoCfdi: row.usoCfdi,
        cp: row.cp,
      }
    : null;
}
