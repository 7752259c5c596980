import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  cartQuoteSchema,
  cartWriteSchema,
  quoteRequestSchema,
  savedCartSchema,
} from '../../shared/schemas/cart.ts';
import { quickOrderRequestSchema, quickOrderResponseSchema } from '../../shared/schemas/quick-order.ts';
import { requireUser } from '../auth/session.ts';
import { buyingFor } from '../institutions/membership.ts';
import { resolveQuickOrder } from './quick-order.ts';
import { quoteCart, refuseOverLimit } from './quote.ts';
import { getSavedCart, mergeIntoSavedCart, replaceSavedCart } from './service.ts';

export const cartRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/cart/quote',
    {
      schema: {
        tags: ['carrito'],
        summary: 'Cotiza un carrito con los precios, existencias y pesos de la base de datos',
        description:
          'Solo se toman código y cantidad de cada artículo; cualquier otro campo se ignora. Los códigos desconocidos se informan por línea. Envío según el peso (configurable), IVA incluido.',
        body: quoteRequestSchema,
        response: { 200: cartQuoteSchema },
      },
    },
    async (request) => {
      // Buying for an institution: its contract prices (decision 059); the way it travels (decision 061).
      const institutionId = (await buyingFor(request))?.institution.id ?? null;
      const quote = await quoteCart(app.db, request.body.items, undefined, {
        institutionId,
        deliveryMethod: request.body.deliveryMethod,
      });
      refuseOverLimit(quote.totalCents, request.body.paymentMethod);
      return quote;
    },
  );

  app.post(
    '/api/quick-order/preview',
    {
      // 100 KB of file as base64 plus the cart's codes; anything larger is refused before it is read.
      bodyLimit: 256 * 1024,
      schema: {
        tags: ['carrito'],
        summary:
          'Pedido rápido: lee líneas «CÓDIGO CANTIDAD» (texto pegado, CSV o XLSX) y dice qué pasa con cada una',
        description:
          'No cambia nada: responde por línea si el producto se encontró, no existe (con sugerencias), está inactivo, ' +
          'sin existencia o por encima de la existencia (contando lo que ya hay en el carrito). Hasta 100 líneas; ' +
          'libros de Excel (.xlsx, primera hoja), archivos CSV o de texto de hasta 100 KB en UTF-8 o Latin-1.',
        body: quickOrderRequestSchema,
        response: { 200: quickOrderResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return resolveQuickOrder(app.db, request.body);
    },
  );

  // The signed-in shopper's saved cart (SPEC-NOTES 12): the user comes from the session cookie only.
  app.get(
    '/api/cart',
    {
      schema: {
        tags: ['carrito'],
        summary: 'Carrito guardado del cliente con sesión',
        response: { 200: savedCartSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      reply.header('Cache-Control', 'no-store');
      return { items: await getSavedCart(app.db, user.id) };
    },
  );

  app.put(
    '/api/cart',
    {
      schema: {
        tags: ['carrito'],
        summary: 'Reemplaza el carrito guardado (se descartan productos desconocidos o inactivos)',
        body: cartWriteSchema,
        response: { 200: savedCartSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return { items: await replaceSavedCart(app.db, user.id, request.body.items) };
    },
  );

  app.post(
    '/api/cart/merge',
    {
      schema: {
        tags: ['carrito'],
        summary:
          'Al iniciar sesión, une el carrito local con el guardado (cantidades limitadas por la existencia)',
        body: cartWriteSchema,
        response: { 200: savedCartSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return { items: await mergeIntoSavedCart(app.db, user.id, request.body.items) };
    },
  );
};
