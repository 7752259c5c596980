import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  cancelOrderResponseSchema,
  idempotencyKeySchema,
  orderDetailSchema,
  orderListSchema,
  orderNumberParamsSchema,
  placeOrderResponseSchema,
  placeOrderSchema,
} from '../../shared/schemas/orders.ts';
import { requireUser } from '../auth/session.ts';
import { checkoutContext } from '../payments/routes.ts';
import { cancelOrder, getOrder, listOrders, placeOrder } from './service.ts';
import { startSweeper } from './sweeper.ts';

const errorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});

export const ordersRoutes: FastifyPluginAsyncZod = async (app) => {
  let stopSweeper: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    stopSweeper = startSweeper({
      db: app.db,
      gateway: app.paymentGateway,
      publicUrl: app.config.publicUrl,
      log: app.log,
    });
  });
  app.addHook('onClose', async () => {
    await stopSweeper?.();
  });

  app.post(
    '/api/orders',
    {
      schema: {
        tags: ['pedidos'],
        summary: 'Compra: reserva existencias, calcula el total en el servidor y cobra la tarjeta',
        headers: z.object({ 'idempotency-key': idempotencyKeySchema }),
        body: placeOrderSchema,
        response: {
          200: placeOrderResponseSchema,
          201: placeOrderResponseSchema,
          402: errorSchema,
          409: errorSchema,
          503: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const answer = await placeOrder(
        checkoutContext(app, request),
        user,
        request.headers['idempotency-key'],
        request.body,
      );
      return reply
        .header('Cache-Control', 'no-store')
        .code(answer.status as 201)
        .send(answer.body as never);
    },
  );

  app.get(
    '/api/orders',
    {
      schema: {
        tags: ['pedidos'],
        summary: 'Historial de pedidos del usuario de la sesión',
        response: { 200: orderListSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      reply.header('Cache-Control', 'no-store');
      return listOrders(app.db, user.id);
    },
  );

  app.get(
    '/api/orders/:number',
    {
      schema: {
        tags: ['pedidos'],
        summary: 'Detalle y recibo de un pedido propio',
        params: orderNumberParamsSchema,
        response: { 200: orderDetailSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      reply.header('Cache-Control', 'no-store');
      return getOrder(app.db, user.id, request.params.number);
    },
  );

  app.post(
    '/api/orders/:number/cancel',
    {
      schema: {
        tags: ['pedidos'],
        summary: 'Cancela un pedido pagado sin factura ni guía: reembolso inmediato',
        params: orderNumberParamsSchema,
        response: { 200: cancelOrderResponseSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      reply.header('Cache-Control', 'no-store');
      return cancelOrder(checkoutContext(app, request), user.id, request.params.number);
    },
  );
};
