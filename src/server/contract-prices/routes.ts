import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  contractPriceListSchema,
  contractPricesBodySchema,
  institutionIdParamsSchema,
} from '../../shared/schemas/contract-prices.ts';
import { staffActor } from '../admin/context.ts';
import { contractPriceList, replaceContractPrices } from './service.ts';

const tags = ['administración'];

/** /api/admin/institutions/:id/contract-prices (registered inside the back office's guarded plugin). */
export const contractPriceAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/institutions/:id/contract-prices',
    {
      config: { permission: 'clientes.gestionar' },
      schema: {
        tags,
        summary: 'Precios de contrato de una institución',
        params: institutionIdParamsSchema,
        response: { 200: contractPriceListSchema },
      },
    },
    async (request) => contractPriceList(app.db, request.params.id),
  );

  app.put(
    '/api/admin/institutions/:id/contract-prices',
    {
      config: { permission: 'clientes.gestionar' },
      schema: {
        tags,
        summary: 'Reemplaza la lista de precios de contrato de una institución (por código, con vigencia)',
        params: institutionIdParamsSchema,
        body: contractPricesBodySchema,
        response: { 200: contractPriceListSchema },
      },
    },
    async (request) =>
      replaceContractPrices(app.db, await staffActor(request), request.params.id, request.body),
  );
};
