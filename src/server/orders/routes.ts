import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { orderNumberParamsSchema } from '../../shared/schemas/common.ts';
import {
  cancelOrderResponseSchema,
  orderDetailSchema,
  orderListSchema,
} from '../../shared/schemas/orders.ts';
import { refundAccountSchema } from '../../shared/schemas/refunds.ts';
import { requireUser } from '../auth/session.ts';
import { abandonUnpaidOrder } from './abandon.ts';
import { cancelOrder } from './cancellation.ts';
import { orderContext } from './context.ts';
import { getOrder, listOrders } from './history.ts';
import { setRefundAccount } from './refunds-owed.ts';

/** The shopper's history, receipt and cancellation (their own orders only). */
export const ordersRoutes: FastifyPluginAsyncZod = async (app) => {
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
      const { number } = request.params;
      await cancelOrder(orderContext(app, request), number, { kind: 'shopper', userId: user.id });
      const order = await getOrder(app.db, user.id, number);
      const refund = order.refunds.at(-1);
      return { message: `Pedido #${number} cancelado. ${refund?.sentence ?? ''}`.trim(), order };
    },
  );

  app.post(
    '/api/orders/:number/refund-account',
    {
      schema: {
        tags: ['pedidos'],
        summary: 'La cuenta CLABE a la que se le devuelve un pago por SPEI o en efectivo',
        params: orderNumberParamsSchema,
        body: refundAccountSchema,
        response: { 200: cancelOrderResponseSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      reply.header('Cache-Control', 'no-store');
      const { number } = request.params;
      await setRefundAccount(
        orderContext(app, request),
        number,
        { kind: 'shopper', userId: user.id },
        request.body,
      );
      const order = await getOrder(app.db, user.id, number);
      const refund = order.refunds.at(-1);
      return { message: refund?.sentence ?? 'Cuenta registrada', order };
    },
  );

  app.post(
    '/api/orders/:number/abandon',
    {
      schema: {
        tags: ['pedidos'],
        summary: 'Abandona un pedido propio pendiente de pago por SPEI o en tienda: libera sus existencias',
        params: orderNumberParamsSchema,
        response: { 200: cancelOrderResponseSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      reply.header('Cache-Control', 'no-store');
      const { number } = request.params;
      await abandonUnpaidOrder(orderContext(app, request), number, { kind: 'shopper', userId: user.id });
      return {
        message: `Pedido #${number} cancelado. La referencia de pago ya no es válida.`,
        order: await getOrder(app.db, user.id, number),
      };
    },
  );
};
