import { and, desc, eq } from 'drizzle-orm';
import { PUBLICO_EN_GENERAL } from '../../shared/sat-catalogs.ts';
import type { Tx } from '../db/client.ts';
import { globalInvoiceOrders, globalInvoices, invoices, orders, users } from '../db/schema.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { balancesFrom, ledgerOf } from '../orders/ledger.ts';
import { lockOrder } from '../orders/lock.ts';
import { computeCfdiAmounts } from './amounts.ts';
import {
  buildComprobante,
  type Comprobante,
  comprobanteXml,
  type InformacionGlobal,
  sealComprobante,
} from './cfdi.ts';
import { type InvoiceRow, type InvoicingContext, staleBefore } from './context.ts';
import { takeFolio } from './folios.ts';
import { formaPagoFor, paidWith } from './forma-pago.ts';
import {
  dropPending,
  finishIssue,
  type MailTo,
  markRecoverable,
  recoverStale,
  stampSealed,
} from './stamping.ts';
import { invoicesOf, NO_ACTIVE_INVOICE, ORDER_NOT_FOUND, serieFolioOf } from './state.ts';

export const CREDIT_NOTE_PRODUCT_KEY = '84111506';
export const CREDIT_NOTE_UNIT_KEY = 'ACT';

export const CREDIT_NOTE_RECOVERED =
  'Recuperamos la nota de crédito que el PAC ya había timbrado para este pedido (una solicitud anterior se interrumpió); no se emitió otra. Revise el saldo y, si hace falta, emita la siguiente.';

export type CreditNoteResult = {
  uuid: string;
  totalCents: number;
  remainingCents: number;
  recovered: boolean;
};

/** What remains to credit of the order's active invoice: its total less its credit notes not cancelled. */
function creditedOf(rows: InvoiceRow[]) {
  const invoice = rows.find((r) => r.status === 'issued' && r.kind === 'I');
  const credited = rows
    .filter((r) => r.kind === 'E' && r.relatedUuid === invoice?.uuid && r.status !== 'cancelled')
    .reduce((sum, r) => sum + r.totalCents, 0);
  return { invoice, remainingCents: invoice ? invoice.totalCents - credited : 0 };
}

async function orderOwner(ctx: InvoicingContext, userId: number): Promise<MailTo> {
  const [owner] = await ctx.db
    .select({ email: users.email, nombre: users.nombre })
    .from(users)
    .where(eq(users.id, userId));
  if (!owner) throw notFound(ORDER_NOT_FOUND);
  return owner;
}

/**
 * A credit note whose request died after sealing (the PAC may have stamped it): the same recovery as an invoice
 * (recoverStale) — the sealed document is sent again, the PAC answers the stamp it made, never a second one.
 * Returns the recovered credit note, or null when there was none to recover.
 */
export async function recoverStaleCreditNotes(
  ctx: InvoicingContext,
  number: number,
): Promise<CreditNoteResult | null> {
  const stale = (await invoicesOf(ctx.db, number)).filter(
    (r) => r.status === 'pending' && r.kind === 'E' && r.createdAt.getTime() < staleBefore(ctx).getTime(),
  );
  let recovered: CreditNoteResult | null = null;
  for (const row of stale) {
    if (await recoverStale(ctx, await orderOwner(ctx, row.userId), { number }, row)) {
      const [done] = await ctx.db.select().from(invoices).where(eq(invoices.id, row.id));
      const { remainingCents } = creditedOf(await invoicesOf(ctx.db, number));
      recovered = { uuid: done?.uuid ?? '', totalCents: row.totalCents, remainingCents, recovered: true };
    }
  }
  return recovered;
}

export type CreditNoteInput = {
  /** Centavos, or 'tax_due': what the order's ledger says its papers still owe its money (decision 045). */
  amountCents: number | 'tax_due';
  description: string;
  /**
   * 'invoice' (default): related to the order's CFDI de ingreso, to its receptor. 'global': the sale is in a factura
   * global — the egreso goes to the público en general, related to that global (SAT, Guía de llenado del CFDI
   * global, apéndice 2: CFDI de egreso aplicable a un CFDI global).
   */
  target?: 'invoice' | 'global';
};

/** The document a credit note is related to, and to whom it is made out. */
type CreditTarget = {
  uuid: string;
  userId: number;
  receptor: { rfc: string; nombre: string; regimenFiscal: string; domicilioFiscal: string; usoCfdi: string };
  formaPago: string;
  remainingCents: number;
  informacionGlobal?: InformacionGlobal;
};

