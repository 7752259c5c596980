import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { orderNumberParamsSchema } from '../../shared/schemas/common.ts';
import {
  authorizeReturnSchema,
  orderReturnsSchema,
  receiveReturnSchema,
  refundReturnSchema,
  returnActionResponseSchema,
  returnIdParamsSchema,
  returnListQuerySchema,
  returnListSchema,
  returnPhotoParamsSchema,
  returnRequestSchema,
  returnViewSchema,
  staffReasonSchema,
} from '../../shared/schemas/returns.ts';
import type { StaffPermission } from '../../shared/staff-roles.ts';
import { staffRequest } from '../admin/context.ts';
import { requireStaff } from '../admin/guard.ts';
import { requireUser } from '../auth/session.ts';
import { orders } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { orderContext } from '../orders/context.ts';
import { orderReturns } from './eligibility.ts';
import { moveReturn, RETURN_NOT_FOUND, type ReturnMove } from './machine.ts';
import { requestReturn } from './request.ts';
import { listReturns, returnById, returnPhoto, returnsOfOrder } from './view.ts';

const MB = 1024 * 1024;
const tags = ['devoluciones'];

/** Returns (RMA, decision 062): the buyer's request and its state; staff's «Devoluciones» and its steps. */
export const returnsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/orders/:number/returns',
    {
      schema: {
        tags,
        summary: 'Devoluciones de un pedido propio: plazo, productos que se pueden devolver y solicitudes',
        params: orderNumberParamsSchema,
        response: { 200: orderReturnsSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      reply.header('Cache-Control', 'no-store');
      const [order] = await app.db.select().from(orders).where(eq(orders.number, request.params.number));
      if (!order || order.userId !== user.id) throw notFound('Pedido no encontrado');
      return orderReturns(app.db, order);
    },
  );

  app.post(
    '/api/orders/:number/returns',
    {
      // Up to 4 photos of 5 MB each, in base64.
      bodyLimit: 28 * MB,
      config: { rateLimit: { max: 10, timeWindow: 60_000 } },
      schema: {
        tags,
        summary: 'Solicita la devolución de productos de un pedido entregado, con motivo y fotos',
        params: orderNumberParamsSchema,
        body: returnRequestSchema,
        response: { 201: returnActionResponseSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const view = await requestReturn(
        orderContext(app, request),
        user.id,
        request.params.number,
        request.body,
      );
      reply.code(201);
      return {
        message: `Recibimos su solicitud de devolución #${view.id}; le responderemos en un máximo de dos días hábiles.`,
        return: view,
      };
    },
  );

  app.get(
    '/api/returns/:id/photos/:photoId',
    {
      schema: {
        tags,
        summary: 'Una foto de una devolución (su comprador o el personal)',
        params: returnPhotoParamsSchema,
        response: { 200: z.any() },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const photo = await returnPhoto(app.db, request.params.id, request.params.photoId);
      if (!photo || (photo.userId !== user.id && user.role !== 'staff')) throw notFound('Foto no encontrada');
      reply.header('Cache-Control', 'private, no-store');
      reply.header('Content-Security-Policy', "default-src 'none'");
      reply.header('X-Content-Type-Options', 'nosniff');
      return reply.type(photo.contentType).send(photo.data);
    },
  );

  await app.register(staffReturnRoutes);
};

const staffReturnRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', async (request, reply) => {
    await requireStaff(request);
    reply.header('Cache-Control', 'no-store');
  });

  app.get(
    '/api/admin/returns',
    {
      config: { permission: 'devoluciones.gestionar' },
      schema: {
        tags,
        summary: 'Devoluciones, las más recientes primero (por estado)',
        querystring: returnListQuerySchema,
        response: { 200: returnListSchema },
      },
    },
    async (request) => ({ items: await listReturns(app.db, request.query.state) }),
  );

  app.get(
    '/api/admin/returns/:id',
    {
      config: { permission: 'devoluciones.gestionar' },
      schema: {
        tags,
        summary: 'Una devolución',
        params: returnIdParamsSchema,
        response: { 200: returnViewSchema },
      },
    },
    async (request) => {
      const view = await returnById(app.db, request.params.id, true);
      if (!view) throw notFound(RETURN_NOT_FOUND);
      return view;
    },
  );

  app.get(
    '/api/admin/orders/:number/returns',
    {
      config: { permission: 'devoluciones.gestionar' },
      schema: {
        tags,
        summary: 'Devoluciones de un pedido',
        params: orderNumberParamsSchema,
        response: { 200: returnListSchema },
      },
    },
    async (request) => ({ items: await returnsOfOrder(app.db, request.params.number, true) }),
  );

  const step = <S extends z.ZodType>(
    path: string,
    summary: string,
    body: S,
    toMove: (body: z.infer<S>) => ReturnMove,
    permission: StaffPermission = 'devoluciones.gestionar',
  ) =>
    app.post(
      `/api/admin/returns/:id/${path}`,
      {
        config: { permission },
        schema: {
          tags,
          summary,
          params: returnIdParamsSchema,
          body,
          response: { 200: returnActionResponseSchema },
        },
      },
      async (request) => {
        const { view, message } = await moveReturn(
          orderContext(app, request),
          request.params.id,
          await staffRequest(request),
          toMove(request.body as z.infer<S>),
        );
        return { message, return: view };
      },
    );

  step(
    'authorize',
    'Autoriza la devolución con las instrucciones de envío (y la guía)',
    authorizeReturnSchema,
    (b) => ({
      event: 'authorize',
      ...b,
    }),
  );
  step('refuse', 'Rechaza la solicitud con el motivo', staffReasonSchema, (b) => ({ event: 'refuse', ...b }));
  step('receive', 'Registra que la mercancía llegó', receiveReturnSchema, (b) => ({
    event: 'receive',
    ...b,
  }));
  step(
    'refund',
    'Revisada: regresa cada producto a la venta o a cuarentena y reembolsa por la vía del pago, con su nota de crédito',
    refundReturnSchema,
    (b) => ({ event: 'refund', ...b }),
    'dinero.reembolsar',
  );
  step('close', 'Revisada y no procede: cierra sin reembolso, con el motivo', staffReasonSchema, (b) => ({
    event: 'close',
    ...b,
  }));
};
