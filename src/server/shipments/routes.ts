import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminOrderActionResponseSchema } from '../../shared/schemas/admin.ts';
import { orderNumberParamsSchema } from '../../shared/schemas/common.ts';
import {
  createShipmentSchema,
  pickupCollectedSchema,
  pickupReadySchema,
  receiveGoodsResultSchema,
  receiveGoodsSchema,
} from '../../shared/schemas/shipments.ts';
import { staffRequest } from '../admin/context.ts';
import { getAdminOrder } from '../admin/orders-service.ts';
import { orderContext } from '../orders/context.ts';
import { collectPickup, readyForPickup } from './pickup.ts';
import { receiveGoods } from './receiving.ts';
import { createShipment, markShipmentDelivered } from './service.ts';

const tags = ['administración'];
const shipmentParamsSchema = orderNumberParamsSchema.extend({
  seq: z.coerce
    .number({ error: 'Envío no válido' })
    .int('Envío no válido')
    .min(1, 'Envío no válido')
    .max(10_000),
});

/** Issue 35: shipments, pickups at a branch and goods received (registered under the back office's guard). */
export const shipmentAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/admin/orders/:number/shipments',
    {
      config: { permission: 'pedidos.surtir' },
      schema: {
        tags,
        summary: 'Registra un envío (total o parcial) con paquetería y guía; avisa al cliente por correo',
        params: orderNumberParamsSchema,
        body: createShipmentSchema,
        response: { 200: adminOrderActionResponseSchema },
      },
    },
    async (request) => {
      const { number } = request.params;
      const sent = await createShipment(
        orderContext(app, request),
        number,
        await staffRequest(request),
        request.body,
      );
      return {
        message: `Envío ${sent.seq} del pedido #${number} registrado${sent.complete ? '' : ' (quedan artículos por enviar)'}; avisamos al cliente por correo`,
        order: await getAdminOrder(app.db, number),
      };
    },
  );

  app.post(
    '/api/admin/orders/:number/shipments/:seq/delivered',
    {
      config: { permission: 'pedidos.surtir' },
      schema: {
        tags,
        summary: 'Marca un envío como entregado; el último entregado deja el pedido «Entregado»',
        params: shipmentParamsSchema,
        response: { 200: adminOrderActionResponseSchema },
      },
    },
    async (request) => {
      const { number, seq } = request.params;
      await markShipmentDelivered(orderContext(app, request), number, seq, await staffRequest(request));
      return { message: `Envío ${seq} entregado`, order: await getAdminOrder(app.db, number) };
    },
  );

  app.post(
    '/api/admin/orders/:number/pickup-ready',
    {
      config: { permission: 'pedidos.surtir' },
      schema: {
        tags,
        summary: 'Listo para recoger en sucursal: código de recolección y correo al cliente',
        params: orderNumberParamsSchema,
        body: pickupReadySchema,
        response: { 200: adminOrderActionResponseSchema },
      },
    },
    async (request) => {
      const { number } = request.params;
      await readyForPickup(
        orderContext(app, request),
        number,
        await staffRequest(request),
        request.body.lines,
      );
      return {
        message: `Pedido #${number} listo para recoger; enviamos al cliente su código por correo`,
        order: await getAdminOrder(app.db, number),
      };
    },
  );

  app.post(
    '/api/admin/orders/:number/pickup-collected',
    {
      config: { permission: 'pedidos.surtir' },
      schema: {
        tags,
        summary: 'Recogido en sucursal: código, nombre e identificación de quien lo recoge',
        params: orderNumberParamsSchema,
        body: pickupCollectedSchema,
        response: { 200: adminOrderActionResponseSchema },
      },
    },
    async (request) => {
      const { number } = request.params;
      await collectPickup(orderContext(app, request), number, await staffRequest(request), request.body);
      return {
        message: `Pedido #${number} recogido por ${request.body.name}`,
        order: await getAdminOrder(app.db, number),
      };
    },
  );

  app.post(
    '/api/admin/stock/receipts',
    {
      config: { permission: 'existencias.gestionar' },
      schema: {
        tags,
        summary: 'Mercancía recibida: surte primero lo sobre pedido de los pedidos más antiguos',
        body: receiveGoodsSchema,
        response: { 200: receiveGoodsResultSchema },
      },
    },
    async (request) => {
      const result = await receiveGoods(app.db, await staffRequest(request), request.body);
      // The orders now ready to ship, so staff know which to send next.
      const filled = [...new Set(result.allocations.map((a) => `#${a.orderNumber}`))];
      return {
        ...result,
        message:
          filled.length === 0
            ? `Recibidas ${request.body.quantity} unidades; ningún pedido las esperaba: pasan a existencias`
            : `Recibidas ${request.body.quantity} unidades: surtimos ${filled.length === 1 ? 'el pedido' : 'los pedidos'} ${filled.join(', ')}, ${filled.length === 1 ? 'listo' : 'listos'} para su siguiente envío${result.toStock > 0 ? `; ${result.toStock} pasan a existencias` : ''}`,
      };
    },
  );
};
