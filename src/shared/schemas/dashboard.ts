import { z } from 'zod';
import { orderStatusSchema } from './orders.ts';

/**
 * The back office's dashboard (issue 36, decision 065): GET /api/admin/dashboard. Money in centavos with IVA
 * included; days are Mexico City calendar days ('YYYY-MM-DD'), instants ISO strings.
 */

const cents = z.number().int();
const count = z.number().int().nonnegative();

/** Sales of a period (see src/server/dashboard/sales.ts for what counts): gross, what went back, net. */
const salesFiguresSchema = z.object({
  grossCents: cents,
  givenBackCents: cents,
  netCents: cents,
  orders: count,
});

export const DASHBOARD_PERIODS = { today: 'Hoy', '7d': 'Últimos 7 días', '30d': 'Últimos 30 días' } as const;
export type DashboardPeriod = keyof typeof DASHBOARD_PERIODS;

export const dashboardSchema = z.object({
  generatedAt: z.string(),
  today: z.string(),
  sales: z.object({
    periods: z.array(
      z.object({
        period: z.enum(['today', '7d', '30d']),
        from: z.string(),
        current: salesFiguresSchema,
        lastYear: salesFiguresSchema,
      }),
    ),
    daily: z.array(
      z.object({ day: z.string(), lastYearDay: z.string(), netCents: cents, lastYearNetCents: cents }),
    ),
    byMethod: z.array(
      z.object({ method: z.string(), label: z.string(), grossCents: cents, lastYearGrossCents: cents }),
    ),
    byCategory: z.array(z.object({ clas: z.string().nullable(), name: z.string(), cents })),
  }),
  orders: z.array(
    z.object({
      status: orderStatusSchema,
      label: z.string(),
      last30: count,
      total: count,
      /** Statuses that wait on someone: since when the oldest has waited, and which order it is. */
      waiting: z.object({ since: z.string(), number: z.number().int() }).nullable(),
    }),
  ),
  quotations: z.object({
    issued: count,
    converted: count,
    ratePercent: z.number(),
    issuedCents: cents,
    convertedCents: cents,
  }),
  topProducts: z.array(z.object({ code: z.string(), description: z.string(), units: count, cents })),
  topInstitutions: z.array(z.object({ id: z.number().int(), name: z.string(), orders: count, cents: cents })),
  searchMisses: z.array(z.object({ term: z.string(), results: count, searches: count })),
  waiting: z.object({
    delayedPayments: z.object({ n: count, cents, firstDue: z.string().nullable() }),
    refundsOwed: z.object({ n: count, cents, oldest: z.string().nullable() }),
    invoicesAtPac: z.object({
      n: count,
      stamping: count,
      atPurchase: count,
      cancellation: count,
      oldest: z.string().nullable(),
    }),
  }),
});
export type Dashboard = z.infer<typeof dashboardSchema>;
