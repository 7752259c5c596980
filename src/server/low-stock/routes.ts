import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { productCodeParamsSchema } from '../../shared/schemas/admin.ts';
import { errorEnvelopeSchema } from '../../shared/schemas/errors.ts';
import { lowStockListSchema, reorderPointSchema } from '../../shared/schemas/low-stock.ts';
import { staffActor } from '../admin/context.ts';
import { lowStock, setReorderPoint } from './service.ts';

const tags = ['administración', 'existencias'];

/** 'Por agotarse' and the reorder points (issue 36, decision 066), under /api/admin (adminRoutes' guard). */
export const lowStockAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/stock/low',
    {
      config: { permission: 'existencias.gestionar' },
      schema: {
        tags,
        summary:
          'Por agotarse: presentaciones en su punto de reorden o que se acaban en días al ritmo de 90 días de ventas',
        response: { 200: lowStockListSchema },
      },
    },
    async () => lowStock(app.db, app.config.stock.reorderPointDefault),
  );

  app.put(
    '/api/admin/products/:code/reorder-point',
    {
      config: { permission: 'existencias.gestionar' },
      schema: {
        tags,
        summary: 'Punto de reorden de una presentación (null: el predeterminado de la tienda)',
        params: productCodeParamsSchema,
        body: reorderPointSchema,
        response: {
          200: z.object({ message: z.string(), code: z.string(), reorderPoint: z.number().int().nullable() }),
          400: errorEnvelopeSchema,
          404: errorEnvelopeSchema,
        },
      },
    },
    async (request) => {
      const saved = await setReorderPoint(
        app.db,
        await staffActor(request),
        request.params.code,
        request.body.reorderPoint,
      );
      return {
        ...saved,
        message:
          saved.reorderPoint === null
            ? `Punto de reorden de ${saved.code}: el predeterminado (${app.config.stock.reorderPointDefault} pzas.)`
            : `Punto de reorden de ${saved.code}: ${saved.reorderPoint} pzas.`,
      };
    },
  );
};
