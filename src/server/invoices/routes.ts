import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { orderNumberParamsSchema } from '../../shared/schemas/common.ts';
import { errorEnvelopeSchema } from '../../shared/schemas/errors.ts';
import {
  creditNoteParamsSchema,
  invoiceActionResponseSchema,
  invoiceRequestSchema,
  invoiceStateSchema,
} from '../../shared/schemas/invoice.ts';
import { requireUser } from '../auth/session.ts';
import { sendAttachment } from '../http/attachment.ts';
import { cancelInvoice } from './cancel.ts';
import { createInvoicingContext, type InvoicingContext } from './context.ts';
import { getInvoicePdf, getInvoiceXml, getOwnCreditNotePdf, getOwnCreditNoteXml } from './downloads.ts';
import { followTheMoney } from './follow-money.ts';
import { issueInvoice } from './issue.ts';
import { replaceInvoice } from './replace.ts';
import { getInvoiceState } from './state.ts';

const errorSchema = errorEnvelopeSchema;
const errors = { 400: errorSchema, 401: errorSchema, 404: errorSchema, 409: errorSchema, 502: errorSchema };

export type InvoiceRoutesOptions = { context?: Partial<Pick<InvoicingContext, 'pac' | 'now'>> };

/** CFDI 4.0 of an order: request, cancel, state and downloads. The user always comes from the session. */
export const invoiceRoutes: FastifyPluginAsyncZod<InvoiceRoutesOptions> = async (app, options) => {
  const ctx = createInvoicingContext(app.config, app.db, { ...options.context, log: app.log });
  app.taxPapers.impl = (number) => followTheMoney(ctx, number);

  // Its rounds (the follow-up of cancellations and money returned, 'Facturar esta compra') are jobs: jobs.ts.

  app.get(
    '/api/orders/:number/invoice',
    {
      schema: {
        tags: ['facturas'],
        summary: 'Estado de la factura del pedido (sin factura, vigente o cancelada) y si puede solicitarse',
        params: orderNumberParamsSchema,
        response: { 200: invoiceStateSchema, 401: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      reply.header('Cache-Control', 'no-store');
      return getInvoiceState(ctx, user, request.params.number);
    },
  );

  app.post(
    '/api/orders/:number/invoice',
    {
      schema: {
        tags: ['facturas'],
        summary: 'Solicita la factura CFDI 4.0 del pedido: sella, timbra con el PAC y la envía por correo',
        params: orderNumberParamsSchema,
        body: invoiceRequestSchema,
        response: { 201: invoiceActionResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const answer = await issueInvoice(ctx, user, request.params.number, request.body);
      return reply.code(201).header('Cache-Control', 'no-store').send(answer);
    },
  );

  app.post(
    '/api/orders/:number/invoice/cancel',
    {
      schema: {
        tags: ['facturas'],
        summary:
          'Cancela la factura vigente del pedido ante el SAT (motivo 02) a través del PAC; si el receptor debe aceptarla, queda en proceso',
        params: orderNumberParamsSchema,
        response: { 200: invoiceActionResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      reply.header('Cache-Control', 'no-store');
      return cancelInvoice(ctx, user, request.params.number);
    },
  );

  app.post(
    '/api/orders/:number/invoice/replace',
    {
      schema: {
        tags: ['facturas'],
        summary:
          'Corrige la factura vigente: emite la nueva con relación 04 (sustitución) y cancela la anterior con motivo 01; una vez por pedido',
        params: orderNumberParamsSchema,
        body: invoiceRequestSchema,
        response: { 201: invoiceActionResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const answer = await replaceInvoice(ctx, user, request.params.number, request.body);
      return reply.code(201).header('Cache-Control', 'no-store').send(answer);
    },
  );

  app.get(
    '/api/orders/:number/invoice.xml',
    {
      schema: {
        tags: ['facturas'],
        summary: 'XML timbrado de la factura del pedido',
        params: orderNumberParamsSchema,
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { xml, filename } = await getInvoiceXml(ctx, user, request.params.number);
      return sendAttachment(request, reply, xml, {
        filename,
        type: 'application/xml; charset=utf-8',
        cache: 'private',
      });
    },
  );

  app.get(
    '/api/orders/:number/credit-notes/:uuid.xml',
    {
      schema: {
        tags: ['facturas'],
        summary: 'XML timbrado de una nota de crédito (CFDI de egreso) del pedido',
        params: creditNoteParamsSchema,
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { number, uuid } = request.params;
      const { xml, filename } = await getOwnCreditNoteXml(ctx, user, number, uuid);
      return sendAttachment(request, reply, xml, {
        filename,
        type: 'application/xml; charset=utf-8',
        cache: 'private',
      });
    },
  );

  app.get(
    '/api/orders/:number/credit-notes/:uuid.pdf',
    {
      schema: {
        tags: ['facturas'],
        summary: 'Representación impresa (PDF) de una nota de crédito del pedido',
        params: creditNoteParamsSchema,
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { number, uuid } = request.params;
      const { pdf, filename } = await getOwnCreditNotePdf(ctx, user, number, uuid);
      return sendAttachment(request, reply, pdf, { filename, type: 'application/pdf', cache: 'private' });
    },
  );

  app.get(
    '/api/orders/:number/invoice.pdf',
    {
      schema: {
        tags: ['facturas'],
        summary: 'Representación impresa (PDF) de la factura del pedido',
        params: orderNumberParamsSchema,
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { pdf, filename } = await getInvoicePdf(ctx, user, request.params.number);
      return sendAttachment(request, reply, pdf, { filename, type: 'application/pdf', cache: 'private' });
    },
  );
};
