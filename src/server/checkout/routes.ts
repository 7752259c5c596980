import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema } from '../../shared/schemas/errors.ts';
import {
  idempotencyKeySchema,
  placeOrderResponseSchema,
  placeOrderSchema,
} from '../../shared/schemas/orders.ts';
import { requireUser } from '../auth/session.ts';
import { buyingFor } from '../institutions/membership.ts';
import { refuseUnlessMayPlace } from '../institutions/order-rules.ts';
import { orderContext } from '../orders/context.ts';
import { type PlaceOrderResult, placeOrder } from './place-order.ts';

const error = (code: string, message: string) => ({ error: { code, message } });

/** The HTTP answer of each checkout result: the same on the first request and on every replay of its key. */
function reply(result: PlaceOrderResult) {
  switch (result.kind) {
    case 'paid':
      return { status: 201, body: { number: result.number } } as const;
    case 'awaiting':
      return { status: 202, body: { number: result.number, awaitingPayment: true } } as const;
    case 'redirect':
      return { status: 200, body: { number: result.number, redirectUrl: result.redirectUrl } } as const;
    case 'failed':
      return { status: 402, body: error('payment_declined', result.message) } as const;
    case 'error':
      return { status: 503, body: error('payment_error', result.message) } as const;
    case 'refused':
      return { status: 409, body: error(result.code, result.message) } as const;
    case 'key_mismatch':
      return {
        status: 409,
        body: error(
          'idempotency_mismatch',
          'Esta clave de idempotencia ya se usó con otra solicitud. Recargue la página e intente de nuevo.',
        ),
      } as const;
    case 'key_busy':
      return {
        status: 409,
        body: error('idempotency_in_progress', 'Su pago ya se está procesando. Espere un momento.'),
      } as const;
    case 'unknown':
      return {
        status: 503,
        body: error(
          'payment_unknown',
          'No pudimos confirmar el pago con el banco. Revise su historial de pedidos en unos minutos antes de intentar de nuevo.',
        ),
      } as const;
  }
}

/** POST /api/orders (the sweeper of expired reservations and interrupted cancellations is a job: jobs.ts). */
export const checkoutRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/orders',
    {
      schema: {
        tags: ['pedidos'],
        summary:
          'Compra: reserva existencias, calcula el total en el servidor y cobra la tarjeta (o da la referencia SPEI / de tienda)',
        headers: z.object({ 'idempotency-key': idempotencyKeySchema }),
        body: placeOrderSchema,
        response: {
          200: placeOrderResponseSchema,
          201: placeOrderResponseSchema,
          202: placeOrderResponseSchema,
          402: errorEnvelopeSchema,
          409: errorEnvelopeSchema,
          503: errorEnvelopeSchema,
        },
      },
    },
    async (request, res) => {
      const user = await requireUser(request);
      // Buying for an institution: its rules — only a comprador or the administrador places its orders, a
      // solicitante sends the cart for approval (decision 058) — and its contract prices (decision 059).
      const buying = await buyingFor(request);
      if (buying)
        refuseUnlessMayPlace(
          buying,
          request.body.paymentMethod === 'credit' ? 'order.place_on_credit' : 'order.place',
        );
      const result = await placeOrder(
        orderContext(app, request),
        user,
        request.headers['idempotency-key'],
        request.body,
        { buyingFor: buying },
      );
      const { status, body } = reply(result);
      return res.header('Cache-Control', 'no-store').code(status).send(body);
    },
  );
};
