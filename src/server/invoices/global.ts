import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { globalInvoiceOrders, globalInvoices } from '../db/schema.ts';
import { AppError, badRequest, conflict } from '../http/errors.ts';
import { computeCfdiAmounts } from './amounts.ts';
import { buildComprobante, comprobanteXml, sealComprobante } from './cfdi.ts';
import { formaPagoFor, paidWith } from './forma-pago.ts';
import { periodName } from './global-membership.ts';
import { PacError } from './pac/types.ts';
import type { InvoicingContext } from './service.ts';

/**
 * The monthly CFDI global to the público en general (issue 21; decision 023 records the SAT's rules): the paid
 * sales of a calendar month (Mexico City time) that no individual CFDI covers, one Concepto per order
 * (ClaveProdServ 01010101, Cantidad 1, ClaveUnidad ACT, Descripcion 'Venta', NoIdentificacion = the order), to
 * RFC XAXX010101000 'PUBLICO EN GENERAL', régimen 616, uso S01, DomicilioFiscalReceptor = LugarExpedicion, with
 * InformacionGlobal Periodicidad 04 (mensual), Meses, Año; PUE; FormaPago of the largest amount received.
 * One per period (unique year + month); an order in at most one (unique order_number); never an order with an
 * individual CFDI (pending or issued), a cancelled, refunded, disputed or unpaid one.
 */

export const PUBLICO_EN_GENERAL = {
  rfc: 'XAXX010101000',
  nombre: 'PUBLICO EN GENERAL',
  regimenFiscal: '616',
  usoCfdi: 'S01',
} as const;

/** [start, end) of a calendar month in Mexico City time (UTC−6 all year since 2022). */
export function mexicoMonth(year: number, month: number): { start: Date; end: Date } {
  const mm = (m: number) => String(m).padStart(2, '0');
  const next = month === 12 ? { y: year + 1, m: 1 } : { y: year, m: month + 1 };
  return {
    start: new Date(`${year}-${mm(month)}-01T00:00:00-06:00`),
    end: new Date(`${next.y}-${mm(next.m)}-01T00:00:00-06:00`),
  };
}

/** The month before `now`'s month, in Mexico City time. */
export function previousMexicoMonth(now: Date): { year: number; month: number } {
  const local = new Date(now.getTime() - 6 * 3_600_000);
  const year = local.getUTCFullYear();
  const month = local.getUTCMonth() + 1;
  return month === 1 ? { year: year - 1, month: 12 } : { year, month: month - 1 };
}

type Eligible = { number: number; total_cents: number };

/** The month's orders the global CFDI may cover (locked when `lock`: the caller's transaction holds them). */
async function eligibleOrders(db: Db | Tx, year: number, month: number, lock: boolean): Promise<Eligible[]> {
  const { start, end } = mexicoMonth(year, month);
  const { rows } = await db.execute<Eligible>(sql`
    select o.number, o.total_cents::bigint as total_cents from orders o
    where o.paid_at >= ${start.toISOString()} and o.paid_at < ${end.toISOString()}
      and o.status in ('paid', 'preparing', 'shipped', 'delivered')
      and o.cancelled_at is null
      and coalesce(o.payment_state, 'paid') = 'paid'
      and not exists (select 1 from invoices i where i.order_number = o.number and i.kind = 'I'
                      and i.status <> 'cancelled')
      and not exists (select 1 from global_invoice_orders g where g.order_number = o.number)
    order by o.number
    ${lock ? sql`for update of o` : sql``}`);
  return rows.map((r) => ({ number: Number(r.number), total_cents: Number(r.total_cents) }));
}

export type GlobalInvoiceView = {
  id: number;
  year: number;
  month: number;
  period: string;
  status: string;
  uuid: string | null;
  test: boolean;
  formaPago: string;
  totalCents: number;
  orders: number[];
  issuedAt: string | null;
};

async function viewOf(db: Db, id: number): Promise<GlobalInvoiceView> {
  const [row] = await db.select().from(globalInvoices).where(eq(globalInvoices.id, id));
  const members = await db
    .select({ number: globalInvoiceOrders.orderNumber })
    .from(globalInvoiceOrders)
    .where(eq(globalInvoiceOrders.globalInvoiceId, id))
    .orderBy(globalInvoiceOrders.orderNumber);
  return {
    id: row!.id,
    year: row!.year,
    month: row!.month,
    period: periodName(row!.year, row!.month),
    status: row!.status,
    uuid: row!.uuid,
    test: row!.test,
    formaPago: row!.formaPago,
    totalCents: row!.totalCents,
    orders: members.map((m) => m.number),
    issuedAt: row!.issuedAt?.toISOString() ?? null,
  };
}

export async function listGlobalInvoices(db: Db): Promise<GlobalInvoiceView[]> {
  const rows = await db
    .select({ id: globalInvoices.id })
    .from(globalInvoices)
    .orderBy(desc(globalInvoices.year), desc(globalInvoices.month));
  return Promise.all(rows.map((r) => viewOf(db, r.id)));
}

export async function globalInvoiceXml(db: Db, id: number): Promise<{ xml: string; name: string } | null> {
  const [row] = await db.select().from(globalInvoices).where(eq(globalInvoices.id, id));
  if (!row?.xml || row.status !== 'issued') return null;
  return {
    xml: row.xml,
    name: `factura-global-${row.year}-${String(row.month).padStart(2, '0')}-${row.uuid}.xml`,
  };
}

