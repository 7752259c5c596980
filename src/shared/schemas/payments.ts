import { z } from 'zod';
import { errorEnvelopeSchema } from './errors.ts';

/** GET /api/payments/config: what the card form needs to know (never a private key). */
export const paymentsConfigSchema = z.object({
  gateway: z.enum(['sandbox', 'openpay']),
  merchantId: z.string().optional(),
  publicKey: z.string().optional(),
  /** Openpay.js must talk to Openpay's sandbox. */
  sandboxMode: z.boolean().optional(),
});
export type PaymentsConfig = z.infer<typeof paymentsConfigSchema>;

const digits = (max: number, tooLong: string) =>
  z
    .string({ error: 'No deje vacío este campo' })
    .min(1, 'No deje vacío este campo')
    .regex(/^\d*$/, 'Escriba únicamente dígitos')
    .max(max, tooLong);

/** The card form (spec §5): digits only, number ≤ 16, month/year 2, CVC ≤ 4; all required; holder free text. */
export const cardFormSchema = z.object({
  holder_name: z
    .string({ error: 'No deje vacío este campo' })
    .trim()
    .min(1, 'No deje vacío este campo')
    .max(100, 'No escriba más de 100 letras'),
  card_number: digits(16, 'Sobre pasó el número máximo de dígitos'),
  expiration_month: digits(2, 'Escriba el mes con 2 dígitos'),
  expiration_year: digits(2, 'Escriba el año con 2 dígitos'),
  cvv2: digits(4, 'Sobre pasó el número máximo de dígitos'),
});
export type CardForm = z.infer<typeof cardFormSchema>;

/** POST /api/payments/sandbox/tokens answers `{ id }` (Openpay's token object, trimmed). */
export const sandboxTokenResponseSchema = z.object({
  id: z.string(),
  /** As Openpay's token: the card's masked number, brand and type (meses sin intereses need 'credit'). */
  card: z.object({ card_number: z.string(), brand: z.string(), type: z.enum(['credit', 'debit']) }),
});

/** Openpay's error object, which the simulator's tokenization endpoint answers with the shop's envelope. */
export const openpayErrorSchema = errorEnvelopeSchema.extend({
  category: z.string(),
  error_code: z.number().int(),
  description: z.string(),
  http_code: z.number().int(),
  request_id: z.string(),
});
