import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Per-address request limits on the API (per process, in memory: with N processes an address gets up to N
 * times the figure — these are abuse brakes, not quotas). A general limit on every /api request, and a
 * tight one on the operations an attacker would repeat: placing orders (card testing), card tokens in the
 * sandbox, registration and recovery-code requests (each sends a mail). Sign-in and the recovery reset are
 * not in it: their fair limits live in the database (auth/throttle.ts: growing delays per account, a proof of
 * work per request past a high per-address threshold), and 20 a minute per address would lock a whole campus behind one address out. Over the limit: 429 'Demasiados intentos…' with Retry-After, from the error handler.
 *
 * Requests from this machine (127.0.0.1, ::1) are not limited: health checks, the benchmarks, the tests and
 * a reverse proxy on the same host that is not trusted with TRUST_PROXY (then every shopper would look like
 * one address). Pages and hashed assets are not limited either.
 */
export type RateLimitConfig = { perMinute: number; sensitivePerMinute: number };

const SENSITIVE = new Set([
  'POST /api/orders',
  'POST /api/payments/sandbox/tokens',
  'POST /api/auth/register',
  'POST /api/auth/recovery',
]);

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

export async function registerRateLimits(app: FastifyInstance, limits: RateLimitConfig): Promise<void> {
  if (limits.perMinute <= 0) return;
  // Before the plugin: its own onRoute hook reads the per-route setting written here.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.some((m) => SENSITIVE.has(`${m} ${route.url}`))) {
      route.config = {
        ...(route.config as object),
        rateLimit: { max: limits.sensitivePerMinute, timeWindow: 60_000 },
      } as typeof route.config;
    }
  });
  await app.register(fastifyRateLimit, {
    global: true,
    max: limits.perMinute,
    timeWindow: 60_000,
    allowList: (request: FastifyRequest) => LOOPBACK.test(request.ip) || !request.url.startsWith('/api/'),
    errorResponseBuilder: (_request, context) =>
      Object.assign(new Error('Demasiadas solicitudes'), { statusCode: context.statusCode }),
  });
}