async function creditTarget(
  ctx: InvoicingContext,
  tx: Tx,
  number: number,
  rows: InvoiceRow[],
  target: 'invoice' | 'global',
): Promise<CreditTarget> {
  if (target === 'invoice') {
    const { invoice, remainingCents } = creditedOf(rows);
    if (!invoice?.uuid || !invoice.snapshot) throw conflict(NO_ACTIVE_INVOICE, 'no_active_invoice');
    return {
      uuid: invoice.uuid,
      userId: invoice.userId,
      receptor: { ...invoice.snapshot.receptor, usoCfdi: 'G02' },
      formaPago: invoice.formaPago,
      remainingCents,
    };
  }
  const [member] = await tx
    .select({ global: globalInvoices, stated: globalInvoiceOrders.amountCents, userId: orders.userId })
    .from(globalInvoiceOrders)
    .innerJoin(globalInvoices, eq(globalInvoices.id, globalInvoiceOrders.globalInvoiceId))
    .innerJoin(orders, eq(orders.number, globalInvoiceOrders.orderNumber))
    .where(and(eq(globalInvoiceOrders.orderNumber, number), eq(globalInvoices.status, 'issued')));
  if (!member?.global.uuid)
    throw conflict('El pedido no está en una factura global vigente', 'not_in_global');
  const credited = rows
    .filter((r) => r.kind === 'E' && r.relatedUuid === member.global.uuid && r.status !== 'cancelled')
    .reduce((sum, r) => sum + r.totalCents, 0);
  return {
    uuid: member.global.uuid,
    userId: member.userId,
    receptor: {
      rfc: PUBLICO_EN_GENERAL.rfc,
      nombre: PUBLICO_EN_GENERAL.nombre,
      regimenFiscal: PUBLICO_EN_GENERAL.regimenFiscal,
      // As on the global itself: the receptor's domicilio is the LugarExpedicion.
      domicilioFiscal: ctx.issuer.lugarExpedicion,
      usoCfdi: PUBLICO_EN_GENERAL.usoCfdi,
    },
    formaPago: formaPagoFor(await paidWith(tx, number)),
    // What the global states of this sale (decision 056), less its egresos.
    remainingCents: member.stated - credited,
    informacionGlobal: {
      periodicidad: '04',
      meses: String(member.global.month).padStart(2, '0'),
      anio: String(member.global.year),
    },
  };
}

/**
 * A credit note (CFDI de egreso) for money that went back (a partial refund, a return, a cancelled sale whose
 * invoice can no longer be cancelled) or for a discount after invoicing (a bonificación, staff's explicit
 * choice): TipoDeComprobante E, CfdiRelacionados TipoRelacion 01 → the invoice (or the factura global the sale is
 * in), the receptor and FormaPago of the original (the money goes back the way it came), one concept with SAT's
 * key for a discount/return (84111506, unit ACT, as SAT's Guía de llenado shows for egresos), IVA 16 % included.
 * Under the order's lock: the credit notes of a document never add up to more than it, and with 'tax_due' the
 * amount is what the ledger says the papers still owe (null when nothing, or when another credit note of the order
 * is being stamped — it is followed up instead), so two callers at once issue one. Sealed and kept before the PAC
 * is called, stored and mailed like an invoice (finishIssue); a request that died after the PAC stamped is
 * recovered by the next one or by the follow-up (recoverStale), never stamped twice.
 */
