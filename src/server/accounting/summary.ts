import { asc, sql } from 'drizzle-orm';
import { periodName } from '../../shared/mexico-time.ts';
import { type AccountingSummary, CFDI_TYPES, type CfdiType } from '../../shared/schemas/accounting.ts';
import { receivables } from '../credit/receivables.ts';
import type { Db } from '../db/client.ts';
import { globalInvoiceOrders, globalInvoices } from '../db/schema.ts';
import { globalOfPeriod, periodDocuments } from './documents.ts';
import type { Period } from './period.ts';
import { reconcile } from './reconcile.ts';

/**
 * The «Contabilidad» screen's figures for a period (issue 36, decision 066): the CFDIs by type with their totals
 * (a cancelled document counted apart, not in the totals), every row of the report, the factura global of the
 * period's months and its status, the reconciliation to the ledger and the receivables' aging as of today.
 */

export const GLOBAL_STATUS_LABELS: Record<string, string> = {
  pending: 'Timbrando',
  issued: 'Vigente',
  cancelling: 'Cancelación en proceso',
  cancelled: 'Cancelada (sustituida)',
};

export async function accountingSummary(
  db: Db,
  period: Period,
  types: readonly CfdiType[],
  now = new Date(),
): Promise<AccountingSummary> {
  const rows = await periodDocuments(db, period, types);
  const byType = CFDI_TYPES.filter((t) => types.includes(t)).map((type) => {
    const mine = rows.filter((r) => r.type === type);
    const live = mine.filter((r) => r.estadoSat !== 'cancelado');
    return {
      type,
      count: mine.length,
      cancelled: mine.length - live.length,
      subtotalCents: live.reduce((s, r) => s + r.subtotalCents, 0),
      ivaCents: live.reduce((s, r) => s + r.ivaCents, 0),
      totalCents: live.reduce((s, r) => s + r.totalCents, 0),
    };
  });
  const globals = await db
    .select({
      id: globalInvoices.id,
      year: globalInvoices.year,
      month: globalInvoices.month,
      status: globalInvoices.status,
      uuid: globalInvoices.uuid,
      totalCents: globalInvoices.totalCents,
      issuedAt: globalInvoices.issuedAt,
      orders: sql<number>`(select count(*)::int from ${globalInvoiceOrders} where ${globalInvoiceOrders.globalInvoiceId} = ${globalInvoices.id})`,
    })
    .from(globalInvoices)
    .where(globalOfPeriod(period))
    .orderBy(asc(globalInvoices.year), asc(globalInvoices.month), asc(globalInvoices.id));
  const reconciliation = await reconcile(
    db,
    rows.filter((r) => r.type === 'ingreso' || r.type === 'egreso').flatMap((r) => r.orders),
  );
  const owed = await receivables(db, now);
  return {
    period: { label: period.label, from: period.from, to: period.to },
    byType,
    rows: rows.map(({ source: _source, id: _id, ...row }) => row),
    globals: globals.map((g) => ({
      id: g.id,
      period: periodName(g.year, g.month),
      status: g.status,
      statusLabel: GLOBAL_STATUS_LABELS[g.status] ?? g.status,
      uuid: g.uuid,
      totalCents: g.totalCents,
      orders: Number(g.orders),
      issuedAt: g.issuedAt?.toISOString() ?? null,
    })),
    reconciliation: { rows: reconciliation, mismatches: reconciliation.filter((r) => !r.matches).length },
    receivables: { asOf: owed.asOf, institutions: owed.rows.length, totals: owed.totals },
  };
}
