import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dashboardSchema } from '../../shared/schemas/dashboard.ts';
import { dashboard } from './service.ts';

/** GET /api/admin/dashboard: the admin's home (registered under the back office's staff guard). */
export const dashboardAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/dashboard',
    {
      config: { permission: 'tablero.ver' },
      schema: {
        tags: ['administración'],
        summary:
          'Tablero: ventas (hoy, 7 y 30 días contra el año anterior, por forma de pago y categoría), pedidos por estado, cotizaciones, lo más vendido, búsquedas sin resultados y pendientes',
        response: { 200: dashboardSchema },
      },
    },
    async () => dashboard(app.db),
  );
};
