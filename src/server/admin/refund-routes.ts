import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { formatMoney } from '../../shared/money.ts';
import { adminOrderActionResponseSchema } from '../../shared/schemas/admin.ts';
import { orderNumberParamsSchema } from '../../shared/schemas/common.ts';
import {
  openRefundsResponseSchema,
  partialRefundSchema,
  refundAccountSchema,
  refundIdParamsSchema,
  refundTransferSchema,
} from '../../shared/schemas/refunds.ts';
import { orderContext } from '../orders/context.ts';
import { refundPart } from '../orders/partial-refund.ts';
import { openRefunds } from '../orders/refunds.ts';
import { payRefundByPayout, recordRefundTransfer, setRefundAccount } from '../orders/refunds-owed.ts';
import { staffRequest } from './context.ts';
import { getAdminOrder } from './orders-service.ts';

const tags = ['administración'];

/**
 * Money going back (decision 045): the queue of refunds not yet paid, a partial refund of an order, and the ways
 * staff pay what is owed to SPEI and cash buyers (an Openpay payout to the CLABE, or a transfer made outside).
 */
export const refundAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/refunds',
    {
      config: { permission: 'dinero.reembolsar' },
      schema: {
        tags,
        summary: 'Reembolsos pendientes y en proceso, el más antiguo primero, con su antigüedad',
        response: { 200: openRefundsResponseSchema },
      },
    },
    async () => ({ refunds: await openRefunds(app.db) }),
  );

  app.post(
    '/api/admin/orders/:number/refunds',
    {
      config: { permission: 'dinero.reembolsar' },
      schema: {
        tags,
        summary:
          'Reembolso parcial de un pedido pagado: a la tarjeta por Openpay, o pendiente a la CLABE del cliente',
        params: orderNumberParamsSchema,
        body: partialRefundSchema,
        response: { 200: adminOrderActionResponseSchema },
      },
    },
    async (request) => {
      const { number } = request.params;
      const { refund, outcome } = await refundPart(
        orderContext(app, request),
        number,
        await staffRequest(request),
        request.body,
      );
      return {
        message:
          outcome === 'refunded'
            ? `Se reembolsaron ${formatMoney(refund.amountCents)} a la tarjeta del cliente.`
            : `Reembolso de ${formatMoney(refund.amountCents)} registrado como pendiente: se paga por transferencia a la CLABE del cliente.`,
        order: await getAdminOrder(app.db, number),
      };
    },
  );

  app.post(
    '/api/admin/orders/:number/refund-account',
    {
      config: { permission: 'dinero.reembolsar' },
      schema: {
        tags,
        summary: 'Registra la cuenta CLABE a la que se pagan los reembolsos pendientes del pedido',
        params: orderNumberParamsSchema,
        body: refundAccountSchema,
        response: { 200: adminOrderActionResponseSchema },
      },
    },
    async (request) => {
      const { number } = request.params;
      await setRefundAccount(orderContext(app, request), number, await staffRequest(request), request.body);
      return { message: 'Cuenta CLABE registrada', order: await getAdminOrder(app.db, number) };
    },
  );

  app.post(
    '/api/admin/refunds/:id/payout',
    {
      config: { permission: 'dinero.reembolsar' },
      schema: {
        tags,
        summary: 'Paga un reembolso pendiente con un pago de Openpay a la CLABE del cliente',
        params: refundIdParamsSchema,
        response: { 200: adminOrderActionResponseSchema },
      },
    },
    async (request) => {
      const refund = await payRefundByPayout(
        orderContext(app, request),
        request.params.id,
        await staffRequest(request),
      );
      const message =
        refund.state === 'done'
          ? `Openpay transfirió ${formatMoney(refund.amountCents)} a la CLABE terminada en ${refund.clabe?.slice(-4)}`
          : refund.state === 'in_progress'
            ? `Openpay recibió el pago de ${formatMoney(refund.amountCents)}; se confirmará cuando lo ejecute`
            : `Openpay rechazó el pago: ${refund.errorMessage ?? 'sin detalle'}. El reembolso sigue pendiente.`;
      return { message, order: await getAdminOrder(app.db, refund.orderNumber) };
    },
  );

  app.post(
    '/api/admin/refunds/:id/transfer',
    {
      config: { permission: 'dinero.reembolsar' },
      schema: {
        tags,
        summary: 'Registra una transferencia hecha desde el banco de la tienda para un reembolso pendiente',
        params: refundIdParamsSchema,
        body: refundTransferSchema,
        response: { 200: adminOrderActionResponseSchema },
      },
    },
    async (request) => {
      const refund = await recordRefundTransfer(
        orderContext(app, request),
        request.params.id,
        await staffRequest(request),
        request.body,
      );
      return {
        message: `Transferencia de ${formatMoney(refund.amountCents)} registrada`,
        order: await getAdminOrder(app.db, refund.orderNumber),
      };
    },
  );
};
