import { z } from 'zod';
import { orderPaymentMethodSchema } from '../cart.ts';
import { addressSchema } from '../common.ts';
import { backorderShape, invoiceStateSchema, orderStatusSchema } from '../orders.ts';
import { orderBalancesSchema, refundViewSchema } from '../refunds.ts';
import { deliveryViewSchema } from '../shipments.ts';
import { isoDay, page, pageInfoSchema, REQUIRED } from './common.ts';

/** Orders in the back office. Part of the back-office API contract (../admin.ts). */
/** GET /api/admin/orders */
export const adminOrdersQuerySchema = z.object({
  status: orderStatusSchema.optional().or(z.literal('').transform(() => undefined)),
  /** YYYY-MM-DD, Mexico City day (inclusive). */
  from: isoDay('Fecha inicial inválida')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  to: isoDay('Fecha final inválida')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** An order number, an e-mail (or part of one) or an RFC. */
  q: z.string().trim().max(100, 'La búsqueda es demasiado larga').optional(),
  page,
});
export type AdminOrdersQuery = z.input<typeof adminOrdersQuerySchema>;

export const adminOrderSummarySchema = z.object({
  number: z.number().int(),
  date: z.string(),
  status: orderStatusSchema,
  statusLabel: z.string(),
  customerName: z.string(),
  email: z.string(),
  totalCents: z.number().int(),
  trackingGuide: z.string(),
  invoiceState: invoiceStateSchema,
  rfc: z.string().nullable(),
});
export type AdminOrderSummary = z.infer<typeof adminOrderSummarySchema>;

export const adminOrderListSchema = z.object({ items: z.array(adminOrderSummarySchema), ...pageInfoSchema });
export type AdminOrderList = z.infer<typeof adminOrderListSchema>;

export const auditEntrySchema = z.object({
  id: z.number().int(),
  actor: z.string(),
  action: z.string(),
  actionLabel: z.string(),
  entityType: z.string(),
  entityId: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const adminOrderDetailSchema = adminOrderSummarySchema.extend({
  userId: z.number().int(),
  phone: z.string(),
  paidAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  cancelReason: z.string().nullable(),
  shippedAt: z.string().nullable(),
  deliveryProvider: z.string().nullable(),
  deliveryDate: z.string().nullable(),
  address: addressSchema,
  /** The buyer's purchase-order number and the quotation the order came from (issue 20). */
  purchaseOrder: z.string().nullable(),
  quotationFolio: z.string().nullable(),
  /** Issue 35: the delivery method, the shipments and each line's progress. */
  delivery: deliveryViewSchema,
  lines: z.array(
    z.object({
      code: z.string(),
      description: z.string(),
      unitPriceCents: z.number().int(),
      quantity: z.number().int(),
      lineTotalCents: z.number().int(),
      ...backorderShape,
    }),
  ),
  /** YYYY-MM-DD: by when what was in stock ships (decision 029); null for orders placed before. */
  shipNowBy: z.string().nullable(),
  subtotalCents: z.number().int(),
  shippingCents: z.number().int(),
  ivaCents: z.number().int(),
  refundedCents: z.number().int(),
  /** How the buyer paid: a cancellation or a partial refund gives the money back the same way (decision 045). */
  paymentMethod: orderPaymentMethodSchema,
  payments: z.array(
    z.object({
      gateway: z.string(),
      chargeId: z.string().nullable(),
      status: z.string(),
      amountCents: z.number().int(),
      refundedCents: z.number().int(),
      createdAt: z.string(),
    }),
  ),
  /** The order's refunds and its ledger's balances (decision 045). */
  refunds: z.array(refundViewSchema),
  balances: orderBalancesSchema,
  /** Where the money stands after the payment (refunds, chargebacks): null until paid (issue 14). */
  paymentState: z.enum(['paid', 'partially_refunded', 'refunded', 'in_dispute', 'lost']).nullable(),
  /** What staff must look at about the money (a refund in Openpay's dashboard, a chargeback, a foreign charge). */
  paymentAlerts: z.array(z.object({ kind: z.string(), message: z.string(), createdAt: z.string() })),
  /** What staff may do now. */
  actions: z.object({
    prepare: z.boolean(),
    ship: z.boolean(),
    deliver: z.boolean(),
    cancel: z.boolean(),
    /** Why 'Cancelar con reembolso' is not offered, when it is not. */
    cancelBlockedReason: z.string().nullable(),
  }),
  history: z.array(auditEntrySchema),
  /** The end-use declaration of an order with controlled chemicals (decision 030); null for the others. */
  controlledDeclaration: z
    .object({
      products: z.array(z.object({ code: z.string(), name: z.string(), quantity: z.number().int() })),
      rfc: z.string(),
      razonSocial: z.string(),
      declaredUse: z.string(),
      textVersion: z.string(),
      acceptedText: z.string(),
      acceptedAt: z.string(),
    })
    .nullable(),
});
export type AdminOrderDetail = z.infer<typeof adminOrderDetailSchema>;

export const TRACKING_GUIDE_PLACEHOLDER = 'Sin asignar';

/** POST /api/admin/orders/:number/ship */
export const shipOrderSchema = z.object({
  trackingGuide: z
    .string({ error: REQUIRED })
    .trim()
    .min(1, 'Escriba la guía de rastreo')
    .max(60, 'La guía admite hasta 60 caracteres')
    .regex(/^[A-Za-z0-9 ._/-]+$/, 'La guía solo admite letras, números, espacios y - . _ /')
    .refine(
      (v) => v.toLowerCase() !== TRACKING_GUIDE_PLACEHOLDER.toLowerCase(),
      'Escriba la guía de rastreo',
    ),
  deliveryProvider: z
    .string({ error: REQUIRED })
    .trim()
    .min(1, 'Escriba la paquetería')
    .max(60, 'La paquetería admite hasta 60 caracteres'),
  deliveryDate: isoDay('Escriba la fecha de entrega estimada'),
});
export type ShipOrderInput = z.input<typeof shipOrderSchema>;

/** POST /api/admin/orders/:number/cancel */
export const adminCancelOrderSchema = z.object({
  reason: z
    .string({ error: REQUIRED })
    .trim()
    .min(5, 'Escriba el motivo de la cancelación (al menos 5 caracteres)')
    .max(300, 'El motivo admite hasta 300 caracteres'),
});
export type ReleaseUnpaidOrderInput = z.input<typeof releaseUnpaidOrderSchema>;
export type AdminCancelOrderInput = z.input<typeof adminCancelOrderSchema>;

export const adminOrderActionResponseSchema = z.object({
  message: z.string(),
  order: adminOrderDetailSchema,
});

/** POST /api/admin/orders/:number/release: staff free an unpaid SPEI/store order's stock, saying why. */
export const releaseUnpaidOrderSchema = z.object({
  reason: z
    .string({ error: REQUIRED })
    .trim()
    .min(5, 'Escriba el motivo para liberar el pedido (al menos 5 caracteres)')
    .max(300, 'El motivo admite hasta 300 caracteres'),
});
