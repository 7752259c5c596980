import { and, asc, eq, isNull, lt, or } from 'drizzle-orm';
import { formatMoney } from '../../shared/money.ts';
import {
  creditPaymentAllocations,
  creditPayments,
  institutionMembers,
  institutions,
  invoices,
  type PaymentCfdiSnapshot,
  users,
} from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import type { InvoicingContext } from '../invoices/context.ts';
import { readAttribute } from '../invoices/pac/tfd.ts';
import { PacError, type Stamp } from '../invoices/pac/types.ts';
import {
  buildComprobantePago,
  type ComprobantePago,
  comprobantePagoXml,
  sealComprobantePago,
} from '../invoices/pagos.ts';
import { renderPaymentPdf } from '../invoices/pdf-pago.ts';
import { failpoint } from '../invoices/stamping.ts';
import { renderMail } from '../mail/layout.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { ledgerActor, recordMovement } from '../orders/ledger.ts';
import { lockOrder } from '../orders/lock.ts';

/**
 * The CFDI de pago of a recorded payment (decision 060), issued once whatever dies when: the payment row is taken
 * with a lease (one issuer at a time; a dead one's lease runs out), the sealed XML is kept on it before the PAC is
 * called, and a retry sends that same document — the PAC answers the stamp it already made (its «previamente
 * timbrado»), never a second CFDI. Stored as issued with its 'payment_cfdi' ledger movements (one per order paid)
 * and its mail, in one transaction under the orders' locks. A PAC that refuses the document: the reason is kept,
 * the seal dropped (the next attempt builds it anew) and staff see it pending in the receivables view; the
 * monthly job alerts when one is still unissued by the 5th of the next month.
 */

export const PAYMENT_CFDI_FAILED = 'No se pudo timbrar el CFDI de pago';

export type PaymentCfdiOutcome = 'issued' | 'already' | 'busy' | 'failed';

const fileBase = (s: Pick<PaymentCfdiSnapshot, 'serie' | 'folio'>, uuid: string) =>
  `cfdi-pago-${s.serie ?? ''}${s.folio ?? ''}-${uuid}`;

/** Where the CFDI de pago goes: the institution's billing e-mail, else its administrators'. */
async function recipientsOf(ctx: InvoicingContext, institutionId: number) {
  const [inst] = await ctx.db.select().from(institutions).where(eq(institutions.id, institutionId));
  if (!inst) return { inst: undefined, to: [] as string[] };
  if (inst.billingEmail) return { inst, to: [inst.billingEmail] };
  const admins = await ctx.db
    .select({ email: users.email })
    .from(institutionMembers)
    .innerJoin(users, eq(users.id, institutionMembers.userId))
    .where(
      and(
        eq(institutionMembers.institutionId, institutionId),
        eq(institutionMembers.role, 'administrador'),
        isNull(institutionMembers.removedAt),
      ),
    );
  return { inst, to: admins.map((a) => a.email) };
}

async function allocationsOf(ctx: InvoicingContext, paymentId: number) {
  return ctx.db
    .select({ allocation: creditPaymentAllocations, invoice: invoices })
    .from(creditPaymentAllocations)
    .innerJoin(invoices, eq(invoices.id, creditPaymentAllocations.invoiceId))
    .where(eq(creditPaymentAllocations.paymentId, paymentId))
    .orderBy(asc(invoices.id));
}

function snapshotOf(c: ComprobantePago, stamp: Stamp): PaymentCfdiSnapshot {
  return {
    serie: c.serie ?? null,
    folio: c.folio ?? null,
    fecha: c.fecha,
    lugarExpedicion: c.lugarExpedicion,
    emisor: c.emisor,
    receptor: c.receptor,
    formaPago: '',
    conceptos: [],
    subTotal: '0',
    iva: c.totales.impuestoIva16,
    total: '0',
    noCertificado: c.noCertificado,
    sello: c.sello ?? '',
    noCertificadoSat: stamp.satCertificateNumber,
    selloSat: stamp.satSeal,
    rfcProvCertif: stamp.rfcProvCertif,
    fechaTimbrado: stamp.stampedAt,
    leyenda: readAttribute(stamp.xml, 'tfd:TimbreFiscalDigital', 'Leyenda') ?? null,
    tipoDeComprobante: 'P',
    fechaPago: c.pago.fechaPago,
    formaDePagoP: c.pago.formaDePagoP,
    monto: c.pago.monto,
    numOperacion: c.pago.numOperacion ?? null,
    documentos: c.pago.documentos.map((d) => ({
      uuid: d.idDocumento,
      serie: d.serie ?? null,
      folio: d.folio ?? null,
      numParcialidad: Number(d.numParcialidad),
      saldoAnterior: d.impSaldoAnt,
      pagado: d.impPagado,
      saldoInsoluto: d.impSaldoInsoluto,
      base: d.baseDR,
      iva: d.importeDR,
    })),
  };
}

