import { z } from 'zod';
import { parsePriceToCents } from '../money.ts';
import { clabeSchema } from './clabe.ts';

/**
 * Refunds as buyer and staff see them (decision 045): each with its real route (card through Openpay, payout or
 * transfer to a CLABE), its state and the sentence that says where the money goes.
 */
export const refundRouteSchema = z.enum(['card', 'payout', 'transfer']);
export const refundStateSchema = z.enum(['owed', 'in_progress', 'done', 'failed']);

export const refundViewSchema = z.object({
  id: z.number().int(),
  route: refundRouteSchema,
  state: refundStateSchema,
  amountCents: z.number().int(),
  /** The last 4 digits of the CLABE it is paid to; null when the buyer has not given one (or a card refund). */
  clabeLast4: z.string().nullable(),
  holderName: z.string().nullable(),
  reason: z.string(),
  /** Why the last payout attempt failed (staff read it). */
  errorMessage: z.string().nullable(),
  /** Openpay's refund or payout id, or the bank reference of a recorded transfer. */
  reference: z.string().nullable(),
  createdAt: z.string(),
  doneAt: z.string().nullable(),
  sentence: z.string(),
});
export type RefundView = z.infer<typeof refundViewSchema>;

/** The money of an order as its ledger adds it up (centavos). */
export const orderBalancesSchema = z.object({
  paidCents: z.number().int(),
  refundedCents: z.number().int(),
  refundDueCents: z.number().int(),
  keptCents: z.number().int(),
  invoicedCents: z.number().int(),
  creditedCents: z.number().int(),
});
export type OrderBalances = z.infer<typeof orderBalancesSchema>;

const REQUIRED = 'Este campo es obligatorio';

/** POST /api/admin/orders/:number/refunds: give back part of a paid order. */
export const partialRefundSchema = z.object({
  amountCents: z
    .number({ error: 'Escriba el importe a reembolsar' })
    .int('El importe debe estar en centavos')
    .positive('El importe debe ser mayor que cero')
    .max(100_000_000_00, 'El importe es demasiado grande'),
  reason: z
    .string({ error: REQUIRED })
    .trim()
    .min(5, 'Escriba el motivo del reembolso (al menos 5 caracteres)')
    .max(300, 'El motivo admite hasta 300 caracteres'),
});
export type PartialRefundInput = z.input<typeof partialRefundSchema>;
export type PartialRefund = z.output<typeof partialRefundSchema>;

/**
 * The partial refund as staff type it: the amount in pesos ('577', '1,234.50'), turned into exact centavos by the
 * shared price parser (no floating point), then held to the same rules as the API's body.
 */
export const partialRefundFormSchema = z
  .object({
    amount: z
      .string({ error: 'Escriba el importe a reembolsar' })
      .transform((text, ctx) => {
        const cents = parsePriceToCents(text);
        if (cents === null) {
          ctx.addIssue({ code: 'custom', message: 'Escriba el importe en pesos, por ejemplo 250.00' });
          return z.NEVER;
        }
        return cents;
      })
      .pipe(partialRefundSchema.shape.amountCents),
    reason: partialRefundSchema.shape.reason,
  })
  // The API's body: the same field names the server's schema parses again.
  .transform(({ amount, reason }): PartialRefund => ({ amountCents: amount, reason }));
export type PartialRefundFormInput = z.input<typeof partialRefundFormSchema>;

/** POST /api/admin/refunds/:id/transfer: a transfer made from the shop's bank, with its reference. */
export const refundTransferSchema = z.object({
  reference: z
    .string({ error: REQUIRED })
    .trim()
    .min(4, 'Escriba la referencia o clave de rastreo de la transferencia')
    .max(60, 'La referencia admite hasta 60 caracteres'),
});
export type RefundTransferInput = z.input<typeof refundTransferSchema>;

export const refundIdParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'Reembolso inválido' })
    .int('Reembolso inválido')
    .positive('Reembolso inválido'),
});

export const openRefundsResponseSchema = z.object({
  refunds: z.array(
    refundViewSchema.extend({
      orderNumber: z.number().int(),
      buyerEmail: z.string(),
      ageHours: z.number().int(),
    }),
  ),
});

/** The account an owed refund is paid to: the buyer's CLABE and the holder's name as the bank has it. */
export const refundAccountSchema = z.object({
  clabe: clabeSchema,
  holderName: z
    .string({ error: 'Escriba el nombre del titular de la cuenta' })
    .trim()
    .min(3, 'Escriba el nombre del titular de la cuenta')
    .max(120, 'El nombre del titular admite hasta 120 caracteres'),
});
export type RefundAccountInput = z.input<typeof refundAccountSchema>;
export type RefundAccount = z.output<typeof refundAccountSchema>;
