import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminCustomerDetailSchema,
  adminCustomerListSchema,
  adminCustomersQuerySchema,
  customerIdParamsSchema,
} from '../../shared/schemas/admin.ts';
import { getCustomer, listCustomers } from './customers-service.ts';

const tags = ['administración'];

/** Customers are read-only in the back office. */
export const customerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/customers',
    {
      schema: {
        tags,
        summary: 'Clientes por nombre, correo o teléfono',
        querystring: adminCustomersQuerySchema,
        response: { 200: adminCustomerListSchema },
      },
    },
    async (request) => listCustomers(app.db, request.query),
  );

  app.get(
    '/api/admin/customers/:id',
    {
      schema: {
        tags,
        summary: 'Un cliente: datos, dirección de envío y pedidos',
        params: customerIdParamsSchema,
        response: { 200: adminCustomerDetailSchema },
      },
    },
    async (request) => getCustomer(app.db, request.params.id),
  );
};