/** Takes the payment's CFDI over for this attempt (a lease), or null when issued or another attempt holds it. */
async function take(ctx: InvoicingContext, paymentId: number) {
  const now = ctx.now();
  const [taken] = await ctx.db
    .update(creditPayments)
    .set({ leaseUntil: new Date(now.getTime() + ctx.pendingStaleMs), pac: ctx.pac.name })
    .where(
      and(
        eq(creditPayments.id, paymentId),
        eq(creditPayments.cfdiStatus, 'pending'),
        or(isNull(creditPayments.leaseUntil), lt(creditPayments.leaseUntil, now)),
      ),
    )
    .returning();
  return taken ?? null;
}

/** Builds and seals the CFDI de pago from the payment's allocations and keeps it on the row before the PAC. */
async function sealAndKeep(ctx: InvoicingContext, payment: typeof creditPayments.$inferSelect) {
  const { inst } = await recipientsOf(ctx, payment.institutionId);
  if (!inst) throw new AppError(500, 'payment_cfdi_inconsistent', PAYMENT_CFDI_FAILED);
  const parts = await allocationsOf(ctx, payment.id);
  const comprobante = sealComprobantePago(
    buildComprobantePago({
      pago: {
        receivedOn: payment.receivedOn,
        formaDePagoP: payment.formaPago,
        montoCents: payment.amountCents,
        numOperacion: payment.bankReference,
        documentos: parts.map(({ allocation: a, invoice: i }) => ({
          uuid: i.uuid ?? '',
          serie: i.serie,
          folio: i.folio === null ? String(i.id) : String(i.folio),
          numParcialidad: a.numParcialidad,
          saldoAnteriorCents: a.balanceBeforeCents,
          pagadoCents: a.amountCents,
          baseCents: a.baseCents,
          ivaCents: a.ivaCents,
        })),
      },
      emisor: { rfc: ctx.issuer.rfc, nombre: ctx.issuer.nombre, regimenFiscal: ctx.issuer.regimenFiscal },
      lugarExpedicion: ctx.issuer.lugarExpedicion,
      receptor: {
        rfc: inst.rfc,
        nombre: inst.razonSocial.toUpperCase(),
        regimenFiscal: inst.regimenFiscal,
        domicilioFiscal: inst.cp,
      },
      ...(payment.serie ? { serie: payment.serie } : {}),
      ...(payment.folio !== null ? { folio: String(payment.folio) } : {}),
      issuedAt: ctx.now(),
      csd: ctx.csd,
    }),
    ctx.csd,
  ).comprobante;
  const sealed = { xml: comprobantePagoXml(comprobante), comprobante };
  await ctx.db.update(creditPayments).set({ sealed }).where(eq(creditPayments.id, payment.id));
  return sealed;
}

