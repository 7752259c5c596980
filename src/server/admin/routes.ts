import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditListSchema, auditQuerySchema } from '../../shared/schemas/admin.ts';
import { accountingAdminRoutes } from '../accounting/routes.ts';
import { auditPage } from '../audit/log.ts';
import { contractPriceAdminRoutes } from '../contract-prices/routes.ts';
import { creditAdminRoutes } from '../credit/admin-routes.ts';
import { dashboardAdminRoutes } from '../dashboard/routes.ts';
import { institutionAdminRoutes } from '../institutions/admin-routes.ts';
import { lowStockAdminRoutes } from '../low-stock/routes.ts';
import { shipmentAdminRoutes } from '../shipments/routes.ts';
import { staffAdminRoutes } from '../staff/admin-routes.ts';
import { controlledAdminRoutes } from './controlled-routes.ts';
import { customerRoutes } from './customer-routes.ts';
import { documentAdminRoutes } from './document-routes.ts';
import { importRoutes } from './import-routes.ts';
import { invoiceAdminRoutes } from './invoice-routes.ts';
import { orderAdminRoutes } from './order-routes.ts';
import { pagesOf, pageWindow } from './paging.ts';
import { productAdminRoutes } from './product-routes.ts';
import { quotationAdminRoutes } from './quotation-routes.ts';
import { refundAdminRoutes } from './refund-routes.ts';
import { searchAdminRoutes } from './search-routes.ts';

/**
 * The back-office API, /api/admin/*. Every route names its one permission in `config.permission`; the root's onRoute
 * hook (guardAdminRoutes in guard.ts, installed by app.ts before any route) refuses to start without it and puts
 * `requireStaff(request, permission)` first on the route (401 visitor, 403 shopper, deactivated, second factor
 * missing, or a role without the permission), so a route added later — here or elsewhere — cannot forget the check.
 */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
  });

  await app.register(dashboardAdminRoutes);
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
  await app.register(staffAdminRoutes);
  await app.register(lowStockAdminRoutes);
  await app.register(accountingAdminRoutes);

  app.get(
    '/api/admin/audit',
    {
      config: { permission: 'personal.gestionar' },
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
