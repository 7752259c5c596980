import { z } from 'zod';
import { cartLinesSchema } from './cart.ts';
import { rfcField } from './invoice.ts';
import { purchaseOrderSchema, quotationFolioSchema } from './orders.ts';

/**
 * Quotations API payloads (issue 20): the contract between src/server/quotations and src/client/quotations.
 * Money is integer centavos with IVA included, as everywhere in the shop; every amount is the server's.
 */

export const QUOTATION_STATE_LABELS = {
  vigente: 'Vigente',
  vencida: 'Vencida',
  convertida: 'Convertida en pedido',
  cancelada: 'Cancelada',
} as const;
export type QuotationState = keyof typeof QUOTATION_STATE_LABELS;
export const quotationStateSchema = z.enum(
  Object.keys(QUOTATION_STATE_LABELS) as [QuotationState, ...QuotationState[]],
);

export { quotationFolioSchema };
export const quotationFolioParamsSchema = z.object({ folio: quotationFolioSchema });

const noControl = (v: string) => !/\p{C}/u.test(v);

/** POST /api/quotations: the cart's codes and quantities, and who the quotation is for (all optional). */
export const createQuotationSchema = z.object(
  {
    items: cartLinesSchema.refine((items) => items.length > 0, 'El carrito está vacío'),
    institution: z
      .string({ error: 'La institución debe ser texto' })
      .trim()
      .max(150, 'El nombre de la institución admite hasta 150 caracteres')
      .refine(noControl, 'El nombre de la institución contiene caracteres no válidos')
      .optional(),
    rfc: z.union([z.literal(''), rfcField]).optional(),
    purchaseOrder: purchaseOrderSchema.optional(),
  },
  { error: 'La solicitud debe ser un objeto JSON con los artículos' },
);
export type CreateQuotation = z.input<typeof createQuotationSchema>;

export const quotationLineSchema = z.object({
  code: z.string(),
  description: z.string(),
  /** The catalogue's list price of one unit. */
  listPriceCents: z.number().int(),
  /** The catalogue's price for this quantity (volume prices, decision 021). */
  volumePriceCents: z.number().int(),
  /** The price staff agreed (the volume price unless they set one), before the revision's percentage. */
  agreedPriceCents: z.number().int(),
  /** The quoted price: the agreed one less the percentage. */
  unitPriceCents: z.number().int(),
  quantity: z.number().int(),
  amountCents: z.number().int(),
  /** Controlled now (decision 030): converting it needs an RFC on file and the end-use declaration. */
  controlled: z.boolean(),
  /** 'Sobre pedido' now (decision 029): what is not in stock ships within this lead time, in business days. */
  leadTime: z.object({ minDays: z.number().int(), maxDays: z.number().int() }).nullable(),
  /** Units in stock now (what ships at once; the rest waits for the lead time). */
  stock: z.number().int(),
});

const actions = {
  /** 'Convertir en pedido': vigente and not converted. */
  canConvert: z.boolean(),
  /** 'Renovar': vencida (at today's prices). */
  canRenew: z.boolean(),
  /** 'Cancelar': vigente or vencida. */
  canCancel: z.boolean(),
};

export const quotationSummarySchema = z.object({
  folio: z.string(),
  revision: z.number().int(),
  /** ISO date-time of the first issue. */
  createdAt: z.string(),
  validUntil: z.string(),
  state: quotationStateSchema,
  stateLabel: z.string(),
  totalCents: z.number().int(),
  lineCount: z.number().int(),
  purchaseOrder: z.string().nullable(),
  orderNumber: z.number().int().nullable(),
  ...actions,
});
export type QuotationSummary = z.infer<typeof quotationSummarySchema>;

export const quotationListSchema = z.object({ quotations: z.array(quotationSummarySchema) });
export type QuotationList = z.infer<typeof quotationListSchema>;

export const quotationDetailSchema = quotationSummarySchema.extend({
  /** ISO date-time of this revision. */
  revisedAt: z.string(),
  buyerName: z.string(),
  institution: z.string(),
  rfc: z.string(),
  lines: z.array(quotationLineSchema),
  subtotalCents: z.number().int(),
  discountPercent: z.number(),
  /** listAmountCents − subtotalCents: the three parts below, together. */
  discountCents: z.number().int(),
  /** The lines at list price (decision 053: list, volume, agreed prices and percentage, each a true figure). */
  listAmountCents: z.number().int(),
  volumeDiscountCents: z.number().int(),
  /** The prices staff agreed below the volume prices (negative when above). */
  agreedDiscountCents: z.number().int(),
  /** discountPercent of the agreed amounts (per line, rounded to the centavo). */
  percentDiscountCents: z.number().int(),
  shippingCents: z.number().int(),
  ivaCents: z.number().int(),
  note: z.string(),
  /** Which ways of payment the total fits, when not all (decision 048): the page and the PDF print it. */
  paymentNote: z.string().nullable(),
});
export type QuotationDetail = z.infer<typeof quotationDetailSchema>;

