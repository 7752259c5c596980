import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { orders } from './orders.ts';

/** What the PDF and the history need of a stamped CFDI, kept beside the XML. */
export type InvoiceSnapshot = {
  serie: string | null;
  folio: string | null;
  fecha: string;
  lugarExpedicion: string;
  emisor: { rfc: string; nombre: string; regimenFiscal: string };
  receptor: { rfc: string; nombre: string; regimenFiscal: string; domicilioFiscal: string; usoCfdi: string };
  formaPago: string;
  conceptos: {
    claveProdServ: string;
    claveUnidad: string;
    noIdentificacion: string | null;
    descripcion: string;
    cantidad: string;
    valorUnitario: string;
    importe: string;
    /** Descuento: only on an invoice issued after part of the sale was given back (decision 056). */
    descuento?: string;
    iva: string;
  }[];
  subTotal: string;
  descuento?: string;
  iva: string;
  total: string;
  noCertificado: string;
  sello: string;
  noCertificadoSat: string;
  selloSat: string;
  rfcProvCertif: string;
  fechaTimbrado: string;
  /** TFD Leyenda (the sandbox PAC marks its stamps with it). */
  leyenda: string | null;
  /** 'E' for a credit note (Comprobante de egreso); absent on older rows, which are all 'I'. */
  tipoDeComprobante?: 'I' | 'E' | 'P';
  /** CfdiRelacionados: 01 (credit note → invoice) or 04 (replacement → replaced invoice). */
  cfdiRelacionados?: { tipoRelacion: string; uuids: string[] };
  /** The buyer's purchase-order number (issue 20), printed on the PDF; not part of the CFDI itself. */
  purchaseOrder?: string;
  /** 'PPD' on an invoice of a sale on credit (decision 060); absent means 'PUE'. */
  metodoPago?: 'PUE' | 'PPD';
  /** Issue 35: 'Recoger en sucursal …' — how the goods are handed over, printed on the PDF; not part of the CFDI. */
  deliveryNote?: string;
};

/**
 * CFDIs of orders. status: 'pending' (being stamped right now), 'issued', 'cancelled'. At most one
 * pending-or-issued invoice per order (partial unique index), so two clicks never stamp twice; a
 * cancelled invoice stays as a record and the order may be invoiced again.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    orderNumber: integer('order_number')
      .notNull()
      .references(() => orders.number),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    status: text('status').notNull().default('pending'),
    pac: text('pac').notNull(),
    /** True when stamped by the sandbox PAC or a PAC test environment (no fiscal validity). */
    test: boolean('test').notNull().default(false),
    uuid: text('uuid'),
    rfc: text('rfc').notNull(),
    nombreFiscal: text('nombre_fiscal').notNull(),
    regimenFiscal: text('regimen_fiscal').notNull(),
    usoCfdi: text('uso_cfdi').notNull(),
    formaPago: text('forma_pago').notNull(),
    cp: text('cp').notNull(),
    subtotalCents: bigint('subtotal_cents', { mode: 'number' }).notNull(),
    ivaCents: bigint('iva_cents', { mode: 'number' }).notNull(),
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    /** The stamped CFDI exactly as the PAC returned it. */
    xml: text('xml'),
    snapshot: jsonb('snapshot').$type<InvoiceSnapshot>(),
    issuedAt: timestamp('issued_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelMotivo: text('cancel_motivo'),
    cancelAcknowledgement: text('cancel_acknowledgement'),
    /**
     * The sealed CFDI sent to the PAC (its XML and the Comprobante it was built from), kept before the call so
     * that a retry after a crash sends the same one and recovers the stamp (decision 015).
     */
    sealed: jsonb('sealed').$type<{ xml: string; comprobante: unknown }>(),
    /** 'I' invoice (Comprobante de ingreso) or 'E' credit note (CFDI de egreso). */
    kind: text('kind').$type<'I' | 'E'>().notNull().default('I'),
    /** CfdiRelacionados: '04' replacement of `relatedUuid`, '01' credit note of `relatedUuid`. */
    relationType: text('relation_type'),
    relatedUuid: text('related_uuid'),
    /**
     * Cancellation before the SAT: null (none asked), 'pending' (en proceso: the receptor must accept; the
     * invoice stays 'issued' and is followed up), 'rejected' (the receptor refused; the invoice stays valid).
     */
    cancelStatus: text('cancel_status').$type<'pending' | 'rejected'>(),
    cancelRequestedAt: timestamp('cancel_requested_at', { withTimezone: true }),
    /** Motivo 01: the UUID of the CFDI that replaces this one (FolioSustitucion). */
    substituteUuid: text('substitute_uuid'),
    /**
     * Serie and Folio of the CFDI (decision 047): each document type its own series and gap-free count, taken when
     * the row is claimed. Null on rows issued before, which used their id as the folio.
     */
    serie: text('serie'),
    folio: integer('folio'),
    /**
     * c_MetodoPago (issue 34, decision 060): 'PUE' paid at once, 'PPD' an invoice of a sale on credit, paid later
     * and followed by CFDI de pago; then `dueAt` is when it must be paid (issued + the institution's credit days).
     */
    metodoPago: text('metodo_pago').$type<'PUE' | 'PPD'>().notNull().default('PUE'),
    dueAt: timestamp('due_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invoices_one_active_idx')
      .on(t.orderNumber)
      .where(sql`${t.status} in ('pending', 'issued') and ${t.kind} = 'I'`),
    index('invoices_cancel_pending_idx').on(t.cancelStatus).where(sql`${t.cancelStatus} = 'pending'`),
    uniqueIndex('invoices_uuid_idx').on(t.uuid),
    index('invoices_order_idx').on(t.orderNumber, t.createdAt),
    uniqueIndex('invoices_serie_folio_idx').on(t.serie, t.folio),
  ],
);

