import { z } from 'zod';
import { CARRIER_IDS, normalizeTracking, trackingProblem } from '../carriers.ts';

/** Issue 35 (decision 061): shipments, goods received and pickups — the contract of src/server/shipments. */

const ymd = z
  .string({ error: 'La fecha debe tener el formato AAAA-MM-DD' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'La fecha debe tener el formato AAAA-MM-DD');

export const shipmentLineInputSchema = z.object({
  lineNo: z.number({ error: 'Renglón no válido' }).int('Renglón no válido').min(1).max(10_000),
  quantity: z
    .number({ error: 'La cantidad debe ser un número entero' })
    .int('La cantidad debe ser un número entero')
    .min(1, 'La cantidad debe ser al menos 1')
    .max(1_000_000, 'La cantidad no es válida'),
});

/** POST /api/admin/orders/:number/shipments — staff send what is ready, whole or in part. */
export const createShipmentSchema = z
  .object(
    {
      carrier: z.enum(CARRIER_IDS, { error: 'Elija una paquetería de la lista' }),
      trackingNumber: z
        .string({ error: 'Escriba el número de guía' })
        .max(60, 'El número de guía es demasiado largo')
        .transform(normalizeTracking),
      estimatedDelivery: ymd.optional(),
      lines: z
        .array(shipmentLineInputSchema, { error: 'Indique qué se envía' })
        .min(1, 'Indique al menos un artículo a enviar')
        .max(500)
        .refine((l) => new Set(l.map((x) => x.lineNo)).size === l.length, 'Un renglón aparece dos veces'),
    },
    { error: 'La solicitud debe ser un objeto JSON' },
  )
  .superRefine((body, ctx) => {
    const problem = trackingProblem(body.carrier, body.trackingNumber);
    if (problem) ctx.addIssue({ code: 'custom', path: ['trackingNumber'], message: problem });
  });
export type CreateShipmentInput = z.input<typeof createShipmentSchema>;
export type CreateShipment = z.infer<typeof createShipmentSchema>;

/** POST /api/admin/orders/:number/pickup-ready — what is ready at the branch (all that can go when left out). */
export const pickupReadySchema = z.object({ lines: z.array(shipmentLineInputSchema).max(500).optional() });

/** POST /api/admin/orders/:number/pickup-collected */
export const pickupCollectedSchema = z.object(
  {
    code: z
      .string({ error: 'Escriba el código de recolección' })
      .transform((v) => v.trim().toUpperCase())
      .pipe(z.string().regex(/^[0-9A-Z]{6}$/, 'El código de recolección tiene 6 letras y números')),
    name: z
      .string({ error: 'Escriba el nombre de quien recoge' })
      .trim()
      .min(3, 'Escriba el nombre de quien recoge')
      .max(120, 'El nombre admite hasta 120 caracteres'),
    idDocument: z
      .string({ error: 'Escriba la identificación que presentó' })
      .trim()
      .min(4, 'Escriba la identificación que presentó (tipo y número)')
      .max(60, 'La identificación admite hasta 60 caracteres'),
  },
  { error: 'La solicitud debe ser un objeto JSON' },
);
export type PickupCollectedInput = z.input<typeof pickupCollectedSchema>;

/** POST /api/admin/stock/receipts — goods received for a product (fills backorders first, oldest first). */
export const receiveGoodsSchema = z.object(
  {
    code: z
      .string({ error: 'Escriba el código del producto' })
      .trim()
      .min(1, 'Escriba el código del producto')
      .max(60),
    quantity: z
      .number({ error: 'La cantidad debe ser un número entero' })
      .int('La cantidad debe ser un número entero')
      .min(1, 'La cantidad debe ser al menos 1')
      .max(1_000_000, 'La cantidad no es válida'),
    lot: z.string().trim().max(40, 'El lote admite hasta 40 caracteres').optional(),
    expiresOn: ymd.optional(),
  },
  { error: 'La solicitud debe ser un objeto JSON' },
);
export type ReceiveGoodsInput = z.input<typeof receiveGoodsSchema>;

export const shipmentViewSchema = z.object({
  seq: z.number().int(),
  carrier: z.string(),
  carrierName: z.string(),
  trackingNumber: z.string().nullable(),
  trackingUrl: z.string().nullable(),
  estimatedDelivery: z.string().nullable(),
  shippedAt: z.string(),
  deliveredAt: z.string().nullable(),
  lines: z.array(z.object({ lineNo: z.number().int(), description: z.string(), quantity: z.number().int() })),
});
export type ShipmentView = z.infer<typeof shipmentViewSchema>;

/** An order line's progress: shipped, ready to ship, still awaited (with the promised window). */
export const lineProgressSchema = z.object({
  lineNo: z.number().int(),
  code: z.string(),
  description: z.string(),
  quantity: z.number().int(),
  shipped: z.number().int(),
  ready: z.number().int(),
  awaited: z.number().int(),
  /** Backordered units the buyer gave up (refunded) after their promised window passed. */
  cancelled: z.number().int(),
  /** The promised window passed and was moved: the buyer may give up the awaited units with a refund. */
  delayed: z.boolean(),
  awaitedFrom: z.string().nullable(),
  awaitedTo: z.string().nullable(),
});
export type LineProgress = z.infer<typeof lineProgressSchema>;

/** What the buyer and staff see of an order's delivery. */
export const deliveryViewSchema = z.object({
  method: z.enum(['ground', 'air', 'pickup']),
  methodLabel: z.string(),
  branch: z
    .object({ name: z.string(), address: z.string(), hours: z.string(), phones: z.array(z.string()) })
    .nullable(),
  pickupCode: z.string().nullable(),
  collectedBy: z.string().nullable(),
  collectedAt: z.string().nullable(),
  shipments: z.array(shipmentViewSchema),
  lines: z.array(lineProgressSchema),
});
export type DeliveryView = z.infer<typeof deliveryViewSchema>;

export const receiveGoodsResultSchema = z.object({
  message: z.string(),
  receiptId: z.number().int(),
  toStock: z.number().int(),
  allocations: z.array(
    z.object({ orderNumber: z.number().int(), lineNo: z.number().int(), quantity: z.number().int() }),
  ),
});
