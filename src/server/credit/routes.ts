import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { canInstitution } from '../../shared/institutions.ts';
import {
  creditOfferQuerySchema,
  creditOfferSchema,
  paymentIdParamsSchema,
  statementSchema,
} from '../../shared/schemas/credit.ts';
import { errorEnvelopeSchema } from '../../shared/schemas/errors.ts';
import { requireUser } from '../auth/session.ts';
import { sendAttachment } from '../http/attachment.ts';
import { buyingFor, requireInstitution } from '../institutions/membership.ts';
import { paymentCfdiFile } from './downloads.ts';
import { creditLineOf, creditOfferFor } from './line.ts';
import { statementOf } from './statement.ts';
import { renderStatementPdf } from './statement-pdf.ts';

const tags = ['crédito'];
const errors = { 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema };

/**
 * The institution's side of buying on account (decision 060): whether checkout may offer «A crédito», the estado de
 * cuenta (page and PDF) and the CFDI de pago downloads. The institution is the one the session buys for, and the
 * member's role must allow it (shared/institutions.ts); nothing comes from the browser but what it asks.
 */
export const creditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/credit/offer',
    {
      schema: {
        tags,
        summary: '¿Puede pagarse este total a crédito? (la decisión final se toma al colocar el pedido)',
        querystring: creditOfferQuerySchema,
        response: { 200: creditOfferSchema, ...errors },
      },
    },
    async (request, reply) => {
      await requireUser(request);
      reply.header('Cache-Control', 'no-store');
      const membership = await buyingFor(request);
      if (!membership || !canInstitution(membership.role, 'order.place_on_credit'))
        return { offered: false, label: null, reason: null, availableCents: null };
      const line = await creditLineOf(app.db, membership.institution.id, new Date());
      const offer = creditOfferFor(membership.institution, line, request.query.totalCents);
      return offer.offered
        ? { offered: true, label: offer.label, reason: null, availableCents: offer.availableCents }
        : { offered: false, label: null, reason: offer.reason, availableCents: offer.availableCents };
    },
  );

  app.get(
    '/api/credit/statement',
    {
      schema: {
        tags,
        summary: 'Estado de cuenta de la institución para la que compra la sesión',
        response: { 200: statementSchema, ...errors },
      },
    },
    async (request, reply) => {
      await requireUser(request);
      const { institution } = requireInstitution(await buyingFor(request), 'statement.read');
      reply.header('Cache-Control', 'private, no-store');
      return statementOf(app.db, institution.id, new Date());
    },
  );

  app.get(
    '/api/credit/statement.pdf',
    { schema: { tags, summary: 'Estado de cuenta en PDF (tamaño carta)' } },
    async (request, reply) => {
      await requireUser(request);
      const { institution } = requireInstitution(await buyingFor(request), 'statement.read');
      const statement = await statementOf(app.db, institution.id, new Date());
      return sendAttachment(request, reply, await renderStatementPdf(statement), {
        filename: `estado-de-cuenta-${statement.institution.rfc}-${statement.asOf.slice(0, 10)}.pdf`,
        type: 'application/pdf',
        cache: 'private',
      });
    },
  );

  for (const format of ['xml', 'pdf'] as const) {
    app.get(
      `/api/credit/payments/:id/cfdi.${format}`,
      {
        schema: {
          tags,
          summary: `CFDI de pago de un pago de la institución (${format.toUpperCase()})`,
          params: paymentIdParamsSchema,
        },
      },
      async (request, reply) => {
        await requireUser(request);
        const { institution } = requireInstitution(await buyingFor(request), 'statement.read');
        return sendAttachment(
          request,
          reply,
          ...(await paymentCfdiFile(app.db, request.params.id, format, institution.id)),
        );
      },
    );
  }
};
