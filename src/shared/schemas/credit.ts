import { z } from 'zod';

/**
 * Buying on account (issue 34, decision 060): the payloads between src/server/credit and src/client/credit.
 * Money in integer centavos; every balance is the server's.
 */

const cents = (what: string) =>
  z
    .number({ error: `${what}: escriba el importe en centavos` })
    .int(`${what}: el importe debe ser en centavos enteros`)
    .min(1, `${what} debe ser mayor que cero`)
    .max(100_000_000_000, `${what} es demasiado grande`);

/** POST /api/admin/credit/payments: a transfer received, and the invoices PPD it pays (partial allowed). */
export const recordPaymentSchema = z.object(
  {
    institutionId: z
      .number({ error: 'Elija la institución' })
      .int('Elija la institución')
      .min(1, 'Elija la institución')
      .max(2_147_483_647, 'Elija la institución'),
    receivedOn: z
      .string({ error: 'Escriba la fecha en que llegó el pago' })
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'La fecha del pago debe ser AAAA-MM-DD')
      .refine((v) => {
        const day = new Date(`${v}T00:00:00Z`);
        return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === v && v >= '2020-01-01';
      }, 'La fecha del pago no es una fecha válida'),
    amountCents: cents('El importe del pago'),
    bankReference: z
      .string({ error: 'Escriba la referencia bancaria o la clave de rastreo SPEI' })
      .trim()
      .min(4, 'La referencia bancaria debe tener al menos 4 caracteres')
      .max(100, 'La referencia bancaria admite hasta 100 caracteres')
      .regex(/^[^|\p{C}]+$/u, 'La referencia bancaria contiene caracteres no válidos'),
    allocations: z
      .array(
        z.object({
          invoiceId: z
            .number({ error: 'Elija la factura' })
            .int('Elija la factura')
            .min(1, 'Elija la factura')
            .max(2_147_483_647, 'Elija la factura'),
          amountCents: cents('El importe aplicado'),
        }),
        { error: 'Indique a qué facturas se aplica el pago' },
      )
      .min(1, 'Indique a qué facturas se aplica el pago')
      .max(100, 'Un pago se aplica a lo más a 100 facturas'),
  },
  { error: 'La solicitud debe ser un objeto JSON con el pago' },
);
export type RecordPayment = z.infer<typeof recordPaymentSchema>;

export const agingSchema = z.object({
  d0_30: z.number().int(),
  d31_60: z.number().int(),
  d61_90: z.number().int(),
  d90_plus: z.number().int(),
});

export const statementInvoiceSchema = z.object({
  invoiceId: z.number().int(),
  orderNumber: z.number().int(),
  serieFolio: z.string(),
  uuid: z.string(),
  issuedAt: z.string(),
  dueAt: z.string(),
  totalCents: z.number().int(),
  paidCents: z.number().int(),
  creditedCents: z.number().int(),
  balanceCents: z.number().int(),
  daysPastDue: z.number().int(),
  purchaseOrder: z.string().nullable(),
});

export const statementPaymentSchema = z.object({
  id: z.number().int(),
  receivedOn: z.string(),
  amountCents: z.number().int(),
  bankReference: z.string(),
  cfdiStatus: z.enum(['pending', 'issued']),
  uuid: z.string().nullable(),
  serieFolio: z.string().nullable(),
  invoices: z.array(
    z.object({ serieFolio: z.string(), amountCents: z.number().int(), numParcialidad: z.number().int() }),
  ),
});

export const statementCreditNoteSchema = z.object({
  uuid: z.string(),
  serieFolio: z.string(),
  issuedAt: z.string(),
  totalCents: z.number().int(),
  relatedSerieFolio: z.string(),
});

/** GET /api/credit/statement (the institution) and GET /api/admin/credit/institutions/:id/statement (staff). */
export const statementSchema = z.object({
  institution: z.object({ id: z.number().int(), razonSocial: z.string(), rfc: z.string() }),
  asOf: z.string(),
  limitCents: z.number().int().nullable(),
  days: z.number().int().nullable(),
  balanceCents: z.number().int(),
  availableCents: z.number().int().nullable(),
  onHold: z.boolean(),
  holdReason: z.string().nullable(),
  aging: agingSchema,
  openInvoices: z.array(statementInvoiceSchema),
  payments: z.array(statementPaymentSchema),
  creditNotes: z.array(statementCreditNoteSchema),
});
export type Statement = z.infer<typeof statementSchema>;

/** GET /api/admin/credit/receivables: every institution with a credit line, its balance and aging. */
export const receivablesSchema = z.object({
  asOf: z.string(),
  rows: z.array(
    z.object({
      institutionId: z.number().int(),
      razonSocial: z.string(),
      rfc: z.string(),
      limitCents: z.number().int(),
      days: z.number().int(),
      balanceCents: z.number().int(),
      onHold: z.boolean(),
      aging: agingSchema,
      openInvoices: z.array(statementInvoiceSchema),
    }),
  ),
  totals: agingSchema.extend({ balanceCents: z.number().int() }),
});
export type Receivables = z.infer<typeof receivablesSchema>;

/** GET /api/credit/offer?totalCents=: what checkout shows for paying on credit (the server decides). */
export const creditOfferSchema = z.object({
  offered: z.boolean(),
  label: z.string().nullable(),
  reason: z.string().nullable(),
  availableCents: z.number().int().nullable(),
});
export type CreditOfferView = z.infer<typeof creditOfferSchema>;

/** PUT /api/admin/credit/institutions/:id/line: the limit and the terms staff grant (both, or both null). */
export const creditLineSchema = z
  .object(
    {
      limitCents: z
        .number({ error: 'Escriba el límite de crédito en centavos' })
        .int('El límite debe ser en centavos enteros')
        .min(0, 'El límite no puede ser negativo')
        .max(100_000_000_000, 'El límite es demasiado grande')
        .nullable(),
      days: z
        .number({ error: 'Escriba el plazo en días' })
        .int('El plazo debe ser un número entero de días')
        .min(1, 'El plazo debe ser de al menos un día')
        .max(180, 'El plazo admite hasta 180 días')
        .nullable(),
    },
    { error: 'La solicitud debe ser un objeto JSON con el límite y el plazo' },
  )
  .refine((v) => (v.limitCents === null) === (v.days === null), {
    message: 'Indique el límite y el plazo juntos (o ninguno, para retirar el crédito)',
    path: ['days'],
  });

export const institutionIdParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'Institución inválida' })
    .int('Institución inválida')
    .min(1, 'Institución inválida')
    .max(2_147_483_647, 'Institución inválida'),
});

export const paymentIdParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'Pago inválido' })
    .int('Pago inválido')
    .min(1, 'Pago inválido')
    .max(2_147_483_647, 'Pago inválido'),
});

export const creditOfferQuerySchema = z.object({
  totalCents: z.coerce
    .number({ error: 'Total inválido' })
    .int('Total inválido')
    .min(1, 'Total inválido')
    .max(100_000_000_000, 'Total inválido'),
});

export const recordPaymentResponseSchema = z.object({
  message: z.string(),
  paymentId: z.number().int(),
  cfdi: z.enum(['issued', 'already', 'busy', 'failed']),
});
