import { z } from 'zod';
import { shop } from '../shop.ts';
import { cartLinesSchema, deliveryMethodSchema, orderPaymentMethodSchema } from './cart.ts';
import { addressIdSchema, addressSchema } from './common.ts';
import { controlledDeclarationSchema } from './controlled.ts';
import { refundViewSchema } from './refunds.ts';
import { deliveryViewSchema } from './shipments.ts';

/**
 * Orders API payloads: the contract between src/server/orders and src/client/{checkout,orders}.
 * Money is integer centavos with IVA included. The browser sends codes, quantities and the card
 * token only; every amount is the server's.
 */

/** SPEC-NOTES 6. */
export const ORDER_STATUS_LABELS = {
  pending_payment: 'Pago pendiente',
  paid: 'Pagado',
  on_credit: 'Confirmado a crédito',
  preparing: 'En preparación',
  /** Issue 35: some of the order's units left in a shipment, some are still to go (derived from its shipments). */
  partially_shipped: 'Enviado parcialmente',
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

/**
 * POST /api/orders. A card purchase sends the card token and device id (and optionally `msiMonths`); SPEI and
 * cash at a store send neither (the reference comes from the gateway once the order exists).
 */
export const placeOrderSchema = z
  .object(
    {
      items: cartLinesSchema.refine((items) => items.length > 0, 'El carrito está vacío'),
      paymentMethod: orderPaymentMethodSchema.optional(),
      cardToken: z
        .string({ error: 'Faltan los datos de la tarjeta' })
        .regex(/^[A-Za-z0-9_-]{1,100}$/, 'Los datos de la tarjeta no son válidos')
        .optional(),
      deviceSessionId: z
        .string({ error: 'Falta el identificador del dispositivo' })
        .min(1, 'Falta el identificador del dispositivo')
        .max(255, 'El identificador del dispositivo no es válido')
        .optional(),
      msiMonths: z
        .union([z.literal(3), z.literal(6), z.literal(9), z.literal(12)], {
          error: 'Los meses sin intereses deben ser 3, 6, 9 o 12',
        })
        .optional(),
      /** Optional; required when the account says so (issue 20). */
      purchaseOrder: purchaseOrderSchema.optional(),
      /** Converting a quotation: the server sells at its prices and lines (the items must be its lines). */
      quotation: quotationFolioSchema.optional(),
      /** Which of the buyer's saved addresses the order goes to (issue 20); left out: the default one. */
      addressId: addressIdSchema.optional(),
      /** Buying for an institution (issue 34): one of its shared addresses instead of the buyer's own. */
      institutionAddressId: addressIdSchema.optional(),
      /** 'Facturar esta compra': one of the buyer's saved fiscal profiles; the CFDI is issued once paid. */
      invoiceProfileId: z
        .number({ error: 'Seleccione sus datos fiscales' })
        .int('Seleccione sus datos fiscales')
        .min(1, 'Seleccione sus datos fiscales')
        .max(2_147_483_647, 'Seleccione sus datos fiscales')
        .optional(),
      /** Issue 35: how it travels (ground parcel when left out); the server decides whether the cart may. */
      deliveryMethod: deliveryMethodSchema.optional(),
      /** 'Recoger en sucursal': which branch of /sucursales (its index in config/shop.json). */
      pickupBranch: z
        .number({ error: 'Elija la sucursal donde recogerá su pedido' })
        .int('Elija la sucursal donde recogerá su pedido')
        .min(0, 'Elija la sucursal donde recogerá su pedido')
        .max(99, 'Elija la sucursal donde recogerá su pedido')
        .optional(),
      /** Required when the order has controlled chemicals (decision 030): the declared end use, accepted. */
      controlledDeclaration: controlledDeclarationSchema.optional(),
    },
    { error: 'La solicitud debe ser un objeto JSON con los artículos y la tarjeta' },
  )
  .superRefine((body, ctx) => {
    // Issue 35: a pickup names one of the branches of /sucursales; another way names none.
    const pickup = body.deliveryMethod === 'pickup';
    const branchOk = body.pickupBranch !== undefined && body.pickupBranch < shop.branches.length;
    if (pickup ? !branchOk : body.pickupBranch !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['pickupBranch'],
        message: pickup
          ? 'Elija la sucursal donde recogerá su pedido'
          : 'La sucursal solo aplica a «Recoger en sucursal»',
      });
    if ((body.paymentMethod ?? 'card') === 'card') {
      if (body.cardToken === undefined) {
        ctx.addIssue({ code: 'custom', path: ['cardToken'], message: 'Faltan los datos de la tarjeta' });
      }
      if (body.deviceSessionId === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['deviceSessionId'],
          message: 'Falta el identificador del dispositivo',
        });
      }
    } else if (body.msiMonths !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['msiMonths'],
        message: 'Los meses sin intereses solo aplican a pagos con tarjeta',
      });
    }
  });
export type PlaceOrder = z.infer<typeof placeOrderSchema>;

/**
 * Paid: `{ number }`. 3-D Secure: also `redirectUrl`, where the browser must go to authenticate. SPEI or
 * cash: `awaitingPayment: true` (status 201 → 202), the instructions are on the order's page.
 */
export const placeOrderResponseSchema = z.object({
  number: z.number().int(),
  redirectUrl: z.string().optional(),
  awaitingPayment: z.boolean().optional(),
});