/** The FormaPago of the largest amount received among the orders (SAT's rule for the global CFDI). */
async function predominantFormaPago(db: Db, list: Eligible[]): Promise<string> {
  const byForma = new Map<string, number>();
  for (const o of list) {
    const forma = formaPagoFor(await paidWith(db, o.number));
    byForma.set(forma, (byForma.get(forma) ?? 0) + o.total_cents);
  }
  return [...byForma.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
}

/**
 * Issues the global CFDI of a closed month: claims the period and its orders in one transaction (orders locked and
 * re-checked, so an individual CFDI issued meanwhile keeps its order out), then seals, stamps through the PAC and
 * stores it. A refused or failed stamp releases the claim (the period may be tried again).
 */
export async function issueGlobalInvoice(
  ctx: InvoicingContext,
  period: { year: number; month: number },
  createdBy: 'staff' | 'job',
): Promise<GlobalInvoiceView> {
  const { year, month } = period;
  if (!Number.isInteger(year) || !Number.isInteger(month) || month < 1 || month > 12 || year < 2022) {
    throw badRequest('Periodo inválido: indique el año y el mes (1 a 12)');
  }
  if (ctx.now().getTime() < mexicoMonth(year, month).end.getTime()) {
    throw conflict(`El mes de ${periodName(year, month)} aún no termina`, 'period_open');
  }
  const claim = await ctx.db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: globalInvoices.id })
      .from(globalInvoices)
      .where(and(eq(globalInvoices.year, year), eq(globalInvoices.month, month)));
    if (existing) {
      throw conflict(`Ya existe la factura global de ${periodName(year, month)}`, 'global_exists');
    }
    const list = await eligibleOrders(tx, year, month, true);
    if (list.length === 0) {
      throw conflict(`No hay ventas sin factura en ${periodName(year, month)}`, 'global_empty');
    }
    const formaPago = await predominantFormaPago(tx, list);
    const amounts = computeCfdiAmounts(
      list.map((o) => ({
        productKey: '01010101',
        unitKey: 'ACT',
        code: String(o.number),
        description: 'Venta',
        quantity: 1,
        unitPriceCents: o.total_cents,
      })),
    );
    const inserted = await tx
      .insert(globalInvoices)
      .values({
        year,
        month,
        formaPago,
        subtotalCents: amounts.subtotalCents,
        ivaCents: amounts.ivaCents,
        totalCents: amounts.totalCents,
        createdBy,
      })
      .onConflictDoNothing()
      .returning({ id: globalInvoices.id });
    if (inserted.length === 0) {
      throw conflict(`Ya existe la factura global de ${periodName(year, month)}`, 'global_exists');
    }
    const id = inserted[0]!.id;
    await tx
      .insert(globalInvoiceOrders)
      .values(list.map((o) => ({ globalInvoiceId: id, orderNumber: o.number })));
    return { id, amounts, formaPago };
  });

  const mm = String(month).padStart(2, '0');
  const comprobante = buildComprobante({
    amounts: claim.amounts,
    emisor: { rfc: ctx.issuer.rfc, nombre: ctx.issuer.nombre, regimenFiscal: ctx.issuer.regimenFiscal },
    lugarExpedicion: ctx.issuer.lugarExpedicion,
    receptor: {
      rfc: PUBLICO_EN_GENERAL.rfc,
      nombre: PUBLICO_EN_GENERAL.nombre,
      regimenFiscal: PUBLICO_EN_GENERAL.regimenFiscal,
      // SAT: the global CFDI's DomicilioFiscalReceptor is the LugarExpedicion.
      domicilioFiscal: ctx.issuer.lugarExpedicion,
      usoCfdi: PUBLICO_EN_GENERAL.usoCfdi,
    },
    formaPago: claim.formaPago,
    serie: 'G',
    folio: `${year}${mm}`,
    issuedAt: ctx.now(),
    csd: ctx.csd,
    informacionGlobal: { periodicidad: '04', meses: mm, anio: String(year) },
  });
  const { comprobante: sealed } = sealComprobante(comprobante, ctx.csd);
  let stamp: Awaited<ReturnType<InvoicingContext['pac']['stamp']>>;
  try {
    stamp = await ctx.pac.stamp(comprobanteXml(sealed));
  } catch (error) {
    await ctx.db.delete(globalInvoices).where(eq(globalInvoices.id, claim.id));
    if (error instanceof PacError) {
      throw new AppError(502, 'pac_error', `El PAC no timbró la factura global: ${error.message}`);
    }
    throw error;
  }
  await ctx.db
    .update(globalInvoices)
    .set({ status: 'issued', uuid: stamp.uuid, xml: stamp.xml, test: stamp.test, issuedAt: sql`now()` })
    .where(eq(globalInvoices.id, claim.id));
  return viewOf(ctx.db, claim.id);
}

/**
 * The monthly job: within the 72 hours after a month closes (RMF 2.7.1.21), the previous month's global CFDI is
 * issued if it does not exist yet. Answers what it did.
 */
export async function globalInvoiceJob(
  ctx: InvoicingContext,
): Promise<'issued' | 'exists' | 'empty' | 'late'> {
  const now = ctx.now();
  const period = previousMexicoMonth(now);
  const closed = mexicoMonth(period.year, period.month).end;
  if (now.getTime() - closed.getTime() > 72 * 3_600_000) return 'late';
  try {
    await issueGlobalInvoice(ctx, period, 'job');
    return 'issued';
  } catch (error) {
    if (error instanceof AppError && error.code === 'global_exists') return 'exists';
    if (error instanceof AppError && error.code === 'global_empty') return 'empty';
    throw error;
  }
}
