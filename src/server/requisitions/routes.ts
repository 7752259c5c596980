import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  approveSchema,
  createRequisitionSchema,
  decisionResponseSchema,
  decisionSchema,
  placeRequisitionSchema,
  requisitionContextSchema,
  requisitionDetailSchema,
  requisitionFieldsSchema,
  requisitionIdParamsSchema,
  requisitionListSchema,
  requisitionTrailSchema,
} from '../../shared/schemas/requisitions.ts';
import { requireUser } from '../auth/session.ts';
import { buyingFor, requireInstitution } from '../institutions/membership.ts';
import { orderContext } from '../orders/context.ts';
import { cancel, resend } from './decisions.ts';
import { approveAndPlace, decideAndRead, placeAndRead, requisitionContextOf } from './flow.ts';
import { detailOf, listRequisitions, visibleRequisition } from './read.ts';
import { createRequisition, type RequisitionCtx } from './service.ts';
import { institutionTrail } from './trail.ts';

const tags = ['requisiciones'];
const params = requisitionIdParamsSchema;

/** Requisitions of the institution the session buys for (issue 34, decision 059). */
export const requisitionRoutes: FastifyPluginAsyncZod = async (app) => {
  const ctx: RequisitionCtx = { db: app.db, publicUrl: app.config.publicUrl };
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'private, no-store');
  });

  app.get(
    '/api/requisitions/context',
    {
      schema: {
        tags,
        summary: 'La institución para la que compra la sesión y su papel en ella (o ninguna)',
        response: { 200: requisitionContextSchema },
      },
    },
    async (request) => {
      await requireUser(request);
      return requisitionContextOf(await buyingFor(request));
    },
  );

  app.get(
    '/api/requisitions',
    {
      schema: {
        tags,
        summary: 'Requisiciones: las propias (solicitante) o las de la institución',
        response: { 200: requisitionListSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const m = requireInstitution(await buyingFor(request), 'requisition.create');
      return listRequisitions(app.db, m, user.id);
    },
  );

  app.post(
    '/api/requisitions',
    {
      schema: {
        tags,
        summary: 'Envía el carrito (o una cotización vigente propia) a aprobación',
        body: createRequisitionSchema,
        response: { 201: requisitionDetailSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const detail = await createRequisition(ctx, user, await buyingFor(request), request.body);
      return reply.code(201).send(detail);
    },
  );

  app.get(
    '/api/requisitions/trail',
    {
      schema: {
        tags,
        summary: 'Bitácora de las requisiciones de la institución (administrador)',
        response: { 200: requisitionTrailSchema },
      },
    },
    async (request) => {
      await requireUser(request);
      return institutionTrail(app.db, await buyingFor(request));
    },
  );

  app.get(
    '/api/requisitions/:id',
    { schema: { tags, summary: 'Una requisición', params, response: { 200: requisitionDetailSchema } } },
    async (request) => {
      const user = await requireUser(request);
      const m = requireInstitution(await buyingFor(request), 'requisition.create');
      return detailOf(app.db, m, user.id, await visibleRequisition(app.db, m, user.id, request.params.id));
    },
  );

  app.post(
    '/api/requisitions/:id/approve',
    {
      schema: {
        tags,
        summary: 'Aprueba (y, si la institución así lo tiene, coloca el pedido de inmediato)',
        params,
        body: approveSchema,
        response: { 200: decisionResponseSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return approveAndPlace(
        ctx,
        orderContext(app, request),
        user,
        await buyingFor(request),
        request.params.id,
        request.body.reason || null,
      );
    },
  );

  for (const event of ['reject', 'return'] as const)
    app.post(
      `/api/requisitions/:id/${event}`,
      {
        schema: {
          tags,
          summary: event === 'reject' ? 'Rechaza con un motivo' : 'Devuelve para cambios, diciendo cuáles',
          params,
          body: decisionSchema,
          response: { 200: decisionResponseSchema },
        },
      },
      async (request) => {
        const user = await requireUser(request);
        return decideAndRead(
          ctx,
          user,
          await buyingFor(request),
          request.params.id,
          event,
          request.body.reason,
        );
      },
    );

  app.post(
    '/api/requisitions/:id/resend',
    {
      schema: {
        tags,
        summary: 'Reenvía a aprobación una requisición devuelta, con la nota y los campos corregidos',
        params,
        body: requisitionFieldsSchema,
        response: { 200: requisitionDetailSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return resend(ctx, user, await buyingFor(request), request.params.id, request.body);
    },
  );

  app.post(
    '/api/requisitions/:id/cancel',
    {
      schema: {
        tags,
        summary: 'Cancela una requisición que aún no se coloca',
        params,
        body: z.object({ reason: approveSchema.shape.reason }),
        response: { 200: requisitionDetailSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return cancel(ctx, user, await buyingFor(request), request.params.id, request.body.reason || null);
    },
  );

  app.post(
    '/api/requisitions/:id/place',
    {
      schema: {
        tags,
        summary: 'Coloca el pedido de una requisición aprobada, a los precios cotizados (pago por SPEI)',
        params,
        body: placeRequisitionSchema,
        response: { 200: decisionResponseSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return placeAndRead(
        ctx,
        orderContext(app, request),
        user,
        await buyingFor(request),
        request.params.id,
        request.body.purchaseOrder,
      );
    },
  );
};