export async function issueCreditNote(
  ctx: InvoicingContext,
  number: number,
  input: CreditNoteInput,
): Promise<CreditNoteResult | null> {
  const recovered = await recoverStaleCreditNotes(ctx, number);
  if (recovered && input.amountCents !== 'tax_due') return recovered;
  const target = input.target ?? 'invoice';
  const claimed = await ctx.db.transaction(async (tx) => {
    if (!(await lockOrder(tx, number))) throw notFound(ORDER_NOT_FOUND);
    const rows = await tx
      .select()
      .from(invoices)
      .where(eq(invoices.orderNumber, number))
      .orderBy(desc(invoices.id));
    const doc = await creditTarget(ctx, tx, number, rows, target);
    let amountCents: number;
    if (input.amountCents === 'tax_due') {
      if (rows.some((r) => r.kind === 'E' && r.status === 'pending')) return null;
      const b = balancesFrom(await ledgerOf(tx, number));
      const due = target === 'global' ? b.globalTaxDueCents : b.taxDueCents;
      amountCents = Math.min(due, doc.remainingCents);
      if (amountCents <= 0) return null;
    } else {
      amountCents = input.amountCents;
      if (!Number.isInteger(amountCents) || amountCents <= 0 || amountCents > doc.remainingCents) {
        throw badRequest(
          `El importe de la nota de crédito debe ser mayor que cero y no exceder lo que queda por acreditar de la factura ($${(doc.remainingCents / 100).toFixed(2)})`,
          { amount: 'Importe inválido' },
        );
      }
    }
    const amounts = computeCfdiAmounts([
      {
        productKey: CREDIT_NOTE_PRODUCT_KEY,
        unitKey: CREDIT_NOTE_UNIT_KEY,
        code: null,
        description: input.description,
        quantity: 1,
        unitPriceCents: amountCents,
      },
    ]);
    const folio = await takeFolio(tx, 'E');
    const [row] = await tx
      .insert(invoices)
      .values({
        ...folio,
        orderNumber: number,
        userId: doc.userId,
        status: 'pending',
        kind: 'E',
        pac: ctx.pac.name,
        rfc: doc.receptor.rfc,
        nombreFiscal: doc.receptor.nombre,
        regimenFiscal: doc.receptor.regimenFiscal,
        usoCfdi: doc.receptor.usoCfdi,
        formaPago: doc.formaPago,
        cp: doc.receptor.domicilioFiscal,
        subtotalCents: amounts.subtotalCents,
        ivaCents: amounts.ivaCents,
        totalCents: amounts.totalCents,
        relationType: '01',
        relatedUuid: doc.uuid,
      })
      .returning({ id: invoices.id });
    return { id: row!.id, folio, doc, amounts };
  });
  if (!claimed) return null;
  const { id, folio, doc, amounts } = claimed;
  const totals = {
    subtotalCents: amounts.subtotalCents,
    ivaCents: amounts.ivaCents,
    totalCents: amounts.totalCents,
  };
  let comprobante: Comprobante;
  let sealedXml: string;
  try {
    comprobante = sealComprobante(
      buildComprobante({
        amounts,
        emisor: { rfc: ctx.issuer.rfc, nombre: ctx.issuer.nombre, regimenFiscal: ctx.issuer.regimenFiscal },
        lugarExpedicion: ctx.issuer.lugarExpedicion,
        receptor: doc.receptor,
        formaPago: doc.formaPago,
        serie: folio.serie,
        folio: String(folio.folio),
        issuedAt: ctx.now(),
        csd: ctx.csd,
        tipoDeComprobante: 'E',
        cfdiRelacionados: { tipoRelacion: '01', uuids: [doc.uuid] },
        ...(doc.informacionGlobal ? { informacionGlobal: doc.informacionGlobal } : {}),
      }),
      ctx.csd,
    ).comprobante;
    sealedXml = comprobanteXml(comprobante);
    // Kept before the PAC is called: whatever happens next, a retry sends this very document.
    await ctx.db
      .update(invoices)
      .set({ sealed: { xml: sealedXml, comprobante } })
      .where(eq(invoices.id, id));
  } catch (error) {
    await dropPending(ctx, id);
    throw error;
  }
  const stamp = await stampSealed(
    ctx,
    id,
    sealedXml,
    (error) => `No se pudo generar la nota de crédito. ${error.message}`,
  );
  try {
    await finishIssue(ctx, await orderOwner(ctx, doc.userId), { number }, id, comprobante, totals, stamp);
  } catch (error) {
    await markRecoverable(ctx, id);
    throw error;
  }
  return {
    uuid: stamp.uuid,
    totalCents: amounts.totalCents,
    remainingCents: doc.remainingCents - amounts.totalCents,
    recovered: false,
  };
}

export type CreditNoteListing = {
  invoiceUuid: string | null;
  invoiceTotalCents: number | null;
  remainingCents: number;
  items: {
    uuid: string | null;
    serieFolio: string;
    status: string;
    totalCents: number;
    description: string;
    issuedAt: string | null;
    test: boolean;
  }[];
};

/** The order's credit notes (newest first) and what remains to credit of its active invoice (admin). */
export async function listCreditNotes(ctx: InvoicingContext, number: number): Promise<CreditNoteListing> {
  const rows = await invoicesOf(ctx.db, number);
  const { invoice, remainingCents } = creditedOf(rows);
  return {
    invoiceUuid: invoice?.uuid ?? null,
    invoiceTotalCents: invoice?.totalCents ?? null,
    remainingCents,
    items: rows
      .filter((r) => r.kind === 'E')
      .map((r) => ({
        uuid: r.uuid,
        serieFolio: serieFolioOf(r),
        status: r.status,
        totalCents: r.totalCents,
        description:
          r.snapshot?.conceptos[0]?.descripcion ??
          (r.sealed?.comprobante as Comprobante | undefined)?.conceptos[0]?.descripcion ??
          '',
        issuedAt: r.issuedAt?.toISOString() ?? null,
        test: r.test,
      })),
  };
}
