import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { controlledSalesQuerySchema, controlledSalesSchema } from '../../shared/schemas/admin.ts';
import { controlledSales, controlledSalesCsv } from '../controlled/export.ts';
import { staffActor } from './context.ts';

const tags = ['administración'];

/** Controlled-chemical sales of a period (decision 030): the screen's list and the CSV download (audited). */
export const controlledAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/controlled-sales',
    {
      config: { permission: 'controlados.ver' },
      schema: {
        tags,
        summary:
          'Ventas de productos controlados (precursores químicos) de un periodo, días de Ciudad de México',
        querystring: controlledSalesQuerySchema,
        response: { 200: controlledSalesSchema },
      },
    },
    async (request) => controlledSales(app.db, request.query),
  );

  app.get(
    '/api/admin/controlled-sales.csv',
    {
      config: { permission: 'controlados.ver' },
      schema: {
        tags,
        summary: 'Las mismas ventas en CSV (UTF-8 con BOM, para Excel); la descarga queda en la bitácora',
        querystring: controlledSalesQuerySchema,
      },
    },
    async (request, reply) => {
      const { csv, filename } = await controlledSalesCsv(app.db, await staffActor(request), request.query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${filename}"`)
        .send(csv);
    },
  );
};
