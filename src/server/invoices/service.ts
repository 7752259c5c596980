import { and, asc, desc, eq, inArray, isNotNull, isNull, lt } from 'drizzle-orm';
import type { InvoiceRequest, InvoiceState } from '../../shared/schemas/invoice.ts';
import { shop } from '../../shared/shop.ts';
import type { SessionUser } from '../auth/session.ts';
import type { AppConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import {
  type InvoiceSnapshot,
  invoices,
  orderLines,
  orders,
  products,
  sandboxCfdiStamps,
  users,
} from '../db/schema.ts';
import { AppError, badRequest, conflict, notFound } from '../http/errors.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { lockOrder } from '../orders/lock.ts';
import { raisePaymentAlert } from '../orders/payment-events.ts';
import { type InvoiceBlock, invoiceBlock, saleUndone } from '../orders/rules.ts';
import { type ConceptSource, computeCfdiAmounts } from './amounts.ts';
import {
  buildComprobante,
  type Comprobante,
  comprobanteXml,
  mexicoDateTime,
  type Relacionados,
  sealComprobante,
} from './cfdi.ts';
import { type Csd, loadCsd, TEST_CSD } from './csd.ts';
import { formaPagoFor, paidWith } from './forma-pago.ts';
import { releaseFromGlobal } from './global.ts';
import { globalInvoiceOf, globalTooLateMessage, inGlobalMessage } from './global-membership.ts';
import { creditNoteIssuedMail, invoiceCancelledMail, invoiceIssuedMail } from './mails.ts';
import { SandboxPac, type SandboxStampStore } from './pac/sandbox.ts';
import { SwSapienPac } from './pac/sw-sapien.ts';
import { readAttribute } from './pac/tfd.ts';
import {
  type CancelMotivo,
  type CancelRequest,
  type CancelResult,
  type Pac,
  PacError,
  type Stamp,
} from './pac/types.ts';
import { renderInvoicePdf } from './pdf.ts';
import { loadPostalCatalogue, type PostalCatalogue, postalCodeMessage } from './postal-codes.ts';

/** The SAT's test issuer that owns the public test CSD (development, tests, sandbox). */
export const TEST_ISSUER = {
  rfc: 'EKU9003173C9',
  nombre: 'ESCUELA KEMPER URGATE',
  regimenFiscal: '601',
  lugarExpedicion: '86035',
} as const;

export type Issuer = { rfc: string; nombre: string; regimenFiscal: string; lugarExpedicion: string };

export type InvoicingContext = {
  db: Db;
  publicUrl: string;
  pac: Pac;
  csd: Csd;
  issuer: Issuer;
  now: () => Date;
  /** SAT's c_CodigoPostal; an empty one checks nothing. */
  postalCodes: PostalCatalogue;
  /** A 'pending' invoice older than this was left by a request that died; the next request recovers it. */
  pendingStaleMs: number;
  /** Chaos tests only: die at this point (config.ts refuses it in production). */
  failpoint?: 'after-stamp' | undefined;
  log?: { error: (obj: object, msg: string) => void; warn?: (obj: object, msg: string) => void };
};

/** Builds the invoicing context from configuration; throws (at start) on a bad CSD. */
export function createInvoicingContext(
  config: AppConfig,
  db: Db,
  overrides: Partial<Pick<InvoicingContext, 'pac' | 'now' | 'log' | 'pendingStaleMs'>> = {},
): InvoicingContext {
  // The production guard (assertInvoicingAllowed) runs in main.ts at start, beside the payments one, so tests
  // can build a production app to check headers and cookies.
  const own = config.invoicing.csd;
  const csd = loadCsd(own ?? TEST_CSD);
  const issuer: Issuer = own
    ? {
        rfc: shop.invoicing.issuer.rfc,
        nombre: shop.invoicing.issuer.name,
        regimenFiscal: shop.invoicing.issuer.regimenFiscal,
        lugarExpedicion: shop.invoicing.issuer.postalCode,
      }
    : TEST_ISSUER;
  if (csd.rfc !== issuer.rfc) {
    throw new Error(
      `El CSD configurado es del RFC ${csd.rfc}, pero el emisor de config/shop.json (invoicing.issuer) es ${issuer.rfc}`,
    );
  }
  const pacConfig = config.invoicing.pac;
  const pac =
    overrides.pac ??
    (pacConfig.kind === 'sw'
      ? new SwSapienPac({
          url: pacConfig.url,
          user: pacConfig.user,
          password: pacConfig.password,
          token: pacConfig.token,
          satStatusUrl: pacConfig.satStatusUrl,
          csd,
        })
      : new SandboxPac(csd, undefined, dbStampStore(db)));
  const postalCodes = loadPostalCatalogue(config.invoicing.postalCodesFile);
  if (postalCodes.size === 0) {
    overrides.log?.warn?.(
      {},
      'el catálogo c_CodigoPostal del SAT está vacío: el CP del receptor no se compara con él (npm run sat:postal-codes)',
    );
  }
  return {
    db,
    publicUrl: config.publicUrl,
    pac,
    csd,
    issuer,
    postalCodes,
    pendingStaleMs: overrides.pendingStaleMs ?? config.invoicing.pendingStaleMs ?? STALE_PENDING_MS,
    ...(config.invoicing.failpoint ? { failpoint: config.invoicing.failpoint } : {}),
    now: overrides.now ?? (() => new Date()),
    ...(overrides.log ? { log: overrides.log } : {}),
  };
}

/** The sandbox PAC's stamps in the shop's database, so that it answers the same stamp after a crash. */
function dbStampStore(db: Db): SandboxStampStore {
  const read = async (key: string) => {
    const [row] = await db.select().from(sandboxCfdiStamps).where(eq(sandboxCfdiStamps.key, key)).limit(1);
    return row?.stamp;
  };
  return {
    get: read,
    put: async (key, stamp) => {
      await db.insert(sandboxCfdiStamps).values({ key, stamp }).onConflictDoNothing();
      return (await read(key)) ?? stamp;
    },
  };
}

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
/** A 'pending' row older than this belongs to a request that died mid-way (CFDI_PENDING_STALE_MS). */
export const STALE_PENDING_MS = 2 * 60 * 1000;

type OrderRow = typeof orders.$inferSelect;
type InvoiceRow = typeof invoices.$inferSelect;

const mexicoDate = (d: Date) =>
  new Intl.DateTimeFormat('es-MX', { timeZone: 'America/Mexico_City', dateStyle: 'long' }).format(d);

async function ownOrder(db: Db, userId: number, number: number): Promise<OrderRow> {
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
function blockedReason(order: OrderRow, active: InvoiceRow | undefined, now: Date): string | null {
  const block = invoiceBlock(order);
  if (block) return ORDER_BLOCKS[block];
  if (active?.status === 'issued') return ALREADY_INVOICED;
  if (active?.status === 'pending') return IN_PROGRESS;
  const deadline = deadlineOf(order);
  if (deadline && now.getTime() > deadline.getTime()) {
    return `El plazo para facturar este pedido (${shop.invoicingWindowDays} días desde el pago) terminó el ${mexicoDate(deadline)}`;
  }
  return null;
}

async function invoicesOf(db: Db, orderNumber: number): Promise<InvoiceRow[]> {
  return db.select().from(invoices).where(eq(invoices.orderNumber, orderNumber)).orderBy(desc(invoices.id));
}

function stateOf(order: OrderRow, all: InvoiceRow[], now: Date): InvoiceState {
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

/** The order's stamped credit notes, newest first (shown beside the invoice with their downloads). */
function creditNotesOf(all: InvoiceRow[]): InvoiceState['creditNotes'] {
  return all.flatMap((r) =>
    r.kind === 'E' && r.uuid && (r.status === 'issued' || r.status === 'cancelled')
      ? [
          {
            uuid: r.uuid,
            serieFolio: `NC${r.id}`,
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

type CorrectionBlock = { message: string; code: string };

/**
 * Why a correction (cancel or replace) of `active` cannot go on now, or null: a cancellation under way, the SAT's
 * deadline (everyone); for a shopper also one correction per order and none after the receptor rejected one.
 */
function correctionBlock(
  active: InvoiceRow,
  rows: InvoiceRow[],
  now: Date,
  by: 'shopper' | 'staff',
): CorrectionBlock | null {
  if (active.cancelStatus === 'pending') return { message: CANCEL_IN_PROGRESS, code: 'cancel_in_progress' };
  if (by === 'shopper') {
    if (active.cancelStatus === 'rejected') return { message: CANCEL_REJECTED, code: 'cancel_rejected' };
    if (rows.some((r) => (r.status === 'cancelled' || r.status === 'replaced') && r.kind === 'I')) {
      return { message: SELF_SERVICE_LIMIT, code: 'self_service_limit' };
    }
  }
  const deadline = cancellationDeadline(active.issuedAt ?? active.createdAt);
  if (now.getTime() > deadline.getTime()) {
    return { message: cancelDeadlineMessage(deadline), code: 'cancel_deadline' };
  }
  return null;
}

const cancelDeadlineMessage = (deadline: Date) =>
  `El plazo para cancelar esta factura terminó el ${mexicoDate(deadline)} (Código Fiscal de la Federación, art. 29-A)`;

/** GET /api/orders/:number/invoice — the order's invoice state, for /factura, /historial and the receipt. */
export async function getInvoiceState(ctx: InvoicingContext, user: SessionUser, number: number) {
  const order = await ownOrder(ctx.db, user.id, number);
  return stateOf(order, await invoicesOf(ctx.db, number), ctx.now());
}

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

function snapshotOf(c: Comprobante, stamp: Stamp): InvoiceSnapshot {
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
      iva: k.traslado.importe,
    })),
    subTotal: c.subTotal,
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
    ...(c.cfdiRelacionados ? { cfdiRelacionados: c.cfdiRelacionados } : {}),
  };
}

/**
 * What the request schema cannot check on its own, before anything is stamped: the CP against SAT's
 * c_CodigoPostal (the RFC's check digit and date, the régimen/uso matrix and the razón social without its
 * régimen de capital are checked by invoiceRequestSchema, in the form and at the route).
 */
function checkReceptor(ctx: InvoicingContext, request: InvoiceRequest): void {
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
      await tx.delete(invoices).where(
        and(
          eq(invoices.orderNumber, order.number),
          eq(invoices.status, 'pending'),
          // A sealed one may have been stamped: it is recovered (recoverStale), never dropped here.
          isNull(invoices.sealed),
          lt(invoices.createdAt, staleBefore(ctx)),
        ),
      );
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
      const [row] = await tx.insert(invoices).values(values).returning({ id: invoices.id });
      return row!.id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(IN_PROGRESS, 'invoice_exists');
    throw error;
  }
}

const fileBaseOf = (snapshot: Pick<InvoiceSnapshot, 'serie' | 'folio' | 'tipoDeComprobante'>, uuid: string) =>
  `${snapshot.tipoDeComprobante === 'E' ? 'nota-credito' : 'factura'}-${snapshot.serie ?? ''}${snapshot.folio ?? ''}-${uuid}`;

type Totals = { subtotalCents: number; ivaCents: number; totalCents: number };

/** Whom the stamped CFDI is mailed to: the order's owner. */
type MailTo = { email: string; nombre: string };

/** When a 'pending' row counts as left behind by a request that died (crash, timeout). */
const staleBefore = (ctx: InvoicingContext) => new Date(ctx.now().getTime() - ctx.pendingStaleMs);

/**
 * Stores the stamped CFDI on its 'pending' row and queues the mail, in one transaction. Returns false when the
 * row is no longer pending (another request finished it first).
 */
async function finishIssue(
  ctx: InvoicingContext,
  user: MailTo,
  order: Pick<OrderRow, 'number'> & { purchaseOrder?: string | null },
  id: number,
  comprobante: Comprobante,
  totals: Totals,
  stamp: Stamp,
): Promise<boolean> {
  const snapshot = {
    ...snapshotOf(comprobante, stamp),
    ...(order.purchaseOrder ? { purchaseOrder: order.purchaseOrder } : {}),
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
  return ctx.db.transaction(async (tx) => {
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
 * The PAC may have stamped the sealed CFDI of this row (the request died, or lost the PAC's answer): the next
 * attempt may take the row over at once instead of waiting for it to go stale.
 */
async function markRecoverable(ctx: InvoicingContext, id: number) {
  await ctx.db
    .update(invoices)
    .set({ createdAt: new Date(staleBefore(ctx).getTime() - 1000) })
    .where(and(eq(invoices.id, id), eq(invoices.status, 'pending')));
}

/**
 * What the PAC needs to cancel (or follow the cancellation of) an invoice row: the issuer as stamped, the
 * receptor, the total, the motivo and, for a replaced invoice, the UUID that replaces it (FolioSustitucion).
 */
function cancelRequestOf(
  ctx: InvoicingContext,
  row: InvoiceRow,
  uuid: string,
  motivo: CancelMotivo,
): CancelRequest {
  return {
    uuid,
    issuerRfc: row.snapshot?.emisor.rfc ?? ctx.issuer.rfc,
    receiverRfc: row.rfc,
    totalCents: row.totalCents,
    motivo,
    folioSustitucion: row.substituteUuid ?? undefined,
    issuedAt: row.issuedAt ?? undefined,
  };
}

/**
 * The PAC stamps a sealed document already kept on its pending row. Refused (the PAC's own no): the row goes, so
 * the order may be invoiced again at once. Timeout, network, 5xx, a crash: the PAC may have stamped it, so the
 * row stays recoverable and the next attempt recovers that stamp. A PAC error answers 502 with `message`.
 */
async function stampSealed(
  ctx: InvoicingContext,
  id: number,
  sealedXml: string,
  message: (error: PacError) => string,
): Promise<Stamp> {
  try {
    return await ctx.pac.stamp(sealedXml);
  } catch (error) {
    if (error instanceof PacError && !error.transient) {
      await ctx.db.delete(invoices).where(and(eq(invoices.id, id), eq(invoices.status, 'pending')));
    } else {
      await markRecoverable(ctx, id);
    }
    if (error instanceof PacError) throw new AppError(502, 'pac_error', message(error));
    throw error;
  }
}

/** Test hook (never in production, see config.ts): dies right after the PAC stamped, before anything is saved. */
function failpoint(ctx: InvoicingContext, name: 'after-stamp') {
  if (ctx.failpoint === name) process.kill(process.pid, 'SIGKILL');
}

/**
 * A 'pending' row left by a request that died. With a sealed CFDI, the same document is sent to the PAC again:
 * the PAC answers the stamp it made then (or stamps it now), never a second CFDI, and it is stored as issued.
 * Without one (it died before sealing) or when the PAC refuses the document, the row is dropped. True when an
 * invoice was recovered.
 */
async function recoverStale(
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
    await ctx.db.delete(invoices).where(and(eq(invoices.id, taken.id), eq(invoices.status, 'pending')));
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
      await ctx.db.delete(invoices).where(and(eq(invoices.id, taken.id), eq(invoices.status, 'pending')));
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
  const stale = existing.find(
    (r) => r.status === 'pending' && r.kind === 'I' && r.createdAt.getTime() < staleBefore(ctx).getTime(),
  );
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
    throw conflict(globalTooLateMessage(global, mexicoDate(deadline)), 'global_cancel_deadline');
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
async function issueNew(
  ctx: InvoicingContext,
  user: SessionUser,
  order: OrderRow,
  request: InvoiceRequest,
  relation?: Relacionados,
): Promise<string> {
  const now = ctx.now();
  const amounts = computeCfdiAmounts(await conceptSources(ctx.db, order));
  if (amounts.totalCents !== order.totalCents || amounts.concepts.length === 0) {
    ctx.log?.error(
      { order: order.number, cfdiTotal: amounts.totalCents, orderTotal: order.totalCents },
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
  const formaPago = formaPagoFor(await paidWith(ctx.db, order.number));
  const id = await claimPending(ctx, order, user, request, formaPago);
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
        serie: shop.invoicing.series,
        folio: String(id),
        issuedAt: now,
        csd: ctx.csd,
        ...(relation ? { cfdiRelacionados: relation } : {}),
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
    await ctx.db.delete(invoices).where(and(eq(invoices.id, id), eq(invoices.status, 'pending')));
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

export const CANCEL_PENDING =
  'Solicitamos la cancelación al SAT. Como la factura supera $1,000 y tiene más de un día, el receptor debe aceptarla (tiene 3 días hábiles para responder); mientras tanto la factura sigue vigente y le avisaremos por correo cuando se resuelva.';
export const CANCEL_IN_PROGRESS =
  'La cancelación de esta factura está en proceso: el SAT espera la respuesta del receptor';
export const CANCEL_REJECTED =
  'El receptor rechazó la cancelación ante el SAT; la factura sigue vigente. Contacte al personal de la tienda.';
export const SELF_SERVICE_LIMIT =
  'Este pedido ya tuvo una corrección de factura; para otra, contacte al personal de la tienda';

/**
 * The last day to cancel a CFDI (CFF art. 29-A, párrafo cuarto, since 2022): until the month in which the annual
 * ISR return of the fiscal year of issue is due. The shop is a persona moral, whose return is due by 31 March of
 * the following year (LISR art. 76 fr. V), so: 31 March of the year after the issue, end of day, Mexico City.
 */
export function cancellationDeadline(issuedAt: Date): Date {
  const year = Number(mexicoDateTime(issuedAt).slice(0, 4));
  // 1 April 00:00 in Mexico City (UTC−6, no DST since 2022) = 06:00 UTC.
  return new Date(Date.UTC(year + 1, 3, 1, 6, 0, 0) - 1);
}

export type CancelOptions = {
  motivo: Exclude<CancelMotivo, '01'>;
  /** A shopper may correct an invoice once (cancel and ask again); staff are not limited. */
  by: 'shopper' | 'staff';
};

/**
 * POST /api/orders/:number/invoice/cancel (shopper: motivo 02) and the staff action (02, 03 the sale did not
 * happen, 04 global invoice): asks the PAC. Cancelled at once → 'cancelled'; "en proceso" (the receptor must
 * accept) → the invoice stays 'issued' with cancel_status 'pending', shown as such, and followUpCancellations
 * finishes it when the SAT answers. Never shown as cancelled before it is.
 */
export async function cancelInvoice(
  ctx: InvoicingContext,
  user: SessionUser,
  number: number,
  options: CancelOptions = { motivo: '02', by: 'shopper' },
): Promise<{ message: string; invoice: InvoiceState }> {
  const order = await ownOrder(ctx.db, user.id, number);
  const rows = await invoicesOf(ctx.db, number);
  const active = rows.find((r) => r.status === 'issued' && r.kind === 'I');
  if (!active?.uuid) return alreadyCancelled(ctx, order);
  const block = correctionBlock(active, rows, ctx.now(), options.by);
  if (block) throw conflict(block.message, block.code);

  let result: CancelResult;
  try {
    result = await ctx.pac.cancel(cancelRequestOf(ctx, active, active.uuid, options.motivo));
  } catch (error) {
    if (error instanceof PacError) {
      ctx.log?.error({ order: number, detail: error.detail }, 'el PAC no canceló la factura');
      throw new AppError(502, 'pac_error', `No se pudo cancelar la factura. ${error.message}`);
    }
    throw error;
  }
  const now = ctx.now();
  if (result.status !== 'cancelled') {
    await ctx.db
      .update(invoices)
      .set({
        cancelStatus: result.status,
        cancelRequestedAt: now,
        cancelMotivo: options.motivo,
        cancelAcknowledgement: result.acknowledgement,
      })
      .where(and(eq(invoices.id, active.id), eq(invoices.status, 'issued')));
    return {
      message: result.status === 'pending' ? CANCEL_PENDING : CANCEL_REJECTED,
      invoice: stateOf(order, await invoicesOf(ctx.db, number), ctx.now()),
    };
  }
  const updated = await markCancelled(ctx, active, user, options.motivo, result.acknowledgement);
  if (!updated) return alreadyCancelled(ctx, order);
  return {
    message:
      options.by === 'shopper'
        ? 'Factura cancelada correctamente. Puede solicitar una nueva factura para este pedido.'
        : 'Factura cancelada correctamente.',
    invoice: stateOf(order, await invoicesOf(ctx.db, number), ctx.now()),
  };
}

export const REPLACED =
  'Emitimos la factura corregida (sustituye a la anterior, relación 04) y solicitamos al SAT la cancelación de la anterior con motivo 01. Le enviamos la nueva por correo con el XML y el PDF.';

/**
 * POST /api/orders/:number/invoice/replace: corrects the invoice the SAT's way for motivo 01 — first a new
 * CFDI with CfdiRelacionados TipoRelacion 04 pointing at the old UUID, then the old one cancelled with motivo
 * 01 and FolioSustitucion = the new UUID. The old row is 'replaced' (still valid at the SAT) until its
 * cancellation lands; if the PAC cannot cancel now or the receptor must accept, followUpCancellations goes on.
 * A shopper corrects once; staff without limit.
 */
export async function replaceInvoice(
  ctx: InvoicingContext,
  user: SessionUser,
  number: number,
  request: InvoiceRequest,
  by: 'shopper' | 'staff' = 'shopper',
): Promise<{ message: string; invoice: InvoiceState }> {
  const order = await ownOrder(ctx.db, user.id, number);
  const rows = await invoicesOf(ctx.db, number);
  const active = rows.find((r) => r.status === 'issued' && r.kind === 'I');
  if (!active?.uuid) throw conflict(NO_ACTIVE_INVOICE, 'no_active_invoice');
  const block = correctionBlock(active, rows, ctx.now(), by);
  if (block) throw conflict(block.message, block.code);
  checkReceptor(ctx, request);
  // Free the order's active slot: the old invoice is 'replaced' while its replacement is issued.
  const [claimed] = await ctx.db
    .update(invoices)
    .set({ status: 'replaced' })
    .where(and(eq(invoices.id, active.id), eq(invoices.status, 'issued')))
    .returning();
  if (!claimed) throw conflict(NO_ACTIVE_INVOICE, 'no_active_invoice');
  let newUuid: string;
  try {
    newUuid = await issueNew(ctx, user, order, request, { tipoRelacion: '04', uuids: [active.uuid] });
  } catch (error) {
    await ctx.db
      .update(invoices)
      .set({ status: 'issued' })
      .where(and(eq(invoices.id, active.id), eq(invoices.status, 'replaced')));
    throw error;
  }
  await ctx.db.update(invoices).set({ substituteUuid: newUuid }).where(eq(invoices.id, active.id));
  await cancelReplaced(ctx, { ...claimed, substituteUuid: newUuid });
  return { message: REPLACED, invoice: stateOf(order, await invoicesOf(ctx.db, number), ctx.now()) };
}

/** Motivo 01 for a 'replaced' invoice; a PAC failure leaves it for followUpCancellations. */
async function cancelReplaced(
  ctx: InvoicingContext,
  row: InvoiceRow,
): Promise<CancelResult['status'] | null> {
  if (!row.uuid || !row.substituteUuid) return null;
  let result: CancelResult;
  try {
    result = await ctx.pac.cancel(cancelRequestOf(ctx, row, row.uuid, '01'));
  } catch (error) {
    ctx.log?.error(
      {
        order: row.orderNumber,
        uuid: row.uuid,
        detail: error instanceof PacError ? error.detail : String(error),
      },
      'no se pudo cancelar con motivo 01 la factura sustituida; se reintenta en el seguimiento',
    );
    return null;
  }
  const now = ctx.now();
  await ctx.db
    .update(invoices)
    .set(
      result.status === 'cancelled'
        ? {
            status: 'cancelled',
            cancelledAt: now,
            cancelMotivo: '01',
            cancelStatus: null,
            cancelAcknowledgement: result.acknowledgement,
          }
        : {
            cancelStatus: result.status,
            cancelRequestedAt: now,
            cancelMotivo: '01',
            cancelAcknowledgement: result.acknowledgement,
          },
    )
    .where(and(eq(invoices.id, row.id), eq(invoices.status, 'replaced')));
  return result.status;
}

async function markCancelled(
  ctx: InvoicingContext,
  row: InvoiceRow,
  to: { email: string; nombre: string },
  motivo: CancelMotivo,
  acknowledgement: string | null,
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const rows = await tx
      .update(invoices)
      .set({
        status: 'cancelled',
        cancelledAt: ctx.now(),
        cancelMotivo: motivo,
        cancelStatus: null,
        cancelAcknowledgement: acknowledgement ?? row.cancelAcknowledgement,
      })
      .where(and(eq(invoices.id, row.id), inArray(invoices.status, ['issued', 'replaced'])))
      .returning({ id: invoices.id });
    if (rows.length > 0 && row.uuid) {
      await enqueueMail(
        tx,
        invoiceCancelledMail(to, { orderNumber: row.orderNumber, uuid: row.uuid, motivo }, ctx.publicUrl),
      );
    }
    return rows.length > 0;
  });
}

/**
 * Follows the cancellations 'en proceso' until the SAT answers: accepted → cancelled (and the mail); rejected →
 * the invoice stays valid, cancel_status 'rejected' (shown to shopper and staff). Runs on a timer
 * (routes.ts) and in tests; returns what changed. Also recovers credit notes left pending by a request that died.
 */
export async function followUpCancellations(
  ctx: InvoicingContext,
): Promise<{ cancelled: number; rejected: number; pending: number; recovered: number }> {
  const counts = { cancelled: 0, rejected: 0, pending: 0, recovered: 0 };
  // Credit notes whose request died after sealing: recovered from the PAC, never stamped twice.
  const stuck = await ctx.db
    .selectDistinct({ orderNumber: invoices.orderNumber })
    .from(invoices)
    .where(
      and(
        eq(invoices.status, 'pending'),
        eq(invoices.kind, 'E'),
        isNotNull(invoices.sealed),
        lt(invoices.createdAt, staleBefore(ctx)),
      ),
    );
  for (const { orderNumber } of stuck) {
    try {
      if (await recoverStaleCreditNotes(ctx, orderNumber)) counts.recovered++;
    } catch (error) {
      ctx.log?.error(
        { order: orderNumber, detail: error instanceof PacError ? error.detail : String(error) },
        'no se pudo recuperar una nota de crédito interrumpida; se reintenta en el seguimiento',
      );
    }
  }
  // Replaced invoices whose motivo-01 cancellation did not reach the PAC yet.
  const unsent = await ctx.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.status, 'replaced'), isNull(invoices.cancelStatus)));
  for (const row of unsent) {
    const status = await cancelReplaced(ctx, row);
    if (status === 'cancelled') counts.cancelled++;
    else counts.pending++;
  }
  const pending = await ctx.db.select().from(invoices).where(eq(invoices.cancelStatus, 'pending'));
  for (const row of pending) {
    if (!row.uuid) continue;
    let result: CancelResult;
    try {
      result = await ctx.pac.cancellationStatus(
        cancelRequestOf(ctx, row, row.uuid, (row.cancelMotivo ?? '02') as CancelMotivo),
      );
    } catch (error) {
      ctx.log?.error(
        {
          order: row.orderNumber,
          uuid: row.uuid,
          detail: error instanceof PacError ? error.detail : String(error),
        },
        'no se pudo consultar la cancelación en proceso',
      );
      counts.pending++;
      continue;
    }
    if (result.status === 'pending') {
      counts.pending++;
    } else if (result.status === 'rejected') {
      await ctx.db
        .update(invoices)
        .set({ cancelStatus: 'rejected' })
        .where(and(eq(invoices.id, row.id), eq(invoices.cancelStatus, 'pending')));
      ctx.log?.warn?.(
        { order: row.orderNumber, uuid: row.uuid },
        'el receptor rechazó la cancelación de la factura',
      );
      counts.rejected++;
    } else {
      const [owner] = await ctx.db
        .select({ email: users.email, nombre: users.nombre })
        .from(users)
        .where(eq(users.id, row.userId));
      if (
        owner &&
        (await markCancelled(
          ctx,
          row,
          owner,
          (row.cancelMotivo ?? '02') as CancelMotivo,
          result.acknowledgement,
        ))
      ) {
        counts.cancelled++;
      }
    }
  }
  return counts;
}

/**
 * Invoices of sales that did not take place (orders/rules.ts, saleUndone: the order cancelled and its money
 * returned — typically a refund made in Openpay's dashboard, which the webhook applies to the order): the CFDI
 * de ingreso still valid is cancelled with the SAT's motivo 03 «No se llevó a cabo la operación», which is what
 * the accountant expects for a sale that was undone (a credit note is for returns and discounts of a sale that
 * did happen). Staff see the outcome as an alert on the order: cancelled, 'en proceso' (the receptor must
 * accept; followUpCancellations goes on) or refused (deadline passed, receptor rejected) with what to do
 * instead — a credit note for the total. Runs on the invoices' timer (routes.ts) and in tests; a PAC that does
 * not answer is asked again on the next round.
 */
export async function cancelInvoicesOfUndoneSales(
  ctx: InvoicingContext,
): Promise<{ cancelled: number; pending: number; refused: number }> {
  const counts = { cancelled: 0, pending: 0, refused: 0 };
  const candidates = await ctx.db
    .select({ invoice: invoices, order: orders })
    .from(invoices)
    .innerJoin(orders, eq(orders.number, invoices.orderNumber))
    .where(
      and(
        eq(invoices.kind, 'I'),
        eq(invoices.status, 'issued'),
        isNull(invoices.cancelStatus),
        eq(orders.status, 'cancelled'),
      ),
    );
  for (const { invoice, order } of candidates) {
    if (!saleUndone(order) || !invoice.uuid) continue;
    const alert = (outcome: string, message: string) =>
      ctx.db.transaction((tx) =>
        raisePaymentAlert(tx, {
          orderNumber: order.number,
          kind: 'invoice_motivo_03',
          message,
          chargeId: null,
          dedupeKey: `invoice-03:${invoice.uuid}:${outcome}`,
        }),
      );
    const [owner] = await ctx.db
      .select({
        id: users.id,
        email: users.email,
        nombre: users.nombre,
        apellidoPat: users.apellidoPat,
        apellidoMat: users.apellidoMat,
        telefono: users.telefono,
      })
      .from(users)
      .where(eq(users.id, order.userId));
    if (!owner) continue;
    try {
      const answer = await cancelInvoice(ctx, { ...owner, role: 'customer' }, order.number, {
        motivo: '03',
        by: 'staff',
      });
      const state = answer.invoice.cancellation;
      if (state === 'pending') {
        counts.pending++;
        await alert(
          'pending',
          `La venta no se llevó a cabo (pedido cancelado y reembolsado): se solicitó al SAT la cancelación de la factura ${invoice.uuid} con motivo 03; está en proceso hasta que el receptor la acepte.`,
        );
      } else if (state === 'rejected') {
        counts.refused++;
        await alert(
          'rejected',
          `El receptor rechazó la cancelación con motivo 03 de la factura ${invoice.uuid}: emita una nota de crédito por el total.`,
        );
      } else {
        counts.cancelled++;
        await alert(
          'cancelled',
          `La venta no se llevó a cabo (pedido cancelado y reembolsado): la factura ${invoice.uuid} se canceló ante el SAT con motivo 03.`,
        );
      }
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 409) {
        // The SAT's deadline passed (or a cancellation is already under way): a credit note instead.
        counts.refused++;
        await alert(
          'refused',
          `No se puede cancelar la factura ${invoice.uuid} con motivo 03: ${error.message}. Emita una nota de crédito por el total.`,
        );
        continue;
      }
      ctx.log?.error(
        {
          order: order.number,
          uuid: invoice.uuid,
          detail: error instanceof PacError ? error.detail : String(error),
        },
        'no se pudo cancelar con motivo 03 la factura de una venta que no se llevó a cabo; se reintenta',
      );
    }
  }
  return counts;
}

export const CREDIT_NOTE_PRODUCT_KEY = '84111506';
export const CREDIT_NOTE_UNIT_KEY = 'ACT';

export const CREDIT_NOTE_RECOVERED =
  'Recuperamos la nota de crédito que el PAC ya había timbrado para este pedido (una solicitud anterior se interrumpió); no se emitió otra. Revise el saldo y, si hace falta, emita la siguiente.';

type CreditNoteResult = { uuid: string; totalCents: number; remainingCents: number; recovered: boolean };

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
async function recoverStaleCreditNotes(
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
    const [row] = await tx
      .insert(invoices)
      .values({
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
    return { id: row!.id, invoice: { ...invoice, uuid: invoice.uuid }, receptor, amounts, remainingCents };
  });
  const { id, invoice, receptor, amounts, remainingCents } = claimed;
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
        serie: 'NC',
        folio: String(id),
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
    await ctx.db.delete(invoices).where(and(eq(invoices.id, id), eq(invoices.status, 'pending')));
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
        serieFolio: `NC${r.id}`,
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

/** One stamped credit note of the order by its UUID (admin downloads). */
async function creditNoteOf(ctx: InvoicingContext, number: number, uuid: string) {
  const [row] = await ctx.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderNumber, number), eq(invoices.kind, 'E'), eq(invoices.uuid, uuid)));
  if (!row?.xml || !row.snapshot || !row.uuid) throw notFound('Nota de crédito no encontrada');
  return { ...row, xml: row.xml, snapshot: row.snapshot, uuid: row.uuid };
}

export async function getCreditNoteXml(ctx: InvoicingContext, number: number, uuid: string) {
  const row = await creditNoteOf(ctx, number, uuid);
  return {
    xml: row.xml,
    filename: `${fileBaseOf(row.snapshot, row.uuid)}.xml`,
  };
}

export async function getCreditNotePdf(ctx: InvoicingContext, number: number, uuid: string) {
  const row = await creditNoteOf(ctx, number, uuid);
  const pdf = await renderInvoicePdf({
    orderNumber: number,
    uuid: row.uuid,
    status: row.status === 'cancelled' ? 'cancelled' : 'issued',
    test: row.test,
    cancelledAt: row.cancelledAt,
    cancelMotivo: row.cancelMotivo,
    snapshot: row.snapshot,
  });
  return {
    pdf,
    filename: `${fileBaseOf(row.snapshot, row.uuid)}.pdf`,
  };
}

/** A credit note's XML for the shopper who owns the order (another shopper's order answers 404, as a missing one). */
export async function getOwnCreditNoteXml(
  ctx: InvoicingContext,
  user: SessionUser,
  number: number,
  uuid: string,
) {
  await ownOrder(ctx.db, user.id, number);
  return getCreditNoteXml(ctx, number, uuid);
}

/** A credit note's PDF for the shopper who owns the order. */
export async function getOwnCreditNotePdf(
  ctx: InvoicingContext,
  user: SessionUser,
  number: number,
  uuid: string,
) {
  await ownOrder(ctx.db, user.id, number);
  return getCreditNotePdf(ctx, number, uuid);
}

/**
 * No valid invoice to cancel: a repeated 'Sí, cancelar factura' (double click, retry after a lost answer, a
 * concurrent request that won) answers with the state reached, as a success; an order never invoiced, or
 * invoiced anew meanwhile (a pending one), is still refused.
 */
async function alreadyCancelled(ctx: InvoicingContext, order: OrderRow) {
  const rows = await invoicesOf(ctx.db, order.number);
  const latest = rows.find((r) => r.kind === 'I');
  if (latest?.status !== 'cancelled') throw conflict(NO_ACTIVE_INVOICE, 'no_active_invoice');
  return { message: INVOICE_CANCELLED, invoice: stateOf(order, rows, ctx.now()) };
}

/** The invoice whose files the downloads serve: the active one, else the latest cancelled one. */
async function downloadable(ctx: InvoicingContext, user: SessionUser, number: number) {
  await ownOrder(ctx.db, user.id, number);
  const rows = (await invoicesOf(ctx.db, number)).filter((r) => r.kind === 'I');
  const row = rows.find((r) => r.status === 'issued') ?? rows.find((r) => r.status === 'cancelled');
  if (!row?.xml || !row.snapshot || !row.uuid) throw notFound(NO_INVOICE);
  return { ...row, xml: row.xml, snapshot: row.snapshot, uuid: row.uuid };
}

export async function getInvoiceXml(ctx: InvoicingContext, user: SessionUser, number: number) {
  const row = await downloadable(ctx, user, number);
  return { xml: row.xml, filename: `${fileBaseOf(row.snapshot, row.uuid)}.xml` };
}

export async function getInvoicePdf(ctx: InvoicingContext, user: SessionUser, number: number) {
  const row = await downloadable(ctx, user, number);
  const pdf = await renderInvoicePdf({
    orderNumber: number,
    uuid: row.uuid,
    status: row.status === 'cancelled' ? 'cancelled' : 'issued',
    test: row.test,
    cancelledAt: row.cancelledAt,
    cancelMotivo: row.cancelMotivo,
    snapshot: row.snapshot,
  });
  return { pdf, filename: `${fileBaseOf(row.snapshot, row.uuid)}.pdf` };
}
