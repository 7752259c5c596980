import { and, asc, between, eq, gte, inArray, isNotNull, lt, ne, sql } from 'drizzle-orm';
import { mexicoCityDate, mexicoWallClock } from '../../shared/mexico-time.ts';
import { PUBLICO_EN_GENERAL } from '../../shared/sat-catalogs.ts';
import type { CfdiReportRow, CfdiType, SatState } from '../../shared/schemas/accounting.ts';
import type { Db } from '../db/client.ts';
import {
  creditPaymentAllocations,
  creditPayments,
  globalInvoiceOrders,
  globalInvoices,
  invoices,
} from '../db/schema.ts';
import type { ZipFile } from '../http/zip.ts';
import { storedInvoicePdf } from '../invoices/downloads.ts';
import { renderPaymentPdf } from '../invoices/pdf-pago.ts';
import type { Period } from './period.ts';

/**
 * The period's CFDIs (issue 36, decision 066): every document the PAC stamped with its stamp inside the period
 * (Mexico City), whatever happened to it since — a cancelled one is in the accountant's month with estado
 * 'cancelado' — except the factura global, which belongs to the month it covers (stamped up to 72 hours after it
 * closes; in a range of days, to every month the range touches). Four sources: invoices kind 'I' (ingreso) and 'E' (egreso), credit_payments (CFDI de pago) and
 * global_invoices. The list is read without the XML; `documentFiles` then reads and renders one document at a
 * time, for the streamed ZIP.
 */

export type PeriodDocument = CfdiReportRow & { source: 'invoice' | 'payment' | 'global'; id: number };

const satStateOf = (status: string, cancelStatus: string | null): SatState =>
  status === 'cancelled'
    ? 'cancelado'
    : cancelStatus === 'pending' || status === 'cancelling'
      ? 'en_proceso'
      : 'vigente';

/** 202610 for any instant of October 2026 in Mexico City. */
const monthKey = (at: Date) => Number(mexicoCityDate(at).slice(0, 7).replace('-', ''));

/**
 * A global belongs to the month it covers (InformacionGlobal), though it is stamped in the 72 hours after: those of
 * the months the period touches.
 */
export const globalOfPeriod = (period: Period) =>
  between(
    sql`${globalInvoices.year} * 100 + ${globalInvoices.month}`,
    monthKey(period.start),
    monthKey(new Date(period.end.getTime() - 1)),
  );

const local = (at: Date) => mexicoWallClock(at).replace('T', ' ');

const serieFolio = (serie: string | null, folio: number | string | null, fallback: string) =>
  serie || folio != null ? `${serie ?? ''}${folio ?? ''}` : fallback;

async function invoiceRows(db: Db, period: Period, kinds: ('I' | 'E')[]): Promise<PeriodDocument[]> {
  if (kinds.length === 0) return [];
  const rows = await db
    .select({
      id: invoices.id,
      kind: invoices.kind,
      status: invoices.status,
      cancelStatus: invoices.cancelStatus,
      uuid: invoices.uuid,
      serie: invoices.serie,
      folio: invoices.folio,
      rfc: invoices.rfc,
      nombre: invoices.nombreFiscal,
      subtotalCents: invoices.subtotalCents,
      ivaCents: invoices.ivaCents,
      totalCents: invoices.totalCents,
      formaPago: invoices.formaPago,
      metodoPago: invoices.metodoPago,
      relationType: invoices.relationType,
      relatedUuid: invoices.relatedUuid,
      orderNumber: invoices.orderNumber,
      issuedAt: invoices.issuedAt,
    })
    .from(invoices)
    .where(
      and(
        inArray(invoices.kind, kinds),
        ne(invoices.status, 'pending'),
        isNotNull(invoices.uuid),
        isNotNull(invoices.xml),
        gte(invoices.issuedAt, period.start),
        lt(invoices.issuedAt, period.end),
      ),
    )
    .orderBy(asc(invoices.issuedAt), asc(invoices.id));
  return rows.map((r) => ({
    source: 'invoice',
    id: r.id,
    type: r.kind === 'E' ? 'egreso' : 'ingreso',
    serieFolio: serieFolio(r.serie, r.folio, String(r.id)),
    uuid: r.uuid!,
    fecha: r.issuedAt!.toISOString(),
    fechaLocal: local(r.issuedAt!),
    receptorRfc: r.rfc,
    receptorNombre: r.nombre,
    subtotalCents: r.subtotalCents,
    ivaCents: r.ivaCents,
    totalCents: r.totalCents,
    formaPago: r.formaPago,
    metodoPago: r.metodoPago,
    estadoSat: satStateOf(r.status, r.cancelStatus),
    relationType: r.relationType,
    relatedUuids: r.relatedUuid ? [r.relatedUuid] : [],
    orders: [r.orderNumber],
  }));
}

