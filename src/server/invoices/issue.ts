import { and, asc, eq, inArray, isNull, lt } from 'drizzle-orm';
import { mexicoLongDate } from '../../shared/mexico-time.ts';
import type { InvoiceRequest, InvoiceState } from '../../shared/schemas/invoice.ts';
import { shop } from '../../shared/shop.ts';
import type { SessionUser } from '../auth/session.ts';
import type { Db } from '../db/client.ts';
import { invoices, orderLines, orders, products, purchaseInvoiceRequests, users } from '../db/schema.ts';
import { AppError, badRequest, conflict, notFound } from '../http/errors.ts';
import { balancesOf } from '../orders/ledger.ts';
import { lockOrder } from '../orders/lock.ts';
import { cardRefundInProgress } from '../orders/refunds.ts';
import { type ConceptSource, computeCfdiAmounts } from './amounts.ts';
import {
  buildComprobante,
  type Comprobante,
  comprobanteXml,
  type Relacionados,
  sealComprobante,
} from './cfdi.ts';
import { type InvoiceRow, type InvoicingContext, type OrderRow, staleBefore } from './context.ts';
import { cancellationDeadline } from './corrections.ts';
import { releaseFolio, takeFolio } from './folios.ts';
import { formaPagoFor, paidWith } from './forma-pago.ts';
import { globalInvoiceOf, globalTooLateMessage, inGlobalMessage } from './global-membership.ts';
import { releaseFromGlobal } from './global-release.ts';
import { postalCodeMessage } from './postal-codes.ts';
import {
  dropPending,
  failpoint,
  finishIssue,
  markRecoverable,
  recoverStale,
  stampSealed,
} from './stamping.ts';
import {
  ALREADY_INVOICED,
  blockedReason,
  GENERATION_FAILED,
  IN_PROGRESS,
  invoicesOf,
  ORDER_NOT_FOUND,
  ownOrder,
  stateOf,
} from './state.ts';

async function conceptSources(db: Db, order: OrderRow): Promise<ConceptSource[]> {
  const lines = await db
    .select({
      code: orderLines.productCode,
      description: orderLines.description,
      unitPriceCents: orderLines.unitPriceCents,
      quantity: orderLines.quantity,
      satProductKey: products.satProductKey,
      satUnitKey: products.satUnitKey,
    })
    .from(orderLines)
    .leftJoin(products, eq(products.code, orderLines.productCode))
    .where(eq(orderLines.orderNumber, order.number))
    .orderBy(asc(orderLines.lineNo));
  const sources: ConceptSource[] = lines.map((l) => ({
    productKey: l.satProductKey?.trim() || shop.invoicing.productKey,
    unitKey: l.satUnitKey?.trim() || shop.invoicing.unitKey,
    code: l.code,
    description: l.description,
    quantity: l.quantity,
    unitPriceCents: l.unitPriceCents,
  }));
  if (order.shippingCents > 0) {
    sources.push({
      productKey: shop.invoicing.shippingProductKey,
      unitKey: shop.invoicing.shippingUnitKey,
      code: null,
      description: shop.invoicing.shippingDescription,
      quantity: 1,
      unitPriceCents: order.shippingCents,
    });
  }
  return sources;
}

/**
 * What the request schema cannot check on its own, before anything is stamped: the CP against SAT's
 * c_CodigoPostal (the RFC's check digit and date, the régimen/uso matrix and the razón social without its
 * régimen de capital are checked by invoiceRequestSchema, in the form and at the route).
 */
export function checkReceptor(ctx: InvoicingContext, request: InvoiceRequest): void {
  if (ctx.postalCodes.size > 0 && !ctx.postalCodes.has(request.cp)) {
    const message = postalCodeMessage(request.cp);
    throw badRequest(message, { cp: message });
  }
}

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

