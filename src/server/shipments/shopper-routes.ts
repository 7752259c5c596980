import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { orderNumberParamsSchema } from '../../shared/schemas/common.ts';
import { cancelOrderResponseSchema } from '../../shared/schemas/orders.ts';
import { requireUser } from '../auth/session.ts';
import { orderContext } from '../orders/context.ts';
import { getOrder } from '../orders/history.ts';
import { cancelLateBackorder } from './late.ts';

const lineParamsSchema = orderNumberParamsSchema.extend({
  lineNo: z.coerce
    .number({ error: 'Artículo no válido' })
    .int('Artículo no válido')
    .min(1, 'Artículo no válido')
    .max(10_000),
});

/** Issue 35: the buyer gives up the late 'sobre pedido' units of one line, refunded by the way they paid. */
export const shipmentShopperRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/orders/:number/lines/:lineNo/cancel-backorder',
    {
      schema: {
        tags: ['pedidos'],
        summary: 'Cancela lo sobre pedido retrasado de un artículo, con reembolso',
        params: lineParamsSchema,
        response: { 200: cancelOrderResponseSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      reply.header('Cache-Control', 'no-store');
      const { number, lineNo } = request.params;
      const { refund } = await cancelLateBackorder(orderContext(app, request), number, lineNo, {
        kind: 'shopper',
        userId: user.id,
      });
      const order = await getOrder(app.db, user.id, number);
      const view = order.refunds.find((r) => r.amountCents === refund.amountCents) ?? order.refunds.at(-1);
      return { message: `Cancelamos lo pendiente de ese artículo. ${view?.sentence ?? ''}`.trim(), order };
    },
  );
};
