import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminCancelOrderSchema,
  adminOrderActionResponseSchema,
  adminOrderDetailSchema,
  adminOrderListSchema,
  adminOrdersQuerySchema,
  orderNumberParamsSchema,
  shipOrderSchema,
} from '../../shared/schemas/admin.ts';
import { staffActor, staffContext } from './context.ts';
import {
  cancelOrderByStaff,
  deliverOrder,
  getAdminOrder,
  listAdminOrders,
  prepareOrder,
  shipOrder,
} from './orders-service.ts';

const tags = ['administración'];

export const orderAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/orders',
    {
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
    '/api/admin/orders/:number',
    {
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
      schema: {
        tags,
        summary: 'Pagado → En preparación',
        params: orderNumberParamsSchema,
        response: { 200: adminOrderActionResponseSchema },
      },
    },
    async (request) => {
      const order = await prepareOrder(
        staffContext(app, request),
        await staffActor(request),
        request.params.number,
      );
      return { message: `Pedido #${order.number} en preparación`, order };
    },
  );

  app.post(
    '/api/admin/orders/:number/ship',
    {
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
      const order = await shipOrder(
        staffContext(app, request),
        await staffActor(request),
        request.params.number,
        request.body,
      );
      return { message: `Pedido #${order.number} enviado; avisamos al cliente por correo`, order };
    },
  );

  app.post(
    '/api/admin/orders/:number/deliver',
    {
      schema: {
        tags,
        summary: 'Enviado → Entregado',
        params: orderNumberParamsSchema,
        response: { 200: adminOrderActionResponseSchema },
      },
    },
    async (request) => {
      const order = await deliverOrder(
        staffContext(app, request),
        await staffActor(request),
        request.params.number,
      );
      return { message: `Pedido #${order.number} entregado`, order };
    },
  );

  app.post(
    '/api/admin/orders/:number/cancel',
    {
      schema: {
        tags,
        summary: 'Cancela un pedido pagado o en preparación con reembolso total y un motivo',
        params: orderNumberParamsSchema,
        body: adminCancelOrderSchema,
        response: { 200: adminOrderActionResponseSchema },
      },
    },
    async (request) =>
      cancelOrderByStaff(
        staffContext(app, request),
        await staffActor(request),
        request.params.number,
        request.body.reason,
      ),
  );
};
