import { and, asc, desc, eq, inArray, lt } from 'drizzle-orm';
import type { InvoiceRequest, InvoiceState } from '../../shared/schemas/invoice.ts';
import { shop } from '../../shared/shop.ts';
import type { SessionUser } from '../auth/session.ts';
import type { AppConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { type InvoiceSnapshot, invoices, orderLines, orders, products } from '../db/schema.ts';
import { AppError, conflict, notFound } from '../http/errors.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { lockOrder } from '../orders/lock.ts';
import { type InvoiceBlock, invoiceBlock } from '../orders/rules.ts';
import { type ConceptSource, computeCfdiAmounts } from './amounts.ts';
import { buildComprobante, type Comprobante, comprobanteXml, sealComprobante } from './cfdi.ts';
import { type Csd, loadCsd, TEST_CSD } from './csd.ts';
import { invoiceCancelledMail, invoiceIssuedMail } from './mails.ts';
import { SandboxPac } from './pac/sandbox.ts';
import { SwSapienPac } from './pac/sw-sapien.ts';
import { readAttribute } from './pac/tfd.ts';
import { type Pac, PacError, type Stamp } from './pac/types.ts';
import { renderInvoicePdf } from './pdf.ts';

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
  log?: { error: (obj: object, msg: string) => void };
};

/** Builds the invoicing context from configuration; throws (at start) on a bad CSD. */
export function createInvoicingContext(
  config: AppConfig,
  db: Db,
  overrides: Partial<Pick<InvoicingContext, 'pac' | 'now' | 'log'>> = {},
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
          csd,
        })
      : new SandboxPac(csd));
  return {
    db,
    publicUrl: config.publicUrl,
    pac,
    csd,
    issuer,
    now: overrides.now ?? (() => new Date()),
    ...(overrides.log ? { log: overrides.log } : {}),
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
/** A 'pending' row older than this belongs to a request that died mid-way. */
const STALE_PENDING_MS = 2 * 60 * 1000;

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

function stateOf(order: OrderRow, rows: InvoiceRow[], now: Date): InvoiceState {
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
    canRequest: reason === null,
    blockedReason: reason,
    deadline: deadline?.toISOString() ?? null,
  };
}

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
  };
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
    formaPago: request.formaPago,
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
      // A pending row left by a request that died (crash, timeout) must not block the order forever.
      await tx
        .delete(invoices)
        .where(
          and(
            eq(invoices.orderNumber, order.number),
            eq(invoices.status, 'pending'),
            lt(invoices.createdAt, new Date(ctx.now().getTime() - STALE_PENDING_MS)),
          ),
        );
      const [active] = await tx
        .select({ status: invoices.status })
        .from(invoices)
        .where(and(eq(invoices.orderNumber, order.number), inArray(invoices.status, ['pending', 'issued'])))
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

const fileBaseOf = (snapshot: Pick<InvoiceSnapshot, 'serie' | 'folio'>, uuid: string) =>
  `factura-${snapshot.serie ?? ''}${snapshot.folio ?? ''}-${uuid}`;

/**
 * POST /api/orders/:number/invoice: checks the order (owner, paid, not cancelled, window, no active
 * invoice), builds and seals the CFDI, stamps it through the PAC, stores it and queues the mail with
 * the XML and the PDF. Nothing is stored when anything fails.
 */
