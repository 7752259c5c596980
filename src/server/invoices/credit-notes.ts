import { desc, eq } from 'drizzle-orm';
import { invoices, users } from '../db/schema.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { lockOrder } from '../orders/lock.ts';
import { computeCfdiAmounts } from './amounts.ts';
import { buildComprobante, type Comprobante, comprobanteXml, sealComprobante } from './cfdi.ts';
import { type InvoiceRow, type InvoicingContext, staleBefore } from './context.ts';
import { takeFolio } from './folios.ts';
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

/**
 * A credit note (CFDI de egreso) for a partial refund or a discount after invoicing, so that a partial return
 * does not need the whole invoice cancelled: TipoDeComprobante E, CfdiRelacionados TipoRelacion 01 → the
 * invoice, UsoCFDI G02, the invoice's receptor and FormaPago (the money goes back the way it came), one concept
 * with SAT's key for a discount/return (84111506 'Servicios de facturación', unit ACT, as SAT's Guía de llenado
 * shows for egresos), IVA 16 % included. The credit notes of an invoice never add up to more than its total
 * (checked under the order's lock, so two at once cannot overshoot). Sealed and kept before the PAC is called,
 * stored and mailed to the shopper like an invoice (finishIssue); a request that died after the PAC stamped is
 * recovered by the next one or by the follow-up (recoverStale), never stamped twice. Staff action (admin).
 */
export async function issueCreditNote(
  ctx: InvoicingContext,
  number: number,
  input: { amountCents: number; description: string },
): Promise<CreditNoteResult> {
  const recovered = await recoverStaleCreditNotes(ctx, number);
  if (recovered) return recovered;
  const claimed = await ctx.db.transaction(async (tx) => {
    if (!(await lockOrder(tx, number))) throw notFound(ORDER_NOT_FOUND);
    const rows = await tx
      .select()
      .from(invoices)
      .where(eq(invoices.orderNumber, number))
      .orderBy(desc(invoices.id));
    const { invoice, remainingCents } = creditedOf(rows);
    if (!invoice?.uuid || !invoice.snapshot) throw conflict(NO_ACTIVE_INVOICE, 'no_active_invoice');
    if (
      !Number.isInteger(input.amountCents) ||
      input.amountCents <= 0 ||
      input.amountCents > remainingCents
    ) {
      throw badRequest(
        `El importe de la nota de crédito debe ser mayor que cero y no exceder lo que queda por acreditar de la factura ($${(remainingCents / 100).toFixed(2)})`,
        { amount: 'Importe inválido' },
      );
    }
    const receptor = invoice.snapshot.receptor;
    const amounts = computeCfdiAmounts([
      {
        productKey: CREDIT_NOTE_PRODUCT_KEY,
        unitKey: CREDIT_NOTE_UNIT_KEY,
        code: null,
        description: input.description,
        quantity: 1,
        unitPriceCents: input.amountCents,
      },
    ]);
    const folio = await takeFolio(tx, 'E');
    const [row] = await tx
      .insert(invoices)
      .values({
        ...folio,
        orderNumber: number,
        userId: invoice.userId,
        status: 'pending',
        kind: 'E',
        pac: ctx.pac.name,
        rfc: receptor.rfc,
        nombreFiscal: receptor.nombre,
        regimenFiscal: receptor.regimenFiscal,
        usoCfdi: 'G02',
        formaPago: invoice.formaPago,
        cp: receptor.domicilioFiscal,
        subtotalCents: amounts.subtotalCents,
        ivaCents: amounts.ivaCents,
        totalCents: amounts.totalCents,
        relationType: '01',
        relatedUuid: invoice.uuid,
      })
      .returning({ id: invoices.id });
    return {
      id: row!.id,
      folio,
      invoice: { ...invoice, uuid: invoice.uuid },
      receptor,
      amounts,
      remainingCents,
    };
  });
  const { id, folio, invoice, receptor, amounts, remainingCents } = claimed;
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
        receptor: { ...receptor, usoCfdi: 'G02' },
        formaPago: invoice.formaPago,
        serie: folio.serie,
        folio: String(folio.folio),
        issuedAt: ctx.now(),
        csd: ctx.csd,
        tipoDeComprobante: 'E',
        cfdiRelacionados: { tipoRelacion: '01', uuids: [invoice.uuid] },
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
    await finishIssue(ctx, await orderOwner(ctx, invoice.userId), { number }, id, comprobante, totals, stamp);
  } catch (error) {
    await markRecoverable(ctx, id);
    throw error;
  }
  return {
    uuid: stamp.uuid,
    totalCents: amounts.totalCents,
    remainingCents: remainingCents - amounts.totalCents,
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
