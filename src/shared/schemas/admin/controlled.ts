import { z } from 'zod';
import { isoDay } from './common.ts';

/** Controlled chemicals' sales report (decision 030). Part of the back-office API contract (../admin.ts). */
/** GET /api/admin/controlled-sales.csv (decision 030): Mexico City days, both inclusive, at most a year. */
export const controlledSalesQuerySchema = z.object({
  from: isoDay('Fecha inicial inválida (AAAA-MM-DD)'),
  to: isoDay('Fecha final inválida (AAAA-MM-DD)'),
});
export const controlledSalesSchema = z.object({
  orders: z.number().int(),
  rows: z.array(
    z.object({
      date: z.string(),
      orderNumber: z.number().int(),
      status: z.string(),
      code: z.string(),
      name: z.string(),
      quantity: z.number().int(),
      buyer: z.string(),
      email: z.string(),
      rfc: z.string(),
      razonSocial: z.string(),
      declaredUse: z.string(),
    }),
  ),
});
export type ControlledSales = z.infer<typeof controlledSalesSchema>;