/** Issues (or finishes issuing) the CFDI de pago of a payment. */
export async function issuePaymentCfdi(
  ctx: InvoicingContext,
  paymentId: number,
): Promise<PaymentCfdiOutcome> {
  const taken = await take(ctx, paymentId);
  if (!taken) {
    const [row] = await ctx.db
      .select({ status: creditPayments.cfdiStatus })
      .from(creditPayments)
      .where(eq(creditPayments.id, paymentId));
    return row?.status === 'issued' ? 'already' : 'busy';
  }
  const sealed =
    (taken.sealed as { xml: string; comprobante: ComprobantePago } | null) ?? (await sealAndKeep(ctx, taken));
  let stamp: Stamp;
  try {
    stamp = await ctx.pac.stamp(sealed.xml);
  } catch (error) {
    const refused = error instanceof PacError && !error.transient;
    const message = error instanceof Error ? error.message : String(error);
    ctx.log?.error({ payment: paymentId, err: error }, 'el PAC no timbró el CFDI de pago');
    // Refused: the document goes (the next attempt seals a new one); otherwise the PAC may have stamped it, so the
    // same one is sent again once the lease runs out.
    await ctx.db
      .update(creditPayments)
      .set({ lastError: message, leaseUntil: null, ...(refused ? { sealed: null } : {}) })
      .where(eq(creditPayments.id, paymentId));
    return 'failed';
  }
  failpoint(ctx, 'after-stamp');
  const snapshot = snapshotOf(sealed.comprobante, stamp);
  const pdf = await renderPaymentPdf({ uuid: stamp.uuid, test: stamp.test, snapshot });
  const parts = await allocationsOf(ctx, paymentId);
  const { inst, to } = await recipientsOf(ctx, taken.institutionId);
  const issued = await ctx.db.transaction(async (tx) => {
    const numbers = [...new Set(parts.map((p) => p.allocation.orderNumber))].sort((a, b) => a - b);
    for (const number of numbers) await lockOrder(tx, number);
    const rows = await tx
      .update(creditPayments)
      .set({
        cfdiStatus: 'issued',
        uuid: stamp.uuid,
        test: stamp.test,
        xml: stamp.xml,
        snapshot,
        issuedAt: ctx.now(),
        leaseUntil: null,
        lastError: null,
      })
      .where(and(eq(creditPayments.id, paymentId), eq(creditPayments.cfdiStatus, 'pending')))
      .returning({ id: creditPayments.id });
    if (rows.length === 0) return false;
    for (const { allocation } of parts) {
      await recordMovement(tx, allocation.orderNumber, ledgerActor({ kind: 'system' }), {
        kind: 'payment_cfdi',
        amountCents: allocation.amountCents,
        reference: stamp.uuid,
        detail: { payment: paymentId },
      });
    }
    for (const address of to) {
      await enqueueMail(tx, {
        kind: 'payment-cfdi-issued',
        to: address,
        subject: `CFDI de pago ${snapshot.serie ?? ''}${snapshot.folio ?? ''} por ${formatMoney(taken.amountCents)}`,
        dedupeKey: `payment-cfdi:${stamp.uuid}:${address}`,
        attachments: [
          {
            filename: `${fileBase(snapshot, stamp.uuid)}.xml`,
            contentType: 'application/xml',
            contentBase64: Buffer.from(stamp.xml, 'utf8').toString('base64'),
          },
          {
            filename: `${fileBase(snapshot, stamp.uuid)}.pdf`,
            contentType: 'application/pdf',
            contentBase64: Buffer.from(pdf).toString('base64'),
          },
        ],
        ...renderMail(
          {
            title: 'Recibimos su pago',
            preheader: `CFDI de pago por ${formatMoney(taken.amountCents)}`,
            greeting: `${inst?.razonSocial ?? ''}:`,
            blocks: [
              {
                kind: 'paragraph',
                text: `Registramos su transferencia del ${taken.receivedOn} (referencia ${taken.bankReference}) por ${formatMoney(taken.amountCents)}. Adjuntamos el CFDI de pago (complemento para recepción de pagos 2.0) en XML y PDF.`,
              },
              {
                kind: 'rows',
                rows: snapshot.documentos.map((d) => [
                  `Factura ${d.serie ?? ''}${d.folio ?? ''} (parcialidad ${d.numParcialidad})`,
                  `Pagado $${d.pagado} · saldo $${d.saldoInsoluto}`,
                ]),
              },
              ...(stamp.test
                ? [{ kind: 'note' as const, text: 'Timbrado con el PAC de pruebas: sin validez fiscal.' }]
                : []),
              { kind: 'button', label: 'Ver estado de cuenta', url: `${ctx.publicUrl}/estado-de-cuenta` },
            ],
          },
          ctx.publicUrl,
        ),
      });
    }
    return true;
  });
  if (!issued) return 'already';
  return 'issued';
}

/** Payments whose CFDI de pago is still pending and free to take (the job's round, a crash's recovery). */
export async function pendingPaymentCfdis(ctx: InvoicingContext) {
  const now = ctx.now();
  const rows = await ctx.db
    .select({ id: creditPayments.id })
    .from(creditPayments)
    .where(
      and(
        eq(creditPayments.cfdiStatus, 'pending'),
        or(isNull(creditPayments.leaseUntil), lt(creditPayments.leaseUntil, now)),
      ),
    )
    .orderBy(asc(creditPayments.id))
    .limit(50);
  return rows.map((r) => r.id);
}

export async function issuePendingPaymentCfdis(ctx: InvoicingContext): Promise<number> {
  let issued = 0;
  for (const id of await pendingPaymentCfdis(ctx)) {
    try {
      if ((await issuePaymentCfdi(ctx, id)) === 'issued') issued += 1;
    } catch (error) {
      ctx.log?.error({ payment: id, err: error }, 'no se emitió el CFDI de pago');
    }
  }
  return issued;
}
