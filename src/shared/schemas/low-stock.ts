import { z } from 'zod';
import { MAX_REORDER_POINT } from '../low-stock.ts';
import { groupThousands } from '../money.ts';

/** GET /api/admin/stock/low (issue 36, decision 066): the presentations at or below their reorder point. */
export const lowStockItemSchema = z.object({
  code: z.string(),
  name: z.string(),
  presentationLabel: z.string().nullable(),
  stock: z.number().int(),
  /** The product's own reorder point, or null when the shop's default applies. */
  reorderPoint: z.number().int().nullable(),
  /** What applies: its own, else the default. */
  effectiveReorderPoint: z.number().int(),
  soldLast90Days: z.number().int(),
  /** stock ÷ (sold ÷ 90), rounded down; 0 when out of stock; null without sales ('sin ventas'). */
  daysLeft: z.number().int().nullable(),
  /** Why it is listed: at or below the reorder point, or running out within the horizon at the recent pace. */
  reason: z.enum(['reorder_point', 'projected']),
  backorderable: z.boolean(),
});
export type LowStockItem = z.infer<typeof lowStockItemSchema>;

export const lowStockListSchema = z.object({
  items: z.array(lowStockItemSchema),
  defaultReorderPoint: z.number().int(),
  horizonDays: z.number().int(),
});
export type LowStockList = z.infer<typeof lowStockListSchema>;

/** PUT /api/admin/products/:code/reorder-point: a whole number of units, or null for the shop's default. */
export const reorderPointSchema = z.object(
  {
    reorderPoint: z
      .number({ error: 'Escriba el punto de reorden como un número entero de piezas' })
      .int('El punto de reorden debe ser un número entero de piezas')
      .min(0, 'El punto de reorden no puede ser negativo')
      .max(MAX_REORDER_POINT, `El punto de reorden admite hasta ${groupThousands(MAX_REORDER_POINT)} piezas`)
      .nullable(),
  },
  { error: 'La solicitud debe ser un objeto JSON con el punto de reorden' },
);
export type ReorderPointRequest = z.infer<typeof reorderPointSchema>;
