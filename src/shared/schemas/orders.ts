import { z } from 'zod';
import { cartLinesSchema } from './cart.ts';
import { addressSchema } from './common.ts';

/**
 * Orders API payloads: the contract between src/server/orders and src/client/{checkout,orders}.
 * Money is integer centavos with IVA included. The browser sends codes, quantities and the card
 * token only; every amount is the server's.
 */

/** SPEC-NOTES 6. */
export const ORDER_STATUS_LABELS = {
  pending_payment: 'Pago pendiente',
  paid: 'Pagado',
  preparing: 'En preparación',
  shipped: 'Enviado',
  delivered: 'Entregado',
  payment_failed: 'Pago rechazado',
  cancelled: 'Cancelado',
} as const;
export type OrderStatus = keyof typeof ORDER_STATUS_LABELS;
export const orderStatusSchema = z.enum(Object.keys(ORDER_STATUS_LABELS) as [OrderStatus, ...OrderStatus[]]);

/** The tracking guide of an order without one yet (spec §4: 'Sin asignar'). */
export const NO_GUIDE = 'Sin asignar';

/** Idempotency-Key header: what a browser's crypto.randomUUID() gives, or any similar opaque key. */
export const idempotencyKeySchema = z
  .string({ error: 'Falta el encabezado Idempotency-Key' })
  .regex(/^[A-Za-z0-9_:.-]{8,100}$/, 'El encabezado Idempotency-Key no es válido');

/**
 * The buyer's purchase-order number (orden de compra, issue 20): what their ERP or purchasing office gave them.
 * At most 40 characters (SAP's EBELN is 10, Oracle's PO numbers 20–30; institutional ones such as
 * 'OC-UDG-CUCEI-2026-000123/A' fit with room, and it prints on one line of the CFDI and quotation PDFs);
 * printable characters only: no control characters (tabs, line breaks, NUL) nor invisible format ones
 * (bidi overrides that could make it read differently on a printed document). Empty means none.
 */
export const PURCHASE_ORDER_MAX = 40;
export const purchaseOrderSchema = z
  .string({ error: 'El número de orden de compra debe ser texto' })
  .max(200, `El número de orden de compra admite hasta ${PURCHASE_ORDER_MAX} caracteres`)
  .refine((v) => !/\p{C}/u.test(v), 'El número de orden de compra contiene caracteres no válidos')
  .transform((v) => v.trim().replace(/ {2,}/g, ' '))
  .refine((v) => v.length <= PURCHASE_ORDER_MAX, {
    message: `El número de orden de compra admite hasta ${PURCHASE_ORDER_MAX} caracteres`,
  });

/** A quotation's folio: COT-YYYY-NNNNNN (issue 20). */
export const quotationFolioSchema = z
  .string({ error: 'El folio de la cotización no es válido' })
  .regex(/^COT-\d{4}-\d{6,}$/, 'El folio de la cotización no es válido');

/** POST /api/orders */
export const placeOrderSchema = z.object(
  {
    items: cartLinesSchema.refine((items) => items.length > 0, 'El carrito está vacío'),
    cardToken: z
      .string({ error: 'Faltan los datos de la tarjeta' })
      .regex(/^[A-Za-z0-9_-]{1,100}$/, 'Los datos de la tarjeta no son válidos'),
    deviceSessionId: z
      .string({ error: 'Falta el identificador del dispositivo' })
      .min(1, 'Falta el identificador del dispositivo')
      .max(255, 'El identificador del dispositivo no es válido'),
    /** Optional; required when the account says so (issue 20). */
    purchaseOrder: purchaseOrderSchema.optional(),
    /** Converting a quotation: the server sells at its prices and lines (the items must be its lines). */
    quotation: quotationFolioSchema.optional(),
    /** 'Facturar esta compra': one of the buyer's saved fiscal profiles; the CFDI is issued once paid. */
    invoiceProfileId: z
      .number({ error: 'Seleccione sus datos fiscales' })
      .int('Seleccione sus datos fiscales')
      .min(1, 'Seleccione sus datos fiscales')
      .max(2_147_483_647, 'Seleccione sus datos fiscales')
      .optional(),
  },
  { error: 'La solicitud debe ser un objeto JSON con los artículos y la tarjeta' },
);
export type PlaceOrder = z.infer<typeof placeOrderSchema>;

/** Paid: `{ number }`. 3-D Secure: also `redirectUrl`, where the browser must go to authenticate. */
export const placeOrderResponseSchema = z.object({
  number: z.number().int(),
  redirectUrl: z.string().optional(),
});
export type PlaceOrderResponse = z.infer<typeof placeOrderResponseSchema>;

export const invoiceStateSchema = z.enum(['none', 'issued', 'cancelled']);
export type InvoiceState = z.infer<typeof invoiceStateSchema>;

/** What the history's buttons depend on (spec §4, SPEC-NOTES 8 and 9). */
const actionsShape = {
  invoiceState: invoiceStateSchema,
  /** 'Solicitar factura'. */
  canInvoice: z.boolean(),
  /** 'Cancelar factura'. */
  canCancelInvoice: z.boolean(),
  /** 'Cancelar pedido'. */
  canCancel: z.boolean(),
};

export const orderSummarySchema = z.object({
  number: z.number().int(),
  /** ISO date-time of the purchase. */
  date: z.string(),
  status: orderStatusSchema,
  statusLabel: z.string(),
  trackingGuide: z.string(),
  totalCents: z.number().int(),
  ...actionsShape,
});
export type OrderSummary = z.infer<typeof orderSummarySchema>;

/** GET /api/orders: `message` is the server's text when there are no orders. */
export const orderListSchema = z.object({
  orders: z.array(orderSummarySchema),
  message: z.string().nullable(),
});
export type OrderList = z.infer<typeof orderListSchema>;

export const orderLineSchema = z.object({
  code: z.string(),
  description: z.string(),
  unitPriceCents: z.number().int(),
  quantity: z.number().int(),
  lineTotalCents: z.number().int(),
  imageUrl: z.string().nullable(),
});

/** GET /api/orders/:number — the confirmation page and the receipt (spec §3 order detail). */
export const orderDetailSchema = z.object({
  number: z.number().int(),
  date: z.string(),
  paidAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  status: orderStatusSchema,
  statusLabel: z.string(),
  address: addressSchema,
  billingName: z.string(),
  billingNumber: z.string(),
  trackingGuide: z.string(),
  /** YYYY-MM-DD, or null until shipped. */
  deliveryDate: z.string().nullable(),
  deliveryProvider: z.string().nullable(),
  lines: z.array(orderLineSchema),
  subtotalCents: z.number().int(),
  /** The shipping stored on the order when it was bought (SPEC-NOTES 4). */
  shippingCents: z.number().int(),
  ivaCents: z.number().int(),
  totalCents: z.number().int(),
  refundedCents: z.number().int(),
  /** The buyer's purchase-order number, if they gave one (issue 20). */
  purchaseOrder: z.string().nullable(),
  /** The folio of the quotation it was converted from. */
  quotationFolio: z.string().nullable(),
  ...actionsShape,
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;

/** POST /api/orders/:number/cancel */
export const cancelOrderResponseSchema = z.object({
  message: z.string(),
  order: orderDetailSchema,
});
export type CancelOrderResponse = z.infer<typeof cancelOrderResponseSchema>;
