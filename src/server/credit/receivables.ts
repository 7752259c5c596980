import { isNotNull } from 'drizzle-orm';
import { AGING_BUCKETS } from '../../shared/credit.ts';
import type { Receivables } from '../../shared/schemas/credit.ts';
import type { Db } from '../db/client.ts';
import { institutions } from '../db/schema.ts';
import { csvFile } from '../http/csv.ts';
import { creditLineOf } from './line.ts';
import { agingOf, creditInvoicesOf, emptyAging } from './statement.ts';

/**
 * The staff's receivables view (cuentas por cobrar, decision 060): every institution with a credit line, what it
 * owes, whether it is on hold, the aging of its open invoices, and the totals; also as CSV for the accountant.
 */
export async function receivables(db: Db, asOf: Date): Promise<Receivables> {
  const list = await db
    .select()
    .from(institutions)
    .where(isNotNull(institutions.creditLimitCents))
    .orderBy(institutions.razonSocial);
  const rows: Receivables['rows'] = [];
  const totals = { ...emptyAging(), balanceCents: 0 };
  for (const inst of list) {
    const line = await creditLineOf(db, inst.id, asOf);
    if (!line) continue;
    const open = (await creditInvoicesOf(db, inst.id, asOf)).invoices.filter((i) => i.balanceCents > 0);
    const aging = agingOf(open);
    for (const { key } of AGING_BUCKETS) totals[key] += aging[key];
    totals.balanceCents += line.openCents;
    rows.push({
      institutionId: inst.id,
      razonSocial: inst.razonSocial,
      rfc: inst.rfc,
      limitCents: line.limitCents,
      days: line.days,
      balanceCents: line.openCents,
      onHold: line.onHold,
      aging,
      openInvoices: open.map(({ ageDays: _age, ...rest }) => rest),
    });
  }
  return { asOf: asOf.toISOString(), rows, totals };
}

const pesos = (cents: number) => (cents / 100).toFixed(2);

/** One line per open invoice (with its institution), then nothing else: what an accountant imports. */
export function receivablesCsv(r: Receivables): string {
  const header = [
    'Institución',
    'RFC',
    'Factura',
    'UUID',
    'Pedido',
    'Orden de compra',
    'Emitida',
    'Vence',
    'Días vencida',
    'Total',
    'Pagado',
    'Notas de crédito',
    'Saldo',
    'Suspendida',
  ];
  const lines: (string | number)[][] = [header];
  for (const row of r.rows) {
    for (const i of row.openInvoices) {
      lines.push([
        row.razonSocial,
        row.rfc,
        i.serieFolio,
        i.uuid,
        i.orderNumber,
        i.purchaseOrder ?? '',
        i.issuedAt.slice(0, 10),
        i.dueAt.slice(0, 10),
        i.daysPastDue,
        pesos(i.totalCents),
        pesos(i.paidCents),
        pesos(i.creditedCents),
        pesos(i.balanceCents),
        row.onHold ? 'sí' : 'no',
      ]);
    }
  }
  return csvFile(lines);
}
