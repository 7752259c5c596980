import { and, eq, lt } from 'drizzle-orm';
import { PUBLICO_EN_GENERAL } from '../../shared/sat-catalogs.ts';
import type { InvoiceSnapshot } from '../db/schema.ts';
import { invoices } from '../db/schema.ts';
import { AppError, conflict } from '../http/errors.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { ledgerActor, recordMovement } from '../orders/ledger.ts';
import { lockOrder } from '../orders/lock.ts';
import { deliveryNoteOf } from '../shipments/pickup.ts';
import type { Comprobante } from './cfdi.ts';
import { type InvoiceRow, type InvoicingContext, type OrderRow, staleBefore } from './context.ts';
import { releaseFolio } from './folios.ts';
import { creditNoteIssuedMail, invoiceIssuedMail } from './mails.ts';
import { readAttribute } from './pac/tfd.ts';
import { PacError, type Stamp } from './pac/types.ts';
import { renderInvoicePdf } from './pdf.ts';
import { GENERATION_FAILED, IN_PROGRESS } from './state.ts';

/**
 * A sealed CFDI kept on its 'pending' row goes to the PAC and comes back stored as issued, with its mail: the
 * steps every document (invoice, replacement, credit note) shares, and the recovery of a row whose request died
 * between them (decision 015).
 */

export function snapshotOf(c: Comprobante, stamp: Stamp): InvoiceSnapshot {
  return {
    serie: c.serie ?? null,
    folio: c.folio ?? null,
    fecha: c.fecha,
    lugarExpedicion: c.lugarExpedicion,
    emisor: c.emisor,
    receptor: c.receptor,
    formaPago: c.formaPago,
    conceptos: c.conceptos.map((k) => ({
      claveProdServ: k.claveProdServ,
      claveUnidad: k.claveUnidad,
      noIdentificacion: k.noIdentificacion ?? null,
      descripcion: k.descripcion,
      cantidad: k.cantidad,
      valorUnitario: k.valorUnitario,
      importe: k.importe,
      ...(k.descuento ? { descuento: k.descuento } : {}),
      iva: k.traslado.importe,
    })),
    subTotal: c.subTotal,
    ...(c.descuento ? { descuento: c.descuento } : {}),
    iva: c.impuestos.totalTrasladados,
    total: c.total,
    noCertificado: c.noCertificado,
    sello: c.sello ?? '',
    noCertificadoSat: stamp.satCertificateNumber,
    selloSat: stamp.satSeal,
    rfcProvCertif: stamp.rfcProvCertif,
    fechaTimbrado: stamp.stampedAt,
    leyenda: readAttribute(stamp.xml, 'tfd:TimbreFiscalDigital', 'Leyenda') ?? null,
    tipoDeComprobante: c.tipoDeComprobante ?? 'I',
    ...(c.metodoPago ? { metodoPago: c.metodoPago } : {}),
    ...(c.cfdiRelacionados ? { cfdiRelacionados: c.cfdiRelacionados } : {}),
  };
}

export const fileBaseOf = (
  snapshot: Pick<InvoiceSnapshot, 'serie' | 'folio' | 'tipoDeComprobante'>,
  uuid: string,
) =>
  `${snapshot.tipoDeComprobante === 'E' ? 'nota-credito' : 'factura'}-${snapshot.serie ?? ''}${snapshot.folio ?? ''}-${uuid}`;

export type Totals = { subtotalCents: number; ivaCents: number; totalCents: number };

/** Whom the stamped CFDI is mailed to: the order's owner. */
export type MailTo = { email: string; nombre: string };

/**
 * Stores the stamped CFDI on its 'pending' row and queues the mail, in one transaction. Returns false when the
 * row is no longer pending (another request finished it first).
 */
export async function finishIssue(
  ctx: InvoicingContext,
  user: MailTo,
  order: Pick<OrderRow, 'number'> & { purchaseOrder?: string | null } & Partial<
      Pick<OrderRow, 'deliveryMethod' | 'pickupBranch'>
    >,
  id: number,
  comprobante: Comprobante,
  totals: Totals,
  stamp: Stamp,
): Promise<boolean> {
  const snapshot = {
    ...snapshotOf(comprobante, stamp),
    ...(order.purchaseOrder ? { purchaseOrder: order.purchaseOrder } : {}),
    ...(deliveryNoteOf(order) ? { deliveryNote: deliveryNoteOf(order)! } : {}),
  };
  const pdf = await renderInvoicePdf({
    orderNumber: order.number,
    uuid: stamp.uuid,
    status: 'issued',
    test: stamp.test,
    cancelledAt: null,
    snapshot,
  });
  const issuedAt = ctx.now();
  const cfdi = {
    orderNumber: order.number,
    uuid: stamp.uuid,
    rfc: comprobante.receptor.rfc,
    nombreFiscal: snapshot.receptor.nombre,
    totalCents: totals.totalCents,
    test: stamp.test,
    fileBase: fileBaseOf(snapshot, stamp.uuid),
    xml: stamp.xml,
    pdf,
  };
  // A credit note (egreso) is mailed as such, with the invoice it credits.
  const creditedUuid =
    comprobante.tipoDeComprobante === 'E' ? (comprobante.cfdiRelacionados?.uuids[0] ?? null) : null;
  const toGlobal = creditedUuid !== null && comprobante.receptor.rfc === PUBLICO_EN_GENERAL.rfc;
  return ctx.db.transaction(async (tx) => {
    // The order's lock first, as every writer of its ledger takes it.
    await lockOrder(tx, order.number);
    const rows = await tx
      .update(invoices)
      .set({
        status: 'issued',
        uuid: stamp.uuid,
        test: stamp.test,
        xml: stamp.xml,
        snapshot,
        ...totals,
        issuedAt,
      })
      .where(and(eq(invoices.id, id), eq(invoices.status, 'pending')))
      .returning({ id: invoices.id });
    if (rows.length === 0) return false;
    await recordMovement(tx, order.number, ledgerActor({ kind: 'system' }), {
      kind: creditedUuid ? 'credit_note' : 'invoice',
      amountCents: totals.totalCents,
      reference: stamp.uuid,
      detail: creditedUuid ? { related: creditedUuid, ...(toGlobal ? { global: creditedUuid } : {}) } : null,
    });
    // An egreso to the público en general is the shop's own paper for a global: no buyer's mail.
    if (toGlobal) return true;
    await enqueueMail(
      tx,
      creditedUuid
        ? creditNoteIssuedMail(user, { ...cfdi, invoiceUuid: creditedUuid }, ctx.publicUrl)
        : invoiceIssuedMail(user, cfdi, ctx.publicUrl),
    );
    return true;
  });
}