/**
 * Claims the order's single active slot with a 'pending' row, under the order's row lock (lockOrder): the order
 * is read again there and must still be invoiceable — not cancelled, no cancellation claimed — and a cancellation
 * decides under the same lock and refuses an order with a 'pending' or 'issued' invoice, so the two exclude each
 * other whatever the interleaving (issue 23). The partial unique index stays the last guard.
 */
async function claimPending(
  ctx: InvoicingContext,
  order: OrderRow,
  user: SessionUser,
  request: InvoiceRequest,
  formaPago: string,
  credit?: { days: number },
) {
  const values = {
    orderNumber: order.number,
    userId: user.id,
    status: 'pending',
    pac: ctx.pac.name,
    rfc: request.rfc,
    nombreFiscal: request.nombreFiscal,
    regimenFiscal: request.regimenFiscal,
    usoCfdi: request.usoCfdi,
    formaPago,
    cp: request.cp,
    subtotalCents: 0,
    ivaCents: 0,
    totalCents: order.totalCents,
    ...(credit
      ? {
          metodoPago: 'PPD' as const,
          dueAt: new Date(ctx.now().getTime() + credit.days * 86_400_000),
        }
      : {}),
  };
  try {
    return await ctx.db.transaction(async (tx) => {
      const locked = await lockOrder(tx, order.number);
      if (!locked) throw notFound(ORDER_NOT_FOUND);
      const reason = blockedReason(locked, undefined, ctx.now());
      if (reason) throw conflict(reason, 'invoice_not_allowed');
      // Still in a global CFDI (decision 023): its release (motivo 04, re-issue) must finish first.
      const global = await globalInvoiceOf(tx, order.number);
      if (global) throw conflict(inGlobalMessage(global), 'in_global_invoice');
      // A pending row left by a request that died (crash, timeout) must not block the order forever.
      const dropped = await tx
        .delete(invoices)
        .where(
          and(
            eq(invoices.orderNumber, order.number),
            eq(invoices.status, 'pending'),
            // A sealed one may have been stamped: it is recovered (recoverStale), never dropped here.
            isNull(invoices.sealed),
            lt(invoices.createdAt, staleBefore(ctx)),
          ),
        )
        .returning({ serie: invoices.serie, folio: invoices.folio });
      for (const row of dropped) await releaseFolio(tx, row);
      const [active] = await tx
        .select({ status: invoices.status })
        .from(invoices)
        .where(
          and(
            eq(invoices.orderNumber, order.number),
            inArray(invoices.status, ['pending', 'issued']),
            eq(invoices.kind, 'I'),
          ),
        )
        .limit(1);
      if (active)
        throw conflict(active.status === 'pending' ? IN_PROGRESS : ALREADY_INVOICED, 'invoice_exists');
      // The folio is taken here, with the claim: a claim that fails takes none (folios.ts).
      const folio = await takeFolio(tx, 'I');
      const [row] = await tx
        .insert(invoices)
        .values({ ...values, ...folio })
        .returning({ id: invoices.id });
      return { id: row!.id, ...folio };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(IN_PROGRESS, 'invoice_exists');
    throw error;
  }
}

/** The order's invoice left 'pending' by a request that died (crash, lost PAC answer), if any. */
const staleInvoiceOf = (ctx: InvoicingContext, rows: InvoiceRow[]) =>
  rows.find(
    (r) => r.status === 'pending' && r.kind === 'I' && r.createdAt.getTime() < staleBefore(ctx).getTime(),
  );

/**
 * The periodic round's side of the recovery (follow-up.ts): an invoice left 'pendiente' by a request that died is
 * finished without waiting for the buyer to ask again — the same recoverStale a new request runs (the sealed CFDI
 * sent again, the PAC answers the stamp it made; an unsealed or refused one is dropped and the order may be
 * invoiced anew). Mailed where the request would have mailed it: the invoice e-mail chosen at checkout
 * ('Facturar esta compra'), else the buyer's. True when an invoice was recovered.
 */
export async function recoverStaleInvoice(ctx: InvoicingContext, number: number): Promise<boolean> {
  const stale = staleInvoiceOf(ctx, await invoicesOf(ctx.db, number));
  if (!stale) return false;
  const [order] = await ctx.db.select().from(orders).where(eq(orders.number, number));
  const [owner] = await ctx.db
    .select({ email: users.email, nombre: users.nombre })
    .from(users)
    .where(eq(users.id, stale.userId));
  if (!order || !owner) return false;
  const [atPurchase] = await ctx.db
    .select({ email: purchaseInvoiceRequests.email })
    .from(purchaseInvoiceRequests)
    .where(eq(purchaseInvoiceRequests.orderNumber, number));
  return recoverStale(ctx, { ...owner, email: atPurchase?.email ?? owner.email }, order, stale);
}

export const REFUND_IN_FLIGHT =
  'Hay un reembolso a tarjeta en proceso para este pedido; podrá facturarlo en cuanto Openpay lo confirme.';
export const NOTHING_KEPT = 'El pedido se reembolsó completo: no queda importe que facturar.';

export const RECOVERED =
  'Recuperamos la factura que el PAC ya había timbrado para este pedido; se la enviamos por correo con el XML y el PDF.';

/**
 * POST /api/orders/:number/invoice: checks the order (owner, paid, not cancelled, window, no active
 * invoice), builds and seals the CFDI, keeps it on the 'pending' row, stamps it through the PAC, stores it
 * and queues the mail with the XML and the PDF. A request that died after the PAC stamped is recovered by
 * the next one (recoverStale), never stamped twice.
 */
export async function issueInvoice(
  ctx: InvoicingContext,
  user: SessionUser,
  number: number,
  request: InvoiceRequest,
): Promise<{ message: string; invoice: InvoiceState }> {
  const order = await ownOrder(ctx.db, user.id, number);
  let existing = await invoicesOf(ctx.db, number);
  const stale = staleInvoiceOf(ctx, existing);
  if (stale) {
    if (await recoverStale(ctx, user, order, stale)) {
      return { message: RECOVERED, invoice: stateOf(order, await invoicesOf(ctx.db, number), ctx.now()) };
    }
    existing = await invoicesOf(ctx.db, number);
  }
  const now = ctx.now();
  const reason = blockedReason(
    order,
    existing.find((r) => r.status === 'issued' || r.status === 'pending'),
    now,
  );
  if (reason) throw conflict(reason, 'invoice_not_allowed');
  checkReceptor(ctx, request);
  // In a factura global (decision 023): cancelled with motivo 04 and re-issued without this order first, while the
  // SAT still allows cancelling it (decision 016). A release cut short earlier (crash, PAC down) is finished here.
  const global = await globalInvoiceOf(ctx.db, number);
  if (global?.issuedAt && now.getTime() > cancellationDeadline(global.issuedAt).getTime()) {
    const deadline = cancellationDeadline(global.issuedAt);
    throw conflict(globalTooLateMessage(global, mexicoLongDate(deadline)), 'global_cancel_deadline');
  }
  await releaseFromGlobal(ctx, number);
  await issueNew(ctx, user, order, request);
  return {
    message: `Factura generada correctamente. La enviamos a ${user.email} con el XML y el PDF.`,
    invoice: stateOf(order, await invoicesOf(ctx.db, number), ctx.now()),
  };
}

/**
 * Builds, seals, keeps, stamps and stores a new Comprobante de ingreso for the order (the caller checked that
 * it may be issued). `relation`: CfdiRelacionados (TipoRelacion 04 when it replaces an earlier CFDI). Returns
 * the new UUID.
 */
export async function issueNew(
  ctx: InvoicingContext,
  user: SessionUser,
  order: OrderRow,
  request: InvoiceRequest,
  relation?: Relacionados,
  /** A sale on credit (decision 060): MetodoPago PPD, FormaPago 99, its terms and its due date. */
  credit?: { days: number },
): Promise<string> {
  const now = ctx.now();
  // The invoice is for what the shop kept (decision 056): what was given back before it was invoiced — a staff
  // partial refund, money owed to a SPEI/cash buyer — is its Descuento. A card refund still in flight is waited
  // for: the invoice would otherwise count on an answer Openpay has not given.
  if (await cardRefundInProgress(ctx.db, order.number))
    throw conflict(REFUND_IN_FLIGHT, 'refund_in_progress');
  const { givenBackCents } = await balancesOf(ctx.db, order.number);
  const keptCents = order.totalCents - givenBackCents;
  if (keptCents <= 0) throw conflict(NOTHING_KEPT, 'nothing_to_invoice');
  const amounts = computeCfdiAmounts(await conceptSources(ctx.db, order), { discountCents: givenBackCents });
  if (amounts.totalCents !== keptCents || amounts.concepts.length === 0) {
    ctx.log?.error(
      { order: order.number, cfdiTotal: amounts.totalCents, orderTotal: order.totalCents, keptCents },
      'las partidas del pedido no suman su total',
    );
    throw new AppError(500, 'invoice_inconsistent', GENERATION_FAILED);
  }
  const totals = {
    subtotalCents: amounts.subtotalCents,
    ivaCents: amounts.ivaCents,
    totalCents: amounts.totalCents,
  };

  // FormaPago from the charge that paid the order (card type, SPEI, cash), not from the request.
  // On credit: 99 «Por definir» — the money's form is told by each CFDI de pago (Anexo 20, MetodoPago PPD).
  const formaPago = credit ? '99' : formaPagoFor(await paidWith(ctx.db, order.number));
  const { id, serie, folio } = await claimPending(ctx, order, user, request, formaPago, credit);
  let comprobante: Comprobante;
  let sealedXml: string;
  try {
    comprobante = sealComprobante(
      buildComprobante({
        amounts,
        emisor: { rfc: ctx.issuer.rfc, nombre: ctx.issuer.nombre, regimenFiscal: ctx.issuer.regimenFiscal },
        lugarExpedicion: ctx.issuer.lugarExpedicion,
        receptor: {
          rfc: request.rfc,
          nombre: request.nombreFiscal.toUpperCase(),
          regimenFiscal: request.regimenFiscal,
          domicilioFiscal: request.cp,
          usoCfdi: request.usoCfdi,
        },
        formaPago,
        serie,
        folio: String(folio),
        issuedAt: now,
        csd: ctx.csd,
        ...(relation ? { cfdiRelacionados: relation } : {}),
        ...(credit ? { metodoPago: 'PPD' as const, condicionesDePago: `Crédito a ${credit.days} días` } : {}),
      }),
      ctx.csd,
    ).comprobante;
    sealedXml = comprobanteXml(comprobante);
    // Kept before the PAC is called: whatever happens next, a retry sends this very document.
    await ctx.db
      .update(invoices)
      .set({ sealed: { xml: sealedXml, comprobante }, ...totals })
      .where(eq(invoices.id, id));
  } catch (error) {
    await dropPending(ctx, id);
    throw error;
  }

  const stamp = await stampSealed(ctx, id, sealedXml, (error) => {
    ctx.log?.error({ order: order.number, detail: error.detail }, 'el PAC no timbró la factura');
    return `${GENERATION_FAILED}. ${error.message}`;
  });
  failpoint(ctx, 'after-stamp');
  try {
    await finishIssue(ctx, user, order, id, comprobante, totals, stamp);
  } catch (error) {
    // Stamped but not saved (database down…): the next attempt recovers this stamp.
    await markRecoverable(ctx, id);
    throw error;
  }
  if (relation) {
    await ctx.db
      .update(invoices)
      .set({ relationType: relation.tipoRelacion, relatedUuid: relation.uuids[0] ?? null })
      .where(eq(invoices.id, id));
  }
  return stamp.uuid;
}