/** GET /api/quotations/:folio/renewal: what 'Renovar' would change, shown before the buyer accepts. */
export const renewalPreviewSchema = z.object({
  folio: z.string(),
  currentTotalCents: z.number().int(),
  renewedTotalCents: z.number().int(),
  lines: z.array(
    z.object({
      code: z.string(),
      description: z.string(),
      quantity: z.number().int(),
      quotedUnitPriceCents: z.number().int(),
      todayUnitPriceCents: z.number().int(),
    }),
  ),
  /** In Spanish, what is lost and what is kept (the server's words: the page shows them as they are). */
  changes: z.array(z.string()),
});
export type RenewalPreview = z.infer<typeof renewalPreviewSchema>;

/** POST /api/quotations/:folio/convert: stock checked; what checkout sends back with the folio. */
export const convertQuotationResponseSchema = z.object({
  folio: z.string(),
  items: z.array(z.object({ code: z.string(), quantity: z.number().int() })),
  purchaseOrder: z.string().nullable(),
});
export type ConvertQuotationResponse = z.infer<typeof convertQuotationResponseSchema>;

// ---- Back office ----------------------------------------------------------------------------------

export const adminQuotationRowSchema = quotationSummarySchema.extend({
  customerName: z.string(),
  email: z.string(),
  institution: z.string(),
});
export type AdminQuotationRow = z.infer<typeof adminQuotationRowSchema>;

export const adminQuotationListSchema = z.object({
  items: z.array(adminQuotationRowSchema),
  /** Conversion rate: quotations converted / quotations issued (all time). */
  stats: z.object({ issued: z.number().int(), converted: z.number().int(), ratePercent: z.number() }),
});
export type AdminQuotationList = z.infer<typeof adminQuotationListSchema>;

export const adminQuotationDetailSchema = quotationDetailSchema.extend({
  email: z.string(),
  revisions: z.array(
    z.object({
      revision: z.number().int(),
      reason: z.string(),
      createdAt: z.string(),
      validUntil: z.string(),
      totalCents: z.number().int(),
      by: z.string(),
    }),
  ),
});
export type AdminQuotationDetail = z.infer<typeof adminQuotationDetailSchema>;

/** The answer to a revision: unchanged when it changed nothing (no revision written, no mail sent). */
export const revisedQuotationSchema = adminQuotationDetailSchema.extend({ unchanged: z.boolean() });
export type RevisedQuotation = z.infer<typeof revisedQuotationSchema>;

/** POST /api/admin/quotations/:folio/revise: new prices (per code), a discount on all lines and a note. */
export const reviseQuotationSchema = z.object(
  {
    prices: z
      .array(
        z.object({
          code: z.string().trim().min(1).max(64),
          unitPriceCents: z
            .number({ error: 'El precio debe ser un número entero de centavos' })
            .int('El precio debe ser un número entero de centavos')
            .min(1, 'El precio debe ser mayor que 0')
            .max(100_000_000_00, 'El precio es demasiado alto'),
        }),
      )
      .max(100)
      .optional(),
    discountPercent: z
      .number({ error: 'El descuento debe ser un número' })
      .min(0, 'El descuento no puede ser negativo')
      .max(90, 'El descuento no puede pasar de 90 %')
      .refine((v) => Math.round(v * 100) === v * 100, 'El descuento admite hasta dos decimales')
      .optional(),
    note: z
      .string()
      .trim()
      .max(1000, 'La nota admite hasta 1000 caracteres')
      .refine((v) => !/[\p{Cc}]/u.test(v.replace(/\n/g, '')), 'La nota contiene caracteres no válidos')
      .optional(),
  },
  { error: 'La solicitud debe ser un objeto JSON' },
);
export type ReviseQuotation = z.input<typeof reviseQuotationSchema>;

/** POST /api/admin/quotations/:folio/extend */
export const extendQuotationSchema = z.object({
  days: z
    .number({ error: 'Indique los días' })
    .int('Indique un número entero de días')
    .min(1, 'Extienda al menos 1 día')
    .max(90, 'Se puede extender hasta 90 días a la vez'),
});
