import { eq, sql } from 'drizzle-orm';
import { PUBLICO_EN_GENERAL } from '../../shared/sat-catalogs.ts';
import { globalInvoiceOrders, globalInvoices } from '../db/schema.ts';
import { AppError, conflict } from '../http/errors.ts';
import type { InvoicingContext } from './context.ts';
import { globalAmounts, membersOf, predominantFormaPago, recordMembership, stampGlobal } from './global.ts';
import { PacError } from './pac/types.ts';

/**
 * An order in a factura global invoiced to its buyer, or a global left half-way: the motivo-04 cancellation of the
 * global and its re-issue without the order (decision 023). The issue of a month's global is global.ts.
 */

/**
 * An order in a global CFDI is invoiced to its buyer (SAT; decision 023): the global is cancelled with motivo 04
 * ('Operación nominativa relacionada en una factura global'), issued again for the period without that order
 * (CfdiRelacionados TipoRelacion 04 to the cancelled one), and only then may the nominative CFDI be issued.
 * Every step is conditional on the row's state, so a crash or a concurrent request resumes where it stopped:
 * 'issued' → 'cancelling' (intent, under the row's lock) → PAC cancel (repeatable) → 'cancelled' + replacement
 * 'pending' with the other orders (one transaction, one winner) → sealed once, stamped (idempotent) → 'issued'.
 * The caller checked the order may be invoiced and the SAT's cancellation deadline. Returns when the order is in
 * no valid global CFDI.
 */
export async function releaseFromGlobal(ctx: InvoicingContext, orderNumber: number): Promise<void> {
  for (let round = 0; round < 5; round++) {
    // A replacement left pending (crash, PAC down) by an earlier release of this order is finished first.
    const pending = await ctx.db.execute<{ id: number }>(sql`
      select r.id from global_invoices c join global_invoices r on r.replaces_id = c.id
      where c.released_order_number = ${orderNumber} and r.status = 'pending'`);
    for (const r of pending.rows) await stampGlobal(ctx, Number(r.id));
    const [member] = await ctx.db
      .select({
        id: globalInvoices.id,
        status: globalInvoices.status,
        year: globalInvoices.year,
        month: globalInvoices.month,
      })
      .from(globalInvoiceOrders)
      .innerJoin(globalInvoices, eq(globalInvoices.id, globalInvoiceOrders.globalInvoiceId))
      .where(eq(globalInvoiceOrders.orderNumber, orderNumber));
    if (!member) return;
    if (member.status === 'pending') {
      // Another order's release is re-issuing the period's global right now (or left it to finish).
      await stampGlobal(ctx, member.id);
      continue;
    }
    const g = await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(globalInvoices)
        .where(eq(globalInvoices.id, member.id))
        .for('update');
      if (row?.status !== 'issued') return row;
      const [marked] = await tx
        .update(globalInvoices)
        .set({ status: 'cancelling', cancelMotivo: '04', releasedOrderNumber: orderNumber })
        .where(eq(globalInvoices.id, row.id))
        .returning();
      return marked;
    });
    if (g?.status !== 'cancelling' || !g.uuid) continue;
    await cancelForRelease(ctx, g);
  }
  throw conflict(
    'La factura global que incluye este pedido se está volviendo a emitir; intente de nuevo en un momento',
    'global_in_progress',
  );
}

/**
 * Global CFDIs left half-way are finished by the invoices' periodic round, not only when someone asks again:
 * a release stopped between the motivo-04 cancellation and the replacement's stamp (until it is finished the
 * period's other sales are in no valid global CFDI), and a period's first global whose PAC answer was lost.
 * Each step is the same idempotent one the requests use; a PAC still down is asked again next round.
 * Answers how many were finished.
 */
export async function resumeGlobalInvoices(ctx: InvoicingContext): Promise<number> {
  const { rows } = await ctx.db.execute<{ released: number | null; id: number }>(sql`
    select c.released_order_number as released, c.id from global_invoices c
    where c.released_order_number is not null and (c.status = 'cancelling' or exists (
      select 1 from global_invoices r where r.replaces_id = c.id and r.status = 'pending'))
    union all
    select null, g.id from global_invoices g
    where g.status = 'pending' and g.replaces_id is null and g.sealed is not null`);
  let finished = 0;
  for (const row of rows) {
    try {
      if (row.released !== null) await releaseFromGlobal(ctx, Number(row.released));
      else await stampGlobal(ctx, Number(row.id));
      finished++;
    } catch (error) {
      ctx.log?.warn?.({ err: error, global: row.id }, 'factura global pendiente: se intentará de nuevo');
    }
  }
  return finished;
}

export const GLOBAL_CANCEL_PENDING =
  'Solicitamos al SAT la cancelación de la factura global que incluye este pedido (motivo 04); intente de nuevo en unos minutos.';

/** The PAC cancels the global (motivo 04); then, in one transaction, the replacement takes the other orders. */
async function cancelForRelease(ctx: InvoicingContext, g: typeof globalInvoices.$inferSelect): Promise<void> {
  let result: Awaited<ReturnType<InvoicingContext['pac']['cancel']>>;
  try {
    result = await ctx.pac.cancel({
      uuid: g.uuid!,
      issuerRfc: ctx.issuer.rfc,
      receiverRfc: PUBLICO_EN_GENERAL.rfc,
      totalCents: g.totalCents,
      motivo: '04',
      issuedAt: g.issuedAt ?? undefined,
    });
  } catch (error) {
    if (error instanceof PacError) {
      ctx.log?.error(
        { global: g.id, detail: error.detail },
        'el PAC no canceló la factura global (motivo 04)',
      );
      throw new AppError(502, 'pac_error', `No se pudo cancelar la factura global. ${error.message}`);
    }
    throw error;
  }
  if (result.status !== 'cancelled') throw conflict(GLOBAL_CANCEL_PENDING, 'global_cancel_pending');
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(globalInvoices).where(eq(globalInvoices.id, g.id)).for('update');
    if (row?.status !== 'cancelling') return;
    await tx
      .update(globalInvoices)
      .set({ status: 'cancelled', cancelledAt: ctx.now(), cancelAcknowledgement: result.acknowledgement })
      .where(eq(globalInvoices.id, g.id));
    if (row.uuid) await recordMembership(tx, g.id, 'global_out', row.uuid);
    // The others keep the amount the cancelled global stated for them: their egresos to it still count.
    const rest = await membersOf(tx, g.id, row.releasedOrderNumber);
    await tx.delete(globalInvoiceOrders).where(eq(globalInvoiceOrders.globalInvoiceId, g.id));
    if (rest.length === 0) return;
    const amounts = globalAmounts(rest);
    const [replacement] = await tx
      .insert(globalInvoices)
      .values({
        year: row.year,
        month: row.month,
        formaPago: await predominantFormaPago(tx, rest),
        subtotalCents: amounts.subtotalCents,
        ivaCents: amounts.ivaCents,
        totalCents: amounts.totalCents,
        createdBy: row.createdBy,
        replacesId: row.id,
        relatedUuid: row.uuid,
      })
      .returning({ id: globalInvoices.id });
    await tx.insert(globalInvoiceOrders).values(
      rest.map((o) => ({
        globalInvoiceId: replacement!.id,
        orderNumber: o.number,
        amountCents: o.amountCents,
      })),
    );
  });
}