async function paymentRows(db: Db, period: Period): Promise<PeriodDocument[]> {
  const rows = await db
    .select({
      id: creditPayments.id,
      uuid: creditPayments.uuid,
      serie: creditPayments.serie,
      folio: creditPayments.folio,
      amountCents: creditPayments.amountCents,
      formaPago: creditPayments.formaPago,
      snapshot: creditPayments.snapshot,
      issuedAt: creditPayments.issuedAt,
    })
    .from(creditPayments)
    .where(
      and(
        eq(creditPayments.cfdiStatus, 'issued'),
        isNotNull(creditPayments.uuid),
        gte(creditPayments.issuedAt, period.start),
        lt(creditPayments.issuedAt, period.end),
      ),
    )
    .orderBy(asc(creditPayments.issuedAt), asc(creditPayments.id));
  if (rows.length === 0) return [];
  const allocations = await db
    .select({
      paymentId: creditPaymentAllocations.paymentId,
      orderNumber: creditPaymentAllocations.orderNumber,
      baseCents: creditPaymentAllocations.baseCents,
      ivaCents: creditPaymentAllocations.ivaCents,
      uuid: invoices.uuid,
    })
    .from(creditPaymentAllocations)
    .innerJoin(invoices, eq(invoices.id, creditPaymentAllocations.invoiceId))
    .where(
      inArray(
        creditPaymentAllocations.paymentId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(creditPaymentAllocations.orderNumber));
  return rows.map((r) => {
    const mine = allocations.filter((a) => a.paymentId === r.id);
    return {
      source: 'payment',
      id: r.id,
      type: 'pago',
      serieFolio: serieFolio(r.serie, r.folio, String(r.id)),
      uuid: r.uuid!,
      fecha: r.issuedAt!.toISOString(),
      fechaLocal: local(r.issuedAt!),
      receptorRfc: r.snapshot?.receptor.rfc ?? '',
      receptorNombre: r.snapshot?.receptor.nombre ?? '',
      // A CFDI de pago states 0 at its head; what it carries is the payment: its base, IVA and amount (Pagos 2.0).
      subtotalCents: mine.reduce((s, a) => s + a.baseCents, 0),
      ivaCents: mine.reduce((s, a) => s + a.ivaCents, 0),
      totalCents: r.amountCents,
      formaPago: r.snapshot?.formaDePagoP ?? r.formaPago,
      metodoPago: '',
      estadoSat: 'vigente',
      relationType: 'pago',
      relatedUuids: mine.map((a) => a.uuid ?? '').filter(Boolean),
      orders: mine.map((a) => a.orderNumber),
    };
  });
}

async function globalRows(db: Db, period: Period): Promise<PeriodDocument[]> {
  const rows = await db
    .select({
      id: globalInvoices.id,
      year: globalInvoices.year,
      month: globalInvoices.month,
      status: globalInvoices.status,
      uuid: globalInvoices.uuid,
      formaPago: globalInvoices.formaPago,
      subtotalCents: globalInvoices.subtotalCents,
      ivaCents: globalInvoices.ivaCents,
      totalCents: globalInvoices.totalCents,
      relatedUuid: globalInvoices.relatedUuid,
      issuedAt: globalInvoices.issuedAt,
    })
    .from(globalInvoices)
    .where(
      and(
        ne(globalInvoices.status, 'pending'),
        isNotNull(globalInvoices.uuid),
        isNotNull(globalInvoices.xml),
        globalOfPeriod(period),
      ),
    )
    .orderBy(asc(globalInvoices.issuedAt), asc(globalInvoices.id));
  if (rows.length === 0) return [];
  const members = await db
    .select({ globalId: globalInvoiceOrders.globalInvoiceId, orderNumber: globalInvoiceOrders.orderNumber })
    .from(globalInvoiceOrders)
    .where(
      inArray(
        globalInvoiceOrders.globalInvoiceId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(globalInvoiceOrders.orderNumber));
  return rows.map((r) => ({
    source: 'global',
    id: r.id,
    type: 'global',
    serieFolio: `GLOBAL-${r.year}-${String(r.month).padStart(2, '0')}`,
    uuid: r.uuid!,
    fecha: r.issuedAt!.toISOString(),
    fechaLocal: local(r.issuedAt!),
    receptorRfc: PUBLICO_EN_GENERAL.rfc,
    receptorNombre: PUBLICO_EN_GENERAL.nombre,
    subtotalCents: r.subtotalCents,
    ivaCents: r.ivaCents,
    totalCents: r.totalCents,
    formaPago: r.formaPago,
    metodoPago: 'PUE',
    estadoSat: satStateOf(r.status, null),
    relationType: r.relatedUuid ? '04' : null,
    relatedUuids: r.relatedUuid ? [r.relatedUuid] : [],
    orders: members.filter((m) => m.globalId === r.id).map((m) => m.orderNumber),
  }));
}

/** The period's documents of the given types, by stamp time. */
export async function periodDocuments(
  db: Db,
  period: Period,
  types: readonly CfdiType[],
): Promise<PeriodDocument[]> {
  const kinds = [
    ...(types.includes('ingreso') ? ['I' as const] : []),
    ...(types.includes('egreso') ? ['E' as const] : []),
  ];
  const lists = await Promise.all([
    invoiceRows(db, period, kinds),
    types.includes('pago') ? paymentRows(db, period) : [],
    types.includes('global') ? globalRows(db, period) : [],
  ]);
  return lists.flat().sort((a, b) => (a.fecha < b.fecha ? -1 : a.fecha > b.fecha ? 1 : 0));
}

/** A document's file name in the ZIP: its type's folder, serie-folio and UUID. */
export const documentFileBase = (d: Pick<CfdiReportRow, 'type' | 'serieFolio' | 'uuid'>) =>
  `${d.type}/${d.serieFolio.replace(/[^A-Za-z0-9-]/g, '_')}-${d.uuid}`;

/**
 * The documents' files, read and rendered one at a time (the XML as the PAC returned it, then its PDF). A factura
 * global has no printed representation in the shop (decision 023 keeps its XML only): its XML alone.
 */
export async function* documentFiles(db: Db, documents: readonly PeriodDocument[]): AsyncGenerator<ZipFile> {
  for (const d of documents) {
    const base = documentFileBase(d);
    if (d.source === 'invoice') {
      const [row] = await db.select().from(invoices).where(eq(invoices.id, d.id));
      if (!row?.xml || !row.snapshot || !row.uuid) continue;
      yield { name: `${base}.xml`, data: row.xml };
      yield {
        name: `${base}.pdf`,
        data: await storedInvoicePdf({ ...row, uuid: row.uuid, snapshot: row.snapshot }),
        // A PDF is compressed already: deflating it again costs time for a few per cent.
        store: true,
      };
    } else if (d.source === 'payment') {
      const [row] = await db.select().from(creditPayments).where(eq(creditPayments.id, d.id));
      if (!row?.xml || !row.snapshot || !row.uuid) continue;
      yield { name: `${base}.xml`, data: row.xml };
      yield {
        name: `${base}.pdf`,
        data: await renderPaymentPdf({ uuid: row.uuid, test: row.test, snapshot: row.snapshot }),
        store: true,
      };
    } else {
      const [row] = await db
        .select({ xml: globalInvoices.xml })
        .from(globalInvoices)
        .where(eq(globalInvoices.id, d.id));
      if (row?.xml) yield { name: `${base}.xml`, data: row.xml };
    }
  }
}
