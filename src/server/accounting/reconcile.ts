import { and, inArray, isNotNull } from 'drizzle-orm';
import type { ReconciliationRow } from '../../shared/schemas/accounting.ts';
import type { Db } from '../db/client.ts';
import { globalInvoices, invoices, orderLedger } from '../db/schema.ts';
import { balancesFrom } from '../orders/ledger.ts';

/**
 * The report reconciled to the ledger (issue 36, decision 066): for every order with an ingreso or egreso in the
 * period, its live CFDIs — the issued invoice's total minus its issued credit notes, from the invoices table, every
 * period — against what its ledger says was invoiced and credited (balancesFrom: invoiced − credited), with what
 * the shop kept and the papers still owed (taxDue). A credit note to a factura global is the global's, not the
 * order invoice's, on both sides.
 */
export async function reconcile(db: Db, orderNumbers: readonly number[]): Promise<ReconciliationRow[]> {
  const numbers = [...new Set(orderNumbers)].sort((a, b) => a - b);
  if (numbers.length === 0) return [];
  const [papers, ledger, globals] = await Promise.all([
    db
      .select({
        orderNumber: invoices.orderNumber,
        kind: invoices.kind,
        status: invoices.status,
        totalCents: invoices.totalCents,
        relatedUuid: invoices.relatedUuid,
      })
      .from(invoices)
      .where(and(inArray(invoices.orderNumber, numbers), isNotNull(invoices.uuid))),
    db.select().from(orderLedger).where(inArray(orderLedger.orderNumber, numbers)),
    db.select({ uuid: globalInvoices.uuid }).from(globalInvoices).where(isNotNull(globalInvoices.uuid)),
  ]);
  const globalUuids = new Set(globals.map((g) => g.uuid));
  return numbers.map((orderNumber) => {
    const live = papers.filter((p) => p.orderNumber === orderNumber && p.status === 'issued');
    const cfdiNetCents =
      live.filter((p) => p.kind === 'I').reduce((s, p) => s + p.totalCents, 0) -
      live
        .filter((p) => p.kind === 'E' && !(p.relatedUuid && globalUuids.has(p.relatedUuid)))
        .reduce((s, p) => s + p.totalCents, 0);
    const b = balancesFrom(ledger.filter((m) => m.orderNumber === orderNumber));
    const ledgerNetCents = b.invoicedCents - b.creditedCents;
    return {
      orderNumber,
      cfdiNetCents,
      ledgerNetCents,
      keptCents: b.keptCents,
      taxDueCents: b.taxDueCents,
      matches: cfdiNetCents === ledgerNetCents,
    };
  });
}