/**
 * Drops a 'pending' row whose CFDI was never stamped (refused by the PAC, not sealed, left unsealed by a dead
 * request) and gives its folio back to its series (folios.ts), in one transaction.
 */
export async function dropPending(ctx: Pick<InvoicingContext, 'db'>, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const dropped = await tx
      .delete(invoices)
      .where(and(eq(invoices.id, id), eq(invoices.status, 'pending')))
      .returning({ serie: invoices.serie, folio: invoices.folio });
    for (const row of dropped) await releaseFolio(tx, row);
  });
}

/**
 * The PAC may have stamped the sealed CFDI of this row (the request died, or lost the PAC's answer): the next
 * attempt may take the row over at once instead of waiting for it to go stale.
 */
export async function markRecoverable(ctx: InvoicingContext, id: number) {
  await ctx.db
    .update(invoices)
    .set({ createdAt: new Date(staleBefore(ctx).getTime() - 1000) })
    .where(and(eq(invoices.id, id), eq(invoices.status, 'pending')));
}

/**
 * The PAC stamps a sealed document already kept on its pending row. Refused (the PAC's own no): the row goes, so
 * the order may be invoiced again at once. Timeout, network, 5xx, a crash: the PAC may have stamped it, so the
 * row stays recoverable and the next attempt recovers that stamp. A PAC error answers 502 with `message`.
 */
export async function stampSealed(
  ctx: InvoicingContext,
  id: number,
  sealedXml: string,
  message: (error: PacError) => string,
): Promise<Stamp> {
  try {
    return await ctx.pac.stamp(sealedXml);
  } catch (error) {
    if (error instanceof PacError && !error.transient) {
      await dropPending(ctx, id);
    } else {
      await markRecoverable(ctx, id);
    }
    if (error instanceof PacError) throw new AppError(502, 'pac_error', message(error));
    throw error;
  }
}

/** Test hook (never in production, see config.ts): dies right after the PAC stamped, before anything is saved. */
export function failpoint(ctx: InvoicingContext, name: 'after-stamp') {
  if (ctx.failpoint === name) process.kill(process.pid, 'SIGKILL');
}

/**
 * A 'pending' row left by a request that died. With a sealed CFDI, the same document is sent to the PAC again:
 * the PAC answers the stamp it made then (or stamps it now), never a second CFDI, and it is stored as issued.
 * Without one (it died before sealing) or when the PAC refuses the document, the row is dropped. True when an
 * invoice was recovered.
 */
export async function recoverStale(
  ctx: InvoicingContext,
  user: MailTo,
  order: Pick<OrderRow, 'number'> & { purchaseOrder?: string | null },
  row: InvoiceRow,
): Promise<boolean> {
  // One recoverer at a time: taking the row over renews its lease.
  const [taken] = await ctx.db
    .update(invoices)
    .set({ createdAt: ctx.now() })
    .where(
      and(eq(invoices.id, row.id), eq(invoices.status, 'pending'), lt(invoices.createdAt, staleBefore(ctx))),
    )
    .returning();
  if (!taken) throw conflict(IN_PROGRESS, 'invoice_exists');
  if (!taken.sealed) {
    await dropPending(ctx, taken.id);
    return false;
  }
  let stamp: Stamp;
  try {
    stamp = await ctx.pac.stamp(taken.sealed.xml);
  } catch (error) {
    if (error instanceof PacError && !error.transient) {
      ctx.log?.error(
        { order: order.number, invoice: taken.id, detail: error.detail },
        'el PAC rechazó el CFDI sellado de una solicitud interrumpida; se descarta',
      );
      await dropPending(ctx, taken.id);
      return false;
    }
    await markRecoverable(ctx, taken.id);
    if (error instanceof PacError)
      throw new AppError(502, 'pac_error', `${GENERATION_FAILED}. ${error.message}`);
    throw error;
  }
  const totals = {
    subtotalCents: taken.subtotalCents,
    ivaCents: taken.ivaCents,
    totalCents: taken.totalCents,
  };
  try {
    await finishIssue(ctx, user, order, taken.id, taken.sealed.comprobante as Comprobante, totals, stamp);
  } catch (error) {
    await markRecoverable(ctx, taken.id);
    throw error;
  }
  ctx.log?.warn?.(
    { order: order.number, uuid: stamp.uuid },
    'factura recuperada del PAC tras una interrupción',
  );
  return true;
}
