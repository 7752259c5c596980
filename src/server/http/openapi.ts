import type { FastifyInstance } from 'fastify';
import { errorEnvelopeSchema } from '../../shared/schemas/errors.ts';

/**
 * Every /api route answers its errors in the one envelope of src/shared/schemas/errors.ts (the error handler
 * in http/errors.ts writes it): declared here once for all of them as the 4XX and 5XX responses of the OpenAPI
 * document, which also makes the serializer check each error body. A route's entry for a specific status
 * (402 declined payment, Openpay's 400/412/422 of the sandbox tokens) still wins over the ranges.
 * Call before registering the routes.
 */
export function documentErrorResponses(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || !route.schema || route.schema.hide) return;
    route.schema.response = {
      '4xx': errorEnvelopeSchema,
      '5xx': errorEnvelopeSchema,
      ...(route.schema.response as Record<string, unknown> | undefined),
    };
  });
}