export async function issueInvoice(
  ctx: InvoicingContext,
  user: SessionUser,
  number: number,
  request: InvoiceRequest,
): Promise<{ message: string; invoice: InvoiceState }> {
  const order = await ownOrder(ctx.db, user.id, number);
  const existing = await invoicesOf(ctx.db, number);
  const now = ctx.now();
  const reason = blockedReason(
    order,
    existing.find((r) => r.status === 'issued' || r.status === 'pending'),
    now,
  );
  if (reason) throw conflict(reason, 'invoice_not_allowed');

  const amounts = computeCfdiAmounts(await conceptSources(ctx.db, order));
  if (amounts.totalCents !== order.totalCents || amounts.concepts.length === 0) {
    ctx.log?.error(
      { order: order.number, cfdiTotal: amounts.totalCents, orderTotal: order.totalCents },
      'las partidas del pedido no suman su total',
    );
    throw new AppError(500, 'invoice_inconsistent', GENERATION_FAILED);
  }

  const id = await claimPending(ctx, order, user, request);
  try {
    const { comprobante } = sealComprobante(
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
        formaPago: request.formaPago,
        serie: shop.invoicing.series,
        folio: String(id),
        issuedAt: now,
        csd: ctx.csd,
      }),
      ctx.csd,
    );
    const stamp = await ctx.pac.stamp(comprobanteXml(comprobante));
    const snapshot = snapshotOf(comprobante, stamp);
    const pdf = await renderInvoicePdf({
      orderNumber: order.number,
      uuid: stamp.uuid,
      status: 'issued',
      test: stamp.test,
      cancelledAt: null,
      snapshot,
    });
    const issuedAt = ctx.now();
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(invoices)
        .set({
          status: 'issued',
          uuid: stamp.uuid,
          test: stamp.test,
          xml: stamp.xml,
          snapshot,
          subtotalCents: amounts.subtotalCents,
          ivaCents: amounts.ivaCents,
          totalCents: amounts.totalCents,
          issuedAt,
        })
        .where(eq(invoices.id, id));
      await enqueueMail(
        tx,
        invoiceIssuedMail(
          user,
          {
            orderNumber: order.number,
            uuid: stamp.uuid,
            rfc: request.rfc,
            nombreFiscal: snapshot.receptor.nombre,
            totalCents: amounts.totalCents,
            test: stamp.test,
            fileBase: fileBaseOf(snapshot, stamp.uuid),
            xml: stamp.xml,
            pdf,
          },
          ctx.publicUrl,
        ),
      );
    });
  } catch (error) {
    await ctx.db.delete(invoices).where(and(eq(invoices.id, id), eq(invoices.status, 'pending')));
    if (error instanceof PacError) {
      ctx.log?.error({ order: order.number, detail: error.detail }, 'el PAC no timbró la factura');
      throw new AppError(502, 'pac_error', `${GENERATION_FAILED}. ${error.message}`);
    }
    throw error;
  }
  return {
    message: `Factura generada correctamente. La enviamos a ${user.email} con el XML y el PDF.`,
    invoice: stateOf(order, await invoicesOf(ctx.db, number), ctx.now()),
  };
}

/** POST /api/orders/:number/invoice/cancel: cancels the active CFDI with motivo 02 through the PAC. */
export async function cancelInvoice(
  ctx: InvoicingContext,
  user: SessionUser,
  number: number,
): Promise<{ message: string; invoice: InvoiceState }> {
  const order = await ownOrder(ctx.db, user.id, number);
  const [active] = await ctx.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderNumber, number), eq(invoices.status, 'issued')))
    .limit(1);
  if (!active?.uuid) return alreadyCancelled(ctx, order);

  let result: Awaited<ReturnType<Pac['cancel']>>;
  try {
    result = await ctx.pac.cancel({
      uuid: active.uuid,
      issuerRfc: active.snapshot?.emisor.rfc ?? ctx.issuer.rfc,
      receiverRfc: active.rfc,
      totalCents: active.totalCents,
      motivo: '02',
    });
  } catch (error) {
    if (error instanceof PacError) {
      ctx.log?.error({ order: number, detail: error.detail }, 'el PAC no canceló la factura');
      throw new AppError(502, 'pac_error', `No se pudo cancelar la factura. ${error.message}`);
    }
    throw error;
  }
  const updated = await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .update(invoices)
      .set({
        status: 'cancelled',
        cancelledAt: ctx.now(),
        cancelMotivo: '02',
        cancelAcknowledgement: result.acknowledgement,
      })
      .where(and(eq(invoices.id, active.id), eq(invoices.status, 'issued')))
      .returning({ id: invoices.id });
    if (rows.length > 0) {
      await enqueueMail(
        tx,
        invoiceCancelledMail(user, { orderNumber: number, uuid: active.uuid! }, ctx.publicUrl),
      );
    }
    return rows.length;
  });
  if (updated === 0) return alreadyCancelled(ctx, order);
  return {
    message: INVOICE_CANCELLED,
    invoice: stateOf(order, await invoicesOf(ctx.db, number), ctx.now()),
  };
}

/**
 * No valid invoice to cancel: a repeated 'Sí, cancelar factura' (double click, retry after a lost answer, a
 * concurrent request that won) answers with the state reached, as a success; an order never invoiced, or
 * invoiced anew meanwhile (a pending one), is still refused.
 */
async function alreadyCancelled(ctx: InvoicingContext, order: OrderRow) {
  const rows = await invoicesOf(ctx.db, order.number);
  const latest = rows[0];
  if (latest?.status !== 'cancelled') throw conflict(NO_ACTIVE_INVOICE, 'no_active_invoice');
  return { message: INVOICE_CANCELLED, invoice: stateOf(order, rows, ctx.now()) };
}

/** The invoice whose files the downloads serve: the active one, else the latest cancelled one. */
async function downloadable(ctx: InvoicingContext, user: SessionUser, number: number) {
  await ownOrder(ctx.db, user.id, number);
  const rows = await invoicesOf(ctx.db, number);
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
    snapshot: row.snapshot,
  });
  return { pdf, filename: `${fileBaseOf(row.snapshot, row.uuid)}.pdf` };
}
