import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminCustomerDetailSchema,
  adminCustomerListSchema,
  adminCustomersQuerySchema,
  customerIdParamsSchema,
  customerPurchaseOrderSchema,
} from '../../shared/schemas/admin.ts';
import { staffActor } from './context.ts';
import { getCustomer, listCustomers, setPurchaseOrderRequired } from './customers-service.ts';

const tags = ['administración'];

/** Customers are read-only in the back office, but for whether they must give a purchase-order number. */
export const customerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/customers',
    {
      config: { permission: 'clientes.gestionar' },
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
      config: { permission: 'clientes.gestionar' },
      schema: {
        tags,
        summary: 'Un cliente: datos, dirección de envío y pedidos',
        params: customerIdParamsSchema,
        response: { 200: adminCustomerDetailSchema },
      },
    },
    async (request) => getCustomer(app.db, request.params.id),
  );

  app.put(
    '/api/admin/customers/:id/purchase-order',
    {
      config: { permission: 'clientes.gestionar' },
      schema: {
        tags,
        summary: 'Hace obligatoria (o no) la orden de compra en los pedidos del cliente',
        params: customerIdParamsSchema,
        body: customerPurchaseOrderSchema,
        response: { 200: adminCustomerDetailSchema },
      },
    },
    async (request) =>
      setPurchaseOrderRequired(app.db, await staffActor(request), request.params.id, request.body.required),
  );
};