/** What the buyer needs to pay a SPEI or store order (Openpay's payment_method of the charge). */
export const paymentInstructionsSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('spei'),
    bank: z.string(),
    clabe: z.string(),
    /** The reference ('concepto') the transfer must carry. */
    reference: z.string(),
    amountCents: z.number().int(),
    dueAt: z.string(),
  }),
  z.object({
    type: z.literal('cash'),
    reference: z.string(),
    barcodeUrl: z.string().nullable(),
    amountCents: z.number().int(),
    dueAt: z.string(),
  }),
]);
export type PaymentInstructions = z.infer<typeof paymentInstructionsSchema>;

/** How the order is (being) paid, its deadline while awaiting a delayed payment, and the instructions. */
export const orderPaymentSchema = z.object({
  method: orderPaymentMethodSchema,
  methodLabel: z.string(),
  /** ISO date-time until which a SPEI or store payment is accepted (null once paid, or for cards). */
  deadline: z.string().nullable(),
  instructions: paymentInstructionsSchema.nullable(),
  msiMonths: z.number().int().nullable(),
});
export type OrderPayment = z.infer<typeof orderPaymentSchema>;
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
  /** Issue 35: each shipment's carrier, guide and tracking link, in order ('Envío 1 · Estafeta …'). */
  shipments: z.array(
    z.object({
      seq: z.number().int(),
      carrierName: z.string(),
      trackingNumber: z.string().nullable(),
      trackingUrl: z.string().nullable(),
      delivered: z.boolean(),
    }),
  ),
  totalCents: z.number().int(),
  /** ISO date-time: the deadline of a SPEI or store payment still awaited (issue 21), else absent. */
  paymentDeadline: z.string().nullable().optional(),
  /** How it was paid: the way a cancellation gives the money back follows it (decision 045). */
  paymentMethod: orderPaymentMethodSchema,
  /** What a cancellation would give back now (paid − refunded − owed); null when it cannot be cancelled. */
  refundableCents: z.number().int().nullable(),
  /** Every refund of the order with its real route and state (decision 045), as on the receipt. */
  refunds: z.array(refundViewSchema),
  /** Its returns (issue 35, decision 062) with their state, newest last; the page /historial/devoluciones/:n has them whole. */
  returns: z.array(z.object({ id: z.number().int(), state: z.string(), stateLabel: z.string() })).default([]),
  ...actionsShape,
});
export type OrderSummary = z.infer<typeof orderSummarySchema>;

/** GET /api/orders: `message` is the server's text when there are no orders. */
export const orderListSchema = z.object({
  orders: z.array(orderSummarySchema),
  message: z.string().nullable(),
});
export type OrderList = z.infer<typeof orderListSchema>;

/**
 * 'Sobre pedido' (decision 029): of a line's quantity, the units stock did not cover when the order was placed,
 * and their promised window (YYYY-MM-DD, business days in Mexico City); 0 and nulls when everything shipped from
 * stock. The sale (price, total, CFDI) is the whole quantity either way.
 */
export const backorderShape = {
  backorderedQuantity: z.number().int(),
  backorderFrom: z.string().nullable(),
  backorderTo: z.string().nullable(),
};

export const orderLineSchema = z.object({
  code: z.string(),
  description: z.string(),
  unitPriceCents: z.number().int(),
  quantity: z.number().int(),
  lineTotalCents: z.number().int(),
  imageUrl: z.string().nullable(),
  ...backorderShape,
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
  /** Issue 35: the delivery method, the shipments and each line's progress. */
  delivery: deliveryViewSchema,
  trackingGuide: z.string(),
  /** YYYY-MM-DD, or null until shipped. */
  deliveryDate: z.string().nullable(),
  deliveryProvider: z.string().nullable(),
  lines: z.array(orderLineSchema),
  /** YYYY-MM-DD: by when what was in stock ships (decision 029); null for orders placed before. */
  shipNowBy: z.string().nullable(),
  subtotalCents: z.number().int(),
  /** The shipping stored on the order when it was bought (SPEC-NOTES 4). */
  shippingCents: z.number().int(),
  ivaCents: z.number().int(),
  totalCents: z.number().int(),
  refundedCents: z.number().int(),
  /** Every refund of the order with its real route and state (decision 045). */
  refunds: z.array(refundViewSchema),
  /** The buyer's purchase-order number, if they gave one (issue 20). */
  purchaseOrder: z.string().nullable(),
  /** The folio of the quotation it was converted from. */
  quotationFolio: z.string().nullable(),
  payment: orderPaymentSchema.optional(),
  ...actionsShape,
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;

/** POST /api/orders/:number/cancel */
export const cancelOrderResponseSchema = z.object({
  message: z.string(),
  order: orderDetailSchema,
});
export type CancelOrderResponse = z.infer<typeof cancelOrderResponseSchema>;

/** GET /api/admin/unpaid-holds: per product, the units unpaid SPEI/store orders hold from stock, and by whom. */
export const unpaidHoldsSchema = z.object({
  products: z.array(
    z.object({
      code: z.string(),
      name: z.string(),
      /** What is left in stock now (the held units are already out of it). */
      stock: z.number().int(),
      heldUnits: z.number().int(),
      orders: z.array(
        z.object({
          number: z.number().int(),
          units: z.number().int(),
          paymentMethod: z.enum(['spei', 'cash']),
          paymentDueAt: z.string().nullable(),
          createdAt: z.string(),
          email: z.string(),
        }),
      ),
    }),
  ),
});
export type UnpaidHolds = z.infer<typeof unpaidHoldsSchema>;
