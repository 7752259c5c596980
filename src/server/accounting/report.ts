import { CFDI_TYPE_LABELS, type CfdiReportRow, SAT_STATE_LABELS } from '../../shared/schemas/accounting.ts';
import { csvFile } from '../http/csv.ts';
import { type XlsxCell, xlsxWorkbook } from '../http/xlsx.ts';
import { centsToDecimal } from '../invoices/amounts.ts';
import type { Period } from './period.ts';

/**
 * The period's CFDI report (issue 36, decision 066), one row per document, in CSV and in XLSX with the same
 * columns and values: what the accountant checks against the SAT's own list (UUID, fecha, receptor, amounts,
 * forma/método de pago, estado, relations) and reconciles per order (the Pedidos column).
 */

export const REPORT_HEADER = [
  'Tipo',
  'Serie y folio',
  'UUID',
  'Fecha (Ciudad de México)',
  'RFC receptor',
  'Receptor',
  'Subtotal',
  'IVA',
  'Total',
  'Forma de pago',
  'Método de pago',
  'Estado SAT',
  'Tipo de relación',
  'CFDI relacionados',
  'Pedidos',
] as const;

const WIDTHS = [26, 14, 38, 20, 15, 36, 14, 12, 14, 13, 14, 22, 16, 40, 14];

/** The cells of one row; money as pesos with two decimals, a number in the XLSX. */
function cells(r: CfdiReportRow): (string | { money: string })[] {
  return [
    CFDI_TYPE_LABELS[r.type],
    r.serieFolio,
    r.uuid,
    r.fechaLocal,
    r.receptorRfc,
    r.receptorNombre,
    { money: centsToDecimal(r.subtotalCents) },
    { money: centsToDecimal(r.ivaCents) },
    { money: centsToDecimal(r.totalCents) },
    r.formaPago,
    r.metodoPago,
    SAT_STATE_LABELS[r.estadoSat],
    r.relationType ?? '',
    r.relatedUuids.join(' '),
    r.orders.join(' '),
  ];
}

export const reportFileName = (period: Period, ext: 'csv' | 'xlsx') => `reporte-cfdi_${period.slug}.${ext}`;

export function reportCsv(rows: readonly CfdiReportRow[]): string {
  return csvFile([
    REPORT_HEADER,
    ...rows.map((r) => cells(r).map((c) => (typeof c === 'string' ? c : c.money))),
  ]);
}

export function reportXlsx(rows: readonly CfdiReportRow[], period: Period): Buffer {
  return xlsxWorkbook({
    name: `CFDI ${period.slug}`.slice(0, 31),
    header: REPORT_HEADER,
    rows: rows.map((r): XlsxCell[] => cells(r)),
    widths: WIDTHS,
  });
}
