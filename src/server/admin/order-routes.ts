import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { formatMoney } from '../../shared/money.ts';
import {
  adminCancelOrderSchema,
  adminDelayedPaymentsSchema,
  adminOrderActionResponseSchema,
  adminOrderDetailSchema,
  adminOrderListSchema,
  adminOrdersQuerySchema,
  releaseUnpaidOrderSchema,
  shipOrderSchema,
} from '../../shared/schemas/admin.ts';
import { orderNumberParamsSchema } from '../../shared/schemas/common.ts';
import { unpaidHoldsSchema } from '../../shared/schemas/orders.ts';
import { invoiceShippedOnCredit } from '../credit/invoice-ppd.ts';
import { createInvoicingContext, type InvoicingContext } from '../invoices/context.ts';
import { listUnpaidHolds, releaseUnpaidOrder } from '../orders/abandon.ts';
import { cancelOrder } from '../orders/cancellation.ts';
import { orderContext } from '../orders/context.ts';
import { advanceOrder } from '../orders/fulfilment.ts';
import { staffRequest } from './context.ts';
import { delayedPayments, getAdminOrder, listAdminOrders } from './orders-service.ts';

const tags = ['administración'];

export const orderAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  // Made on first use: only an order on credit needs it here (its invoice PPD at shipment).
  let invoicing: InvoicingContext | undefined;
  const invoicingContext = () => {
    invoicing ??= createInvoicingContext(app.config, app.db, { log: app.log });
    return invoicing;
  };
  app.get(
    '/api/admin/orders',
    {
      config: { permission: 'pedidos.ver' },
      schema: {
        tags,
        summary: 'Pedidos: filtros por estado, fechas y búsqueda por número, correo o RFC',
        querystring: adminOrdersQuerySchema,
        response: { 200: adminOrderListSchema },
      },
    },
    async (request) => listAdminOrders(app.db, request.query),
  );

  app.get(
    '/api/admin/payments/delayed',
    {
      config: { permission: 'pedidos.ver' },
      schema: {
        tags,
        summary: 'Pagos SPEI y en tienda: pendientes con su fecha límite, y pagos recibidos fuera de plazo',
        response: { 200: adminDelayedPaymentsSchema },
      },
    },
    async () => delayedPayments(app.db),
  );

  app.get(
    '/api/admin/orders/:number',
    {
      config: { permission: 'pedidos.ver' },
      schema: {
        tags,
        summary: 'Detalle de un pedido, acciones posibles e historial',
        params: orderNumberParamsSchema,
        response: { 200: adminOrderDetailSchema },
      },
    },
    async (request) => getAdminOrder(app.db, request.params.number),
  );

  app.post(
    '/api/admin/orders/:number/prepare',
    {
      config: { permission: 'pedidos.surtir' },
      schema: {
        tags,
        summary: 'Pagado → En preparación',
        params: orderNumberParamsSchema,
        response: { 200: adminOrderActionResponseSchema },
      },
    },
    async (request) => {
      const { number } = request.params;
      await advanceOrder(orderContext(app, request), number, await staffRequest(request), 'prepare');
      return { message: `Pedido #${number} en preparación`, order: await getAdminOrder(app.db, number) };
    },
  );

  app.post(
    '/api/admin/orders/:number/ship',
    {
      config: { permission: 'pedidos.surtir' },
      schema: {
        tags,
        summary:
          'En preparación → Enviado, con guía, paquetería y fecha de entrega; avisa al cliente por correo',
        params: orderNumberParamsSchema,
        body: shipOrderSchema,
        response: { 200: adminOrderActionResponseSchema },
      },
    },
    async (request) => {
      const { number } = request.params;
      await advanceOrder(
        orderContext(app, request),
        number,
        await staffRequest(request),
        'ship',
        request.body,
      );
      // An order on credit is invoiced (PPD) when it ships (decision 060).
      await invoiceShippedOnCredit(app.db, invoicingContext, number);
      return {
        message: `Pedido #${number} enviado; avisamos al cliente por correo`,
        order: await getAdminOrder(app.db, number),
      };
    },
  );

  app.post(
    '/api/admin/orders/:number/deliver',
    {
      config: { permission: 'pedidos.surtir' },
      schema: {
        tags,
        summary: 'Enviado → Entregado',
        params: orderNumberParamsSchema,
        response: { 200: adminOrderActionResponseSchema },
      },
    },
    async (request) => {
      const { number } = request.params;
      await advanceOrder(orderContext(app, request), number, await staffRequest(request), 'deliver');
      return { message: `Pedido #${number} entregado`, order: await getAdminOrder(app.db, number) };
    },
  );

  app.post(
    '/api/admin/orders/:number/cancel',
    {
      config: { permission: 'dinero.reembolsar' },
      schema: {
        tags,
        summary: 'Cancela un pedido pagado o en preparación con reembolso total y un motivo',
        params: orderNumberParamsSchema,
        body: adminCancelOrderSchema,
        response: { 200: adminOrderActionResponseSchema },
      },
    },
    async (request) => {
      const { number } = request.params;
      const who = { ...(await staffRequest(request)), reason: request.body.reason };
      const { refundedCents, owedCents } = await cancelOrder(orderContext(app, request), number, who);
      return {
        message:
          owedCents > 0
            ? `Pedido #${number} cancelado. Se deben ${formatMoney(owedCents)} al cliente: se pagan por transferencia a su CLABE (Reembolsos pendientes).`
            : `Pedido #${number} cancelado. Se reembolsaron ${formatMoney(refundedCents)} a la tarjeta del cliente.`,
        order: await getAdminOrder(app.db, number),
      };
    },
  );

  app.get(
    '/api/admin/unpaid-holds',
    {
      config: { permission: 'pedidos.ver' },
      schema: {
        tags,
        summary: 'Existencias apartadas por pedidos SPEI y en tienda sin pagar, por producto',
        response: { 200: unpaidHoldsSchema },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return listUnpaidHolds(app.db);
    },
  );

  app.post(
    '/api/admin/orders/:number/release',
    {
      config: { permission: 'pedidos.surtir' },
      schema: {
        tags,
        summary: 'Libera las existencias de un pedido SPEI o en tienda sin pagar (lo cancela, con motivo)',
        params: orderNumberParamsSchema,
        body: releaseUnpaidOrderSchema,
        response: { 200: adminOrderActionResponseSchema },
      },
    },
    async (request) => {
      const { number } = request.params;
      const who = { ...(await staffRequest(request)), reason: request.body.reason };
      await releaseUnpaidOrder(orderContext(app, request), number, who);
      return {
        message: `Pedido #${number} cancelado y sus existencias liberadas`,
        order: await getAdminOrder(app.db, number),
      };
    },
  );
};
