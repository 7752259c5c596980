import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditListSchema, auditQuerySchema } from '../../shared/schemas/admin.ts';
import { accountingAdminRoutes } from '../accounting/routes.ts';
import { auditPage } from '../audit/log.ts';
import { contractPriceAdminRoutes } from '../contract-prices/routes.ts';
import { creditAdminRoutes } from '../credit/admin-routes.ts';
import { institutionAdminRoutes } from '../institutions/admin-routes.ts';
import { lowStockAdminRoutes } from '../low-stock/routes.ts';
import { shipmentAdminRoutes } from '../shipments/routes.ts';
import { controlledAdminRoutes } from './controlled-routes.ts';
import { customerRoutes } from './customer-routes.ts';
import { documentAdminRoutes } from './document-routes.ts';
import { requireStaff } from './guard.ts';
import { importRoutes } from './import-routes.ts';
import { invoiceAdminRoutes } from './invoice-routes.ts';
import { orderAdminRoutes } from './order-routes.ts';
import { pagesOf, pageWindow } from './paging.ts';
import { productAdminRoutes } from './product-routes.ts';
import { quotationAdminRoutes } from './quotation-routes.ts';
import { refundAdminRoutes } from './refund-routes.ts';
import { searchAdminRoutes } from './search-routes.ts';

/**
 * The back-office API, /api/admin/*. One hook guards every route registered in here (401 visitor,
 * 403 shopper) before anything else runs, so a route added later cannot forget the check.
 */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', async (request, reply) => {
    await requireStaff(request);
    reply.header('Cache-Control', 'no-store');
  });

  await app.register(orderAdminRoutes);
  await app.register(refundAdminRoutes);
  await app.register(productAdminRoutes);
  await app.register(documentAdminRoutes);
  await app.register(customerRoutes);
  await app.register(invoiceAdminRoutes);
  await app.register(importRoutes);
  await app.register(quotationAdminRoutes);
  await app.register(searchAdminRoutes);
  await app.register(controlledAdminRoutes);
  await app.register(contractPriceAdminRoutes);
  await app.register(institutionAdminRoutes);
  await app.register(creditAdminRoutes);
  await app.register(shipmentAdminRoutes);
  await app.register(lowStockAdminRoutes);
  await app.register(accountingAdminRoutes);

  app.get(
    '/api/admin/audit',
    {
      schema: {
        tags: ['administración'],
        summary: 'Bitácora de acciones del personal',
        querystring: auditQuerySchema,
        response: { 200: auditListSchema },
      },
    },
    async (request) => {
      const { page, ...query } = request.query;
      const { items, total } = await auditPage(app.db, query, pageWindow(page));
      return { items, total, page, pages: pagesOf(total) };
    },
  );
};
