import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminInvoiceListSchema, adminInvoicesQuerySchema } from '../../shared/schemas/admin.ts';
import { messageSchema, orderNumberParamsSchema } from '../../shared/schemas/common.ts';
import { cancelInvoice, createInvoicingContext, getInvoicePdf, getInvoiceXml } from '../invoices/service.ts';
import { staffActor } from './context.ts';
import { cancelInvoiceByStaff, listAdminInvoices, ownerOf } from './invoices-service.ts';

const tags = ['administración'];

const staffCancelSchema = z.object({
  motivo: z
    .enum(['02', '03', '04'], { error: 'Seleccione el motivo de cancelación: 02, 03 o 04' })
    .default('02'),
});

/** Invoices: the list, downloads and cancellation, through the invoices service acting for the order's owner. */
export const invoiceAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const ctx = createInvoicingContext(app.config, app.db, { log: app.log });

  app.get(
    '/api/admin/invoices',
    {
      schema: {
        tags,
        summary: 'Facturas: estado, RFC, total; filtro por estado y búsqueda por pedido, RFC, UUID o correo',
        querystring: adminInvoicesQuerySchema,
        response: { 200: adminInvoiceListSchema },
      },
    },
    async (request) => listAdminInvoices(app.db, request.query),
  );

  app.post(
    '/api/admin/invoices/:number/cancel',
    {
      schema: {
        tags,
        summary:
          'Cancela la factura vigente del pedido ante el PAC con el motivo del SAT: 02 (errores sin relación), 03 (la venta no se realizó), 04 (factura global)',
        params: orderNumberParamsSchema,
        body: staffCancelSchema.nullish(),
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      const motivo = request.body?.motivo ?? '02';
      return cancelInvoiceByStaff(app.db, await staffActor(request), request.params.number, motivo, (owner) =>
        cancelInvoice(ctx, owner, request.params.number, { motivo, by: 'staff' }),
      );
    },
  );

  app.get(
    '/api/admin/invoices/:number/invoice.xml',
    {
      schema: {
        tags,
        summary: 'XML timbrado de la factura del pedido',
        params: orderNumberParamsSchema,
        response: { 200: z.string() },
      },
    },
    async (request, reply) => {
      const { xml, filename } = await getInvoiceXml(
        ctx,
        await ownerOf(app.db, request.params.number),
        request.params.number,
      );
      return reply
        .type('application/xml; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${filename}"`)
        .send(xml);
    },
  );

  app.get(
    '/api/admin/invoices/:number/invoice.pdf',
    { schema: { tags, summary: 'PDF de la factura del pedido', params: orderNumberParamsSchema } },
    async (request, reply) => {
      const { pdf, filename } = await getInvoicePdf(
        ctx,
        await ownerOf(app.db, request.params.number),
        request.params.number,
      );
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `attachment; filename="${filename}"`)
        .send(pdf);
    },
  );
};
