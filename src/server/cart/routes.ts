import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cartQuoteSchema, quoteRequestSchema } from '../../shared/schemas/cart.ts';
import { quoteCart } from './quote.ts';

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
    async (request) => quoteCart(app.db, request.body.items),
  );
};
