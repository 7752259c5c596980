import { z } from 'zod';
import {
  RESTOCK_DISPOSITIONS,
  RETURN_DESCRIPTION_MAX,
  RETURN_PHOTO_MAX_COUNT,
  RETURN_REASONS,
  RETURN_STATES,
} from '../returns.ts';
import { refundViewSchema } from './refunds.ts';

/** Returns (RMA) as the buyer and staff read and ask for them (decision 062). */

export const returnReasonSchema = z.enum(RETURN_REASONS);
export const returnStateSchema = z.enum(RETURN_STATES);

const photoSchema = z.object({
  /** The picture, base64 (JPEG, PNG or WebP up to 5 MB, judged by its content). */
  contentBase64: z.string().min(1, 'La foto está vacía').max(7_000_000, 'La foto pesa más de 5 MB'),
});

export const returnRequestSchema = z.object({
  reason: returnReasonSchema,
  description: z
    .string()
    .trim()
    .min(10, 'Describa el motivo en al menos 10 caracteres')
    .max(RETURN_DESCRIPTION_MAX, `Describa el motivo en máximo ${RETURN_DESCRIPTION_MAX} caracteres`),
  lines: z
    .array(
      z.object({ lineNo: z.number().int().positive(), quantity: z.number().int().positive().max(10_000) }),
    )
    .min(1, 'Elija al menos un producto')
    .max(200),
  /** 'Ya no lo necesito': the buyer states it is unopened, in its original packaging. */
  unopened: z.boolean().default(false),
  photos: z
    .array(photoSchema)
    .max(RETURN_PHOTO_MAX_COUNT, `Máximo ${RETURN_PHOTO_MAX_COUNT} fotos`)
    .default([]),
});
export type ReturnRequest = z.infer<typeof returnRequestSchema>;

export const returnLineViewSchema = z.object({
  lineNo: z.number().int(),
  productCode: z.string(),
  description: z.string(),
  quantity: z.number().int(),
  unitPriceCents: z.number().int(),
  disposition: z.enum(RESTOCK_DISPOSITIONS).nullable(),
  mustQuarantine: z.boolean(),
});

export const returnViewSchema = z.object({
  id: z.number().int(),
  orderNumber: z.number().int(),
  state: returnStateSchema,
  stateLabel: z.string(),
  reason: returnReasonSchema,
  reasonLabel: z.string(),
  description: z.string(),
  lines: z.array(returnLineViewSchema),
  photos: z.array(z.object({ id: z.number().int(), url: z.string() })),
  /** Value of the lines at the order's prices (what is refunded). */
  valueCents: z.number().int(),
  instructions: z.string().nullable(),
  labelUrl: z.string().nullable(),
  staffNote: z.string().nullable(),
  refund: refundViewSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  buyerEmail: z.string().optional(),
});
export type ReturnView = z.infer<typeof returnViewSchema>;

export const returnableLineSchema = z.object({
  lineNo: z.number().int(),
  productCode: z.string(),
  description: z.string(),
  unitPriceCents: z.number().int(),
  /** Units bought, and units that can still be asked for (less those in other returns not refused). */
  quantity: z.number().int(),
  returnable: z.number().int(),
  reagent: z.boolean(),
  controlled: z.boolean(),
  backordered: z.boolean(),
});

export const orderReturnsSchema = z.object({
  orderNumber: z.number().int(),
  /** The delivery day and the last day to ask (Mexico City); null while not delivered. */
  deliveredOn: z.string().nullable(),
  windowEnds: z.string().nullable(),
  windowDays: z.number().int(),
  /** Why a new return cannot be asked now; null when it can. */
  closedBecause: z.string().nullable(),
  lines: z.array(returnableLineSchema),
  returns: z.array(returnViewSchema),
});
export type OrderReturns = z.infer<typeof orderReturnsSchema>;

export const returnIdParamsSchema = z.object({ id: z.coerce.number().int().positive() });
export const returnPhotoParamsSchema = z.object({
  id: z.coerce.number().int().positive(),
  photoId: z.coerce.number().int().positive(),
});

export const authorizeReturnSchema = z.object({
  instructions: z
    .string()
    .trim()
    .min(10, 'Escriba las instrucciones de envío (al menos 10 caracteres)')
    .max(2000),
  labelUrl: z
    .url('La guía debe ser un enlace https')
    .startsWith('https://', 'La guía debe ser un enlace https')
    .max(500)
    .optional(),
});
export const staffReasonSchema = z.object({
  reason: z.string().trim().min(5, 'Escriba el motivo (al menos 5 caracteres)').max(1000),
});
export const receiveReturnSchema = z.object({ note: z.string().trim().max(1000).optional() });
export const refundReturnSchema = z.object({
  lines: z
    .array(z.object({ lineNo: z.number().int().positive(), disposition: z.enum(RESTOCK_DISPOSITIONS) }))
    .min(1),
  note: z.string().trim().max(1000).optional(),
});

export const returnActionResponseSchema = z.object({ message: z.string(), return: returnViewSchema });
export const returnListSchema = z.object({ items: z.array(returnViewSchema) });
export const returnListQuerySchema = z.object({ state: returnStateSchema.optional() });
