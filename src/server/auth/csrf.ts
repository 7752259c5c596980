import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../http/errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** true for endpoints called by other servers (payment webhooks): no Origin/JSON check. */
    csrfExempt?: boolean;
  }
}

/**
 * Paths exempt from the checks, for callers that are not the shop's pages. Prefer the route option
 * `config: { csrfExempt: true }` next to the route; this list is for paths known in advance.
 */
export const CSRF_EXEMPT_PATHS = new Set<string>(['/api/payments/openpay/webhook']);

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const FOREIGN_ORIGIN = 'Solicitud rechazada: el origen no está permitido';
export const JSON_REQUIRED = 'Tipo de contenido no admitido; envíe JSON';

function hasBody(request: FastifyRequest) {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/**
 * CSRF defence for state-changing API calls (with SameSite=Lax cookies as the first layer):
 * an Origin header, when present, must be the shop's own; the body must be JSON, which a
 * cross-site HTML form cannot send.
 */
export const csrfPlugin = fp(async (app: FastifyInstance) => {
  const publicOrigin = new URL(app.config.publicUrl).origin;
  app.addHook('onRequest', async (request) => {
    if (!STATE_CHANGING.has(request.method)) return;
    const path = request.url.split('?')[0] ?? '';
    if (!path.startsWith('/api/')) return;
    if (request.routeOptions.config?.csrfExempt || CSRF_EXEMPT_PATHS.has(path)) return;

    const origin = request.headers.origin;
    if (origin !== undefined) {
      const own = `${request.protocol}://${request.host}`;
      if (origin !== publicOrigin && origin !== own)
        throw new AppError(403, 'forbidden_origin', FOREIGN_ORIGIN);
    }
    const type = request.headers['content-type'];
    if (type !== undefined || hasBody(request)) {
      const mime = (type ?? '').split(';')[0]?.trim().toLowerCase();
      if (mime !== 'application/json') throw new AppError(415, 'unsupported_media_type', JSON_REQUIRED);
    }
  });
});
