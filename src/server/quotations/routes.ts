import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  convertQuotationResponseSchema,
  createQuotationSchema,
  quotationDetailSchema,
  quotationFolioParamsSchema,
  quotationListSchema,
  renewalPreviewSchema,
} from '../../shared/schemas/quotations.ts';
import { requireUser } from '../auth/session.ts';
import { sendAttachment } from '../http/attachment.ts';
import { buyerScope } from '../institutions/access.ts';
import { prepareConversion } from './convert.ts';
import { quotationFileName, renderQuotationPdf } from './pdf.ts';
import {
  cancelQuotation,
  createQuotation,
  getQuotation,
  listQuotations,
  type QuotationContext,
  renewalPreview,
  renewQuotation,
} from './service.ts';

const tags = ['cotizaciones'];

/**
 * 'Mis cotizaciones' (issue 20): the signed-in buyer's own quotations only — or, while the session buys for an
 * institution, the institution's shared ones (decision 058); another's folio is a 404.
 */
export const quotationRoutes: FastifyPluginAsyncZod = async (app) => {
  const ctx: QuotationContext = { db: app.db, publicUrl: app.config.publicUrl };
  const owner = (request: Parameters<typeof buyerScope>[0]) => buyerScope(request, 'quotations.use');
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'private, no-store');
  });

  app.get(
    '/api/quotations',
    {
      schema: {
        tags,
        summary: 'Cotizaciones del usuario de la sesión',
        response: { 200: quotationListSchema },
      },
    },
    async (request) => {
      return { quotations: await listQuotations(app.db, await owner(request)) };
    },
  );

  app.post(
    '/api/quotations',
    {
      schema: {
        tags,
        summary: 'Cotización del carrito a los precios de hoy: folio, vigencia y PDF por correo',
        body: createQuotationSchema,
        response: { 201: quotationDetailSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { institutionId } = await owner(request);
      return reply.code(201).send(await createQuotation(ctx, user, request.body, institutionId));
    },
  );

  app.get(
    '/api/quotations/:folio',
    {
      schema: {
        tags,
        summary: 'Una cotización propia',
        params: quotationFolioParamsSchema,
        response: { 200: quotationDetailSchema },
      },
    },
    async (request) => {
      return getQuotation(app.db, await owner(request), request.params.folio);
    },
  );

  app.get(
    '/api/quotations/:folio/pdf',
    { schema: { tags, summary: 'La cotización en PDF (tamaño carta)', params: quotationFolioParamsSchema } },
    async (request, reply) => {
      const user = await requireUser(request);
      const detail = await getQuotation(app.db, await owner(request), request.params.folio);
      const pdf = await renderQuotationPdf(detail, user.email);
      return sendAttachment(request, reply, pdf, {
        filename: quotationFileName(detail.folio, detail.revision),
        type: 'application/pdf',
      });
    },
  );

  app.post(
    '/api/quotations/:folio/convert',
    {
      schema: {
        tags,
        summary: 'Revisa vigencia y existencias y devuelve lo que la compra debe enviar con el folio',
        params: quotationFolioParamsSchema,
        response: { 200: convertQuotationResponseSchema },
      },
    },
    async (request) => {
      return prepareConversion(app.db, await owner(request), request.params.folio);
    },
  );

  app.get(
    '/api/quotations/:folio/renewal',
    {
      schema: {
        tags,
        summary:
          'Qué cambiaría al renovar una cotización vencida (precios de hoy; se conservan las observaciones)',
        params: quotationFolioParamsSchema,
        response: { 200: renewalPreviewSchema },
      },
    },
    async (request) => {
      return renewalPreview(ctx, await owner(request), request.params.folio);
    },
  );

  app.post(
    '/api/quotations/:folio/renew',
    {
      schema: {
        tags,
        summary: 'Renueva una cotización vencida a los precios de hoy',
        params: quotationFolioParamsSchema,
        response: { 200: quotationDetailSchema },
      },
    },
    async (request) => {
      return renewQuotation(ctx, await owner(request), request.params.folio);
    },
  );

  app.post(
    '/api/quotations/:folio/cancel',
    {
      schema: {
        tags,
        summary: 'Cancela una cotización que no se convirtió en pedido',
        params: quotationFolioParamsSchema,
        response: { 200: quotationDetailSchema },
      },
    },
    async (request) => {
      return cancelQuotation(ctx, await owner(request), request.params.folio);
    },
  );
};
