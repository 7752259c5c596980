import { and, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { mexicoMonth, previousMexicoMonth } from '../../shared/mexico-time.ts';
import { PUBLICO_EN_GENERAL } from '../../shared/sat-catalogs.ts';
import { shop } from '../../shared/shop.ts';
import type { Db, Tx } from '../db/client.ts';
import { globalInvoiceOrders, globalInvoices, orderLedger } from '../db/schema.ts';
import { AppError, badRequest, conflict } from '../http/errors.ts';
import { balancesFrom, ledgerActor, recordMovement } from '../orders/ledger.ts';
import { lockOrder } from '../orders/lock.ts';
import { computeCfdiAmounts } from './amounts.ts';
import type { Relacionados } from './cfdi.ts';
import { buildComprobante, comprobanteXml, sealComprobante } from './cfdi.ts';
import type { InvoicingContext } from './context.ts';
import { formaPagoFor, paidWith } from './forma-pago.ts';
import { periodName } from './global-membership.ts';
import { PacError } from './pac/types.ts';

/**
 * The monthly CFDI global to the público en general (issue 21; decision 023 records the SAT's rules): the paid
 * sales of a calendar month (Mexico City time) that no individual CFDI covers, one Concepto per order
 * (ClaveProdServ 01010101, Cantidad 1, ClaveUnidad ACT, Descripcion 'Venta', NoIdentificacion = the order), to
 * RFC XAXX010101000 'PUBLICO EN GENERAL', régimen 616, uso S01, DomicilioFiscalReceptor = LugarExpedicion, with
 * InformacionGlobal Periodicidad 04 (mensual), Meses, Año; PUE; FormaPago of the largest amount received.
 * One per period (unique year + month); an order in at most one (unique order_number); never an order with an
 * individual CFDI (pending or issued), a cancelled, refunded, disputed or unpaid one.
 */

/** An order of a factura global and what of its sale the global states (what the shop kept: decision 056). */
export type Eligible = { number: number; amountCents: number };

/**
 * The month's orders the global CFDI may cover (locked when `lock`: the caller's transaction holds them), each for
 * what the shop kept of it — a sale partly given back before the global goes in for the rest, one wholly given back
 * not at all.
 */
async function eligibleOrders(db: Db | Tx, year: number, month: number, lock: boolean): Promise<Eligible[]> {
  const { start, end } = mexicoMonth(year, month);
  const { rows } = await db.execute<{ number: number; total_cents: number }>(sql`
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
  if (rows.length === 0) return [];
  const numbers = rows.map((r) => Number(r.number));
  const ledger = await db.select().from(orderLedger).where(inArray(orderLedger.orderNumber, numbers));
  return rows
    .map((r) => {
      const number = Number(r.number);
      const { givenBackCents } = balancesFrom(ledger.filter((m) => m.orderNumber === number));
      return { number, amountCents: Number(r.total_cents) - givenBackCents };
    })
    .filter((o) => o.amountCents > 0);
}

/** The orders a global states, with the amount it states for each (kept on its membership rows). */
export async function membersOf(db: Db | Tx, globalId: number, except?: number | null): Promise<Eligible[]> {
  const rows = await db
    .select({ number: globalInvoiceOrders.orderNumber, amountCents: globalInvoiceOrders.amountCents })
    .from(globalInvoiceOrders)
    .where(eq(globalInvoiceOrders.globalInvoiceId, globalId))
    .orderBy(globalInvoiceOrders.orderNumber);
  return rows.filter((r) => r.number !== except);
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
    .orderBy(desc(globalInvoices.year), desc(globalInvoices.month), desc(globalInvoices.id));
  return Promise.all(rows.map((r) => viewOf(db, r.id)));
}

export async function globalInvoiceXml(db: Db, id: number): Promise<{ xml: string; name: string } | null> {
  const [row] = await db.select().from(globalInvoices).where(eq(globalInvoices.id, id));
  if (!row?.xml || row.status === 'pending') return null;
  return {
    xml: row.xml,
    name: `factura-global-${row.year}-${String(row.month).padStart(2, '0')}-${row.uuid}.xml`,
  };
}

/** The FormaPago of the largest amount received among the orders (SAT's rule for the global CFDI). */
export async function predominantFormaPago(db: Db, list: Eligible[]): Promise<string> {
  const byForma = new Map<string, number>();
  for (const o of list) {
    const forma = formaPagoFor(await paidWith(db, o.number));
    byForma.set(forma, (byForma.get(forma) ?? 0) + o.amountCents);
  }
  return [...byForma.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
}

/** One Concepto per order (ClaveProdServ 01010101, Cantidad 1, ClaveUnidad ACT, 'Venta', NoIdentificacion). */
export function globalAmounts(list: Eligible[]) {
  return computeCfdiAmounts(
    list.map((o) => ({
      productKey: '01010101',
      unitKey: 'ACT',
      code: String(o.number),
      description: 'Venta',
      quantity: 1,
      unitPriceCents: o.amountCents,
    })),
  );
}

/** The SAT's window for a month's factura global: 72 hours after the period closes (RMF 2.7.1.21). */
export const globalDeadline = (year: number, month: number) =>
  new Date(mexicoMonth(year, month).end.getTime() + 72 * 3_600_000);

const mexicoLongDateTime = (d: Date) =>
  new Intl.DateTimeFormat('es-MX', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'America/Mexico_City',
  }).format(d);

/**
 * Issues the global CFDI of a closed month: claims the period and its orders in one transaction (orders locked and
 * re-checked, so an individual CFDI issued meanwhile keeps its order out), then seals, stamps through the PAC and
 * stores it. A refused or failed stamp releases the claim (the period may be tried again).
 */
export async function issueGlobalInvoice(
  ctx: InvoicingContext,
  period: { year: number; month: number },
  createdBy: 'staff' | 'job',
  options: { confirmLate?: boolean } = {},
): Promise<GlobalInvoiceView> {
  const { year, month } = period;
  if (!Number.isInteger(year) || !Number.isInteger(month) || month < 1 || month > 12 || year < 2022) {
    throw badRequest('Periodo inválido: indique el año y el mes (1 a 12)');
  }
  if (ctx.now().getTime() < mexicoMonth(year, month).end.getTime()) {
    throw conflict(`El mes de ${periodName(year, month)} aún no termina`, 'period_open');
  }
  const deadline = globalDeadline(year, month);
  if (ctx.now().getTime() > deadline.getTime() && !options.confirmLate) {
    throw conflict(
      `El plazo del SAT para emitir la factura global de ${periodName(year, month)} venció el ${mexicoLongDateTime(deadline)} (72 horas después del cierre del periodo, regla 2.7.1.21 de la RMF). Para emitirla de todos modos, confirme la emisión extemporánea; quedará registrada.`,
      'global_late',
    );
  }
  const id = await ctx.db.transaction(async (tx): Promise<number> => {
    const [existing] = await tx
      .select({ id: globalInvoices.id, status: globalInvoices.status, replacesId: globalInvoices.replacesId })
      .from(globalInvoices)
      .where(
        and(
          eq(globalInvoices.year, year),
          eq(globalInvoices.month, month),
          ne(globalInvoices.status, 'cancelled'),
        ),
      );
    // The period's first global left pending (the answer of the PAC lost, the process died): it is finished,
    // with the document sealed then, never claimed again.
    if (existing?.status === 'pending' && existing.replacesId === null) return existing.id;
    if (existing) {
      throw conflict(`Ya existe la factura global de ${periodName(year, month)}`, 'global_exists');
    }
    const list = await eligibleOrders(tx, year, month, true);
    if (list.length === 0) {
      throw conflict(`No hay ventas sin factura en ${periodName(year, month)}`, 'global_empty');
    }
    const formaPago = await predominantFormaPago(tx, list);
    const amounts = globalAmounts(list);
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
      .values(list.map((o) => ({ globalInvoiceId: id, orderNumber: o.number, amountCents: o.amountCents })));
    return id;
  });

  try {
    await stampGlobal(ctx, id);
  } catch (error) {
    // A PAC that refused the document (a definite answer, not transient) stamped nothing: the claim is released
    // and the period may be tried again. Any other failure may have happened after the PAC stamped (the answer
    // lost, the process or the database gone): the row keeps its sealed document, and the next request or the
    // monthly job sends that very document again, which the PAC answers with the same stamp (Pac.stamp).
    if (error instanceof GlobalStampError && !error.pac.transient) {
      await ctx.db
        .delete(globalInvoices)
        .where(and(eq(globalInvoices.id, id), eq(globalInvoices.status, 'pending')));
    }
    throw error;
  }
  return viewOf(ctx.db, id);
}

/** The PAC's answer to a global CFDI, as the shop's 502; `pac` tells a refusal from a transient failure. */
class GlobalStampError extends AppError {
  constructor(readonly pac: PacError) {
    super(502, 'pac_error', `El PAC no timbró la factura global: ${pac.message}`);
  }
}

/**
 * Seals the pending global CFDI once (kept on its row before the PAC is called, so a retry or a concurrent caller
 * sends this very document and the PAC answers the same stamp), stamps it and stores it as issued.
 */
export async function stampGlobal(ctx: InvoicingContext, id: number): Promise<void> {
  const [row] = await ctx.db.select().from(globalInvoices).where(eq(globalInvoices.id, id));
  if (row?.status !== 'pending') return;
  let sealedXml = row.sealed;
  if (!sealedXml) {
    const list = await membersOf(ctx.db, id);
    const mm = String(row.month).padStart(2, '0');
    const relation: Relacionados | undefined = row.relatedUuid
      ? { tipoRelacion: '04', uuids: [row.relatedUuid] }
      : undefined;
    const comprobante = buildComprobante({
      amounts: globalAmounts(list),
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
      formaPago: row.formaPago,
      serie: shop.invoicing.series.global,
      // A replacement of the period's global gets its own folio.
      folio: row.replacesId ? `${row.year}${mm}-${row.id}` : `${row.year}${mm}`,
      issuedAt: ctx.now(),
      csd: ctx.csd,
      informacionGlobal: { periodicidad: '04', meses: mm, anio: String(row.year) },
      ...(relation ? { cfdiRelacionados: relation } : {}),
    });
    const { comprobante: sealed } = sealComprobante(comprobante, ctx.csd);
    const kept = await ctx.db
      .update(globalInvoices)
      .set({ sealed: comprobanteXml(sealed) })
      .where(and(eq(globalInvoices.id, id), isNull(globalInvoices.sealed)))
      .returning({ sealed: globalInvoices.sealed });
    sealedXml =
      kept[0]?.sealed ??
      (
        await ctx.db
          .select({ sealed: globalInvoices.sealed })
          .from(globalInvoices)
          .where(eq(globalInvoices.id, id))
      )[0]?.sealed ??
      null;
    if (!sealedXml) return;
  }
  let stamp: Awaited<ReturnType<InvoicingContext['pac']['stamp']>>;
  try {
    stamp = await ctx.pac.stamp(sealedXml);
  } catch (error) {
    if (error instanceof PacError) {
      throw new GlobalStampError(error);
    }
    throw error;
  }
  await ctx.db.transaction(async (tx) => {
    const issued = await tx
      .update(globalInvoices)
      .set({ status: 'issued', uuid: stamp.uuid, xml: stamp.xml, test: stamp.test, issuedAt: sql`now()` })
      .where(and(eq(globalInvoices.id, id), eq(globalInvoices.status, 'pending')))
      .returning({ id: globalInvoices.id });
    if (issued.length > 0) await recordMembership(tx, id, 'global_in', stamp.uuid);
  });
}

/**
 * The ledger of each order of a global (decision 045): its sale counted in the global when stamped, taken out
 * when the global is cancelled (its other orders go into the replacement, counted again when it is stamped).
 * Orders are locked in number order, as the ledger's writers require.
 */
export async function recordMembership(
  tx: Tx,
  globalId: number,
  kind: 'global_in' | 'global_out',
  uuid: string,
) {
  for (const { number, amountCents } of await membersOf(tx, globalId)) {
    const order = await lockOrder(tx, number);
    if (!order) continue;
    await recordMovement(tx, number, ledgerActor({ kind: 'system' }), {
      kind,
      amountCents,
      reference: uuid,
      detail: { global: uuid },
    });
  }
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
  if (now.getTime() > globalDeadline(period.year, period.month).getTime()) return 'late';
  try {
    await issueGlobalInvoice(ctx, period, 'job');
    return 'issued';
  } catch (error) {
    if (error instanceof AppError && error.code === 'global_exists') return 'exists';
    if (error instanceof AppError && error.code === 'global_empty') return 'empty';
    throw error;
  }
}
