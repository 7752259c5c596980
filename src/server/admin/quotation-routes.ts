import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminQuotationDetailSchema,
  adminQuotationListSchema,
  extendQuotationSchema,
  quotationFolioParamsSchema,
  revisedQuotationSchema,
  reviseQuotationSchema,
} from '../../shared/schemas/quotations.ts';
import { sendAttachment } from '../http/attachment.ts';
import { quotationFileName, renderQuotationPdf } from '../quotations/pdf.ts';
import { extendQuotation, type QuotationContext, reviseQuotation } from '../quotations/service.ts';
import { staffActor } from './context.ts';
import { getAdminQuotation, listAdminQuotations } from './quotations-service.ts';

const tags = ['administración'];

/** Quotations in the back office (issue 20): list with the conversion rate, detail, adjust and re-send, extend. */
export const quotationAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const ctx: QuotationContext = { db: app.db, publicUrl: app.config.publicUrl };

  app.get(
    '/api/admin/quotations',
    {
      config: { permission: 'clientes.gestionar' },
      schema: {
        tags,
        summary: 'Cotizaciones recientes y tasa de conversión',
        response: { 200: adminQuotationListSchema },
      },
    },
    async () => listAdminQuotations(app.db),
  );

  app.get(
    '/api/admin/quotations/:folio',
    {
      config: { permission: 'clientes.gestionar' },
      schema: {
        tags,
        summary: 'Una cotización con sus revisiones',
        params: quotationFolioParamsSchema,
        response: { 200: adminQuotationDetailSchema },
      },
    },
    async (request) => getAdminQuotation(app.db, request.params.folio),
  );

  app.post(
    '/api/admin/quotations/:folio/revise',
    {
      config: { permission: 'clientes.gestionar' },
      schema: {
        tags,
        summary:
          'Ajusta precios, descuento y nota: nueva revisión enviada al cliente (la anterior se conserva)',
        params: quotationFolioParamsSchema,
        body: reviseQuotationSchema,
        response: { 200: revisedQuotationSchema },
      },
    },
    async (request) => {
      const { changed } = await reviseQuotation(
        ctx,
        await staffActor(request),
        request.params.folio,
        request.body,
      );
      return { ...(await getAdminQuotation(app.db, request.params.folio)), unchanged: !changed };
    },
  );

  app.post(
    '/api/admin/quotations/:folio/extend',
    {
      config: { permission: 'clientes.gestionar' },
      schema: {
        tags,
        summary: 'Extiende la vigencia: nueva revisión enviada al cliente',
        params: quotationFolioParamsSchema,
        body: extendQuotationSchema,
        response: { 200: adminQuotationDetailSchema },
      },
    },
    async (request) => {
      await extendQuotation(ctx, await staffActor(request), request.params.folio, request.body.days);
      return getAdminQuotation(app.db, request.params.folio);
    },
  );

  app.get(
    '/api/admin/quotations/:folio/pdf',
    {
      config: { permission: 'clientes.gestionar' },
      schema: {
        tags,
        summary: 'La cotización en PDF, como la recibió el cliente',
        params: quotationFolioParamsSchema,
      },
    },
    async (request, reply) => {
      const detail = await getAdminQuotation(app.db, request.params.folio);
      const pdf = await renderQuotationPdf(detail, detail.email);
      return sendAttachment(request, reply, pdf, {
        filename: quotationFileName(detail.folio, detail.revision),
        type: 'application/pdf',
      });
    },
  );
};