/** The last folio taken of each CFDI series (decision 047, src/server/invoices/folios.ts). */
export const cfdiFolioSeries = pgTable('cfdi_folio_series', {
  series: text('series').primaryKey(),
  lastFolio: integer('last_folio').notNull(),
});

/** Folios given back by documents the PAC never stamped; the next document of the series takes the lowest. */
export const cfdiFreeFolios = pgTable(
  'cfdi_free_folios',
  {
    series: text('series').notNull(),
    folio: integer('folio').notNull(),
  },
  (t) => [primaryKey({ columns: [t.series, t.folio] })],
);

/** The built-in sandbox PAC's stamps, by sealed CFDI: it answers the same stamp again, also after a crash. */
export const sandboxCfdiStamps = pgTable('sandbox_cfdi_stamps', {
  key: text('key').primaryKey(),
  stamp: jsonb('stamp')
    .$type<{
      xml: string;
      uuid: string;
      stampedAt: string;
      satCertificateNumber: string;
      satSeal: string;
      rfcProvCertif: string;
      test: boolean;
    }>()
    .notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * 'Facturar esta compra' (issue 20): the fiscal data chosen at checkout, written in the order's transaction and
 * turned into the CFDI by the invoicing service once the order is paid (src/server/invoices/at-purchase.ts).
 * status: 'waiting' (until paid and issued), 'issued', 'failed' (refused for good: error says why; the buyer can
 * still request the invoice from their history).
 */
export const purchaseInvoiceRequests = pgTable('purchase_invoice_requests', {
  orderNumber: integer('order_number')
    .primaryKey()
    .references(() => orders.number, { onDelete: 'cascade' }),
  userId: integer('user_id').notNull(),
  request: jsonb('request')
    .$type<{
      rfc: string;
      nombreFiscal: string;
      regimenFiscal: string;
      cp: string;
      usoCfdi: string;
      rfcConfirmado: boolean;
    }>()
    .notNull(),
  /** Where the CFDI is mailed (the profile's invoice e-mail, or the account's). */
  email: text('email').notNull(),
  status: text('status').$type<'waiting' | 'issued' | 'failed'>().notNull().default('waiting'),
  error: text('error'),
  attempts: integer('attempts').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The CFDI global to the público en general of one month (issue 21, decision 023): the month's paid sales that were
 * not invoiced individually, one Concepto per order. One per period (unique year + month): 'pending' while it is
 * being stamped, then 'issued' with the stamped XML. When an order in it is later invoiced individually it goes
'cancelling' → 'cancelled' (SAT motivo 04) and a replacement for the period (`replaces_id`, CfdiRelacionados 04
to `related_uuid`) takes its other orders: one non-cancelled global per period.
 */
export const globalInvoices = pgTable(
  'global_invoices',
  {
    id: serial('id').primaryKey(),
    year: integer('year').notNull(),
    month: integer('month').notNull(),
    status: text('status')
      .$type<'pending' | 'issued' | 'cancelling' | 'cancelled'>()
      .notNull()
      .default('pending'),
    test: boolean('test').notNull().default(false),
    uuid: text('uuid'),
    formaPago: text('forma_pago').notNull(),
    /** The sealed CFDI kept before the PAC is called (a retry sends this very document: never a second stamp). */
    sealed: text('sealed'),
    /** The cancelled global this one replaces and its UUID (CfdiRelacionados TipoRelacion 04). */
    replacesId: integer('replaces_id'),
    relatedUuid: text('related_uuid'),
    /** The order whose individual invoice made this global be cancelled (motivo 04). */
    releasedOrderNumber: integer('released_order_number'),
    cancelMotivo: text('cancel_motivo'),
    cancelAcknowledgement: text('cancel_acknowledgement'),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    subtotalCents: bigint('subtotal_cents', { mode: 'number' }).notNull(),
    ivaCents: bigint('iva_cents', { mode: 'number' }).notNull(),
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    xml: text('xml'),
    issuedAt: timestamp('issued_at', { withTimezone: true }),
    /** 'staff' (the back office's action) or 'job' (the monthly job). */
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('global_invoices_period_idx').on(t.year, t.month).where(sql`${t.status} <> 'cancelled'`),
  ],
);

/** The orders a global CFDI covers: an order is in at most one (unique order_number). */
export const globalInvoiceOrders = pgTable(
  'global_invoice_orders',
  {
    globalInvoiceId: integer('global_invoice_id')
      .notNull()
      .references(() => globalInvoices.id, { onDelete: 'cascade' }),
    orderNumber: integer('order_number')
      .notNull()
      .references(() => orders.number),
    /** What of the order's sale the global states: what the shop kept when the global was claimed (decision 056). */
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  },
  (t) => [uniqueIndex('global_invoice_orders_order_idx').on(t.orderNumber)],
);
