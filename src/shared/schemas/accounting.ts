import { z } from 'zod';
import { agingSchema } from './credit.ts';

/**
 * The accountant's month (issue 36, decision 066): the contract between src/server/accounting and the
 * «Contabilidad» screen. A period is a calendar month or a range of days, both in Mexico City; a document belongs
 * to the period of its stamp (fecha de timbrado).
 */

export const CFDI_TYPES = ['ingreso', 'egreso', 'pago', 'global'] as const;
export type CfdiType = (typeof CFDI_TYPES)[number];
export const CFDI_TYPE_LABELS: Record<CfdiType, string> = {
  ingreso: 'Ingreso (facturas)',
  egreso: 'Egreso (notas de crédito)',
  pago: 'Pago (complemento de pagos)',
  global: 'Factura global',
};

/** The longest range one download or report covers. */
export const MAX_PERIOD_DAYS = 366;

const ymd = /^\d{4}-\d{2}-\d{2}$/;
const validDay = (s: string) => {
  if (!ymd.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};

/** ?month=2026-10, or ?from=2026-10-01&to=2026-10-31 (both days included); ?types=ingreso,egreso (default all). */
export const periodQuerySchema = z
  .object({
    month: z
      .string()
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'El mes debe escribirse como AAAA-MM, por ejemplo 2026-10')
      .optional(),
    from: z.string().refine(validDay, 'La fecha inicial debe ser una fecha válida AAAA-MM-DD').optional(),
    to: z.string().refine(validDay, 'La fecha final debe ser una fecha válida AAAA-MM-DD').optional(),
    types: z
      .string()
      .max(60)
      .optional()
      .transform((value, ctx) => {
        if (!value) return [...CFDI_TYPES];
        const list = [...new Set(value.split(',').map((v) => v.trim()))];
        const unknown = list.filter((v) => !(CFDI_TYPES as readonly string[]).includes(v));
        if (unknown.length > 0 || list.length === 0) {
          ctx.addIssue({
            code: 'custom',
            message: `Tipo de CFDI desconocido: ${unknown.join(', ') || '(vacío)'}; use ingreso, egreso, pago o global`,
          });
          return z.NEVER;
        }
        return list as CfdiType[];
      }),
  })
  .superRefine((q, ctx) => {
    if (q.month && (q.from || q.to)) {
      ctx.addIssue({
        code: 'custom',
        message: 'Indique un mes o un rango de fechas, no ambos',
        path: ['month'],
      });
    } else if (!q.month && !(q.from && q.to)) {
      ctx.addIssue({
        code: 'custom',
        message: 'Indique el mes (AAAA-MM) o las fechas inicial y final del periodo',
        path: ['month'],
      });
    } else if (q.from && q.to) {
      const days = (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 + 1;
      if (days < 1)
        ctx.addIssue({ code: 'custom', message: 'La fecha final es anterior a la inicial', path: ['to'] });
      else if (days > MAX_PERIOD_DAYS)
        ctx.addIssue({
          code: 'custom',
          message: `El periodo admite hasta ${MAX_PERIOD_DAYS} días; descargue por partes`,
          path: ['to'],
        });
    }
  });
export type PeriodQuery = z.infer<typeof periodQuerySchema>;

/** What the shop knows of a CFDI at the SAT: valid, cancelled, or a cancellation the receptor has yet to answer. */
export const SAT_STATES = ['vigente', 'cancelado', 'en_proceso'] as const;
export type SatState = (typeof SAT_STATES)[number];
export const SAT_STATE_LABELS: Record<SatState, string> = {
  vigente: 'Vigente',
  cancelado: 'Cancelado',
  en_proceso: 'Cancelación en proceso',
};

export const cfdiReportRowSchema = z.object({
  type: z.enum(CFDI_TYPES),
  serieFolio: z.string(),
  uuid: z.string(),
  /** The stamp, ISO; `fechaLocal` is Mexico City's wall clock ('2026-10-31 23:59:00'). */
  fecha: z.string(),
  fechaLocal: z.string(),
  receptorRfc: z.string(),
  receptorNombre: z.string(),
  subtotalCents: z.number().int(),
  ivaCents: z.number().int(),
  totalCents: z.number().int(),
  formaPago: z.string(),
  metodoPago: z.string(),
  estadoSat: z.enum(SAT_STATES),
  /** CfdiRelacionados (01 nota de crédito, 04 sustitución) or, on a CFDI de pago, 'pago' and the invoices it pays. */
  relationType: z.string().nullable(),
  relatedUuids: z.array(z.string()),
  orders: z.array(z.number().int()),
});
export type CfdiReportRow = z.infer<typeof cfdiReportRowSchema>;

export const reconciliationRowSchema = z.object({
  orderNumber: z.number().int(),
  /** Live ingresos − live egresos of the order, from the CFDIs themselves (every period). */
  cfdiNetCents: z.number().int(),
  /** The ledger's invoiced − credited (src/server/orders/ledger.ts balances). */
  ledgerNetCents: z.number().int(),
  keptCents: z.number().int(),
  /** The ledger's taxDue: what the papers still owe the money (0 when every peso has its paper). */
  taxDueCents: z.number().int(),
  matches: z.boolean(),
});
export type ReconciliationRow = z.infer<typeof reconciliationRowSchema>;

export const accountingSummarySchema = z.object({
  period: z.object({ label: z.string(), from: z.string(), to: z.string() }),
  byType: z.array(
    z.object({
      type: z.enum(CFDI_TYPES),
      count: z.number().int(),
      cancelled: z.number().int(),
      subtotalCents: z.number().int(),
      ivaCents: z.number().int(),
      totalCents: z.number().int(),
    }),
  ),
  rows: z.array(cfdiReportRowSchema),
  globals: z.array(
    z.object({
      id: z.number().int(),
      period: z.string(),
      status: z.string(),
      statusLabel: z.string(),
      uuid: z.string().nullable(),
      totalCents: z.number().int(),
      orders: z.number().int(),
      issuedAt: z.string().nullable(),
    }),
  ),
  reconciliation: z.object({
    rows: z.array(reconciliationRowSchema),
    mismatches: z.number().int(),
  }),
  receivables: z.object({
    asOf: z.string(),
    institutions: z.number().int(),
    totals: agingSchema.extend({ balanceCents: z.number().int() }),
  }),
});
export type AccountingSummary = z.infer<typeof accountingSummarySchema>;
