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

/** This machine's own addresses (health checks, benchmarks, tests, an untrusted same-host proxy): never limited. */
export const isLoopback = (ip: string): boolean => LOOPBACK.test(ip);

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
    allowList: (request: FastifyRequest) => isLoopback(request.ip) || !request.url.startsWith('/api/'),
    errorResponseBuilder: (_request, context) =>
      Object.assign(new Error('Demasiadas solicitudes'), { statusCode: context.statusCode }),
  });
}

/** Addresses remembered at once; past it, the finished windows are forgotten (and, if all are live, all). */
const MAX_ADDRESSES = 50_000;

/**
 * Per-address budget of page renders (decision 053): a page whose body is kept (src/server/spa/html-cache.ts)
 * costs a read and a copy; one never seen costs a whole server render (≈ 20–25 ms of CPU), so an address that
 * invents addresses or query strings could keep a core busy. Only those misses count, `perMinute` per address in a
 * window of a minute from its first miss (per process, in memory, like the limits above); a page served from the
 * kept bodies is never refused. The client's address is request.ip, as Fastify reads it under TRUST_PROXY; this
 * machine's own addresses are not limited. perMinute 0: no budget.
 */
export class RenderBudget {
  private readonly windows = new Map<string, { start: number; used: number }>();

  constructor(
    readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whole seconds until `ip` may have another page rendered; 0 when it may now. */
  retryAfter(ip: string): number {
    if (this.perMinute <= 0 || isLoopback(ip)) return 0;
    const window = this.windows.get(ip);
    if (!window) return 0;
    const left = window.start + 60_000 - this.now();
    if (left <= 0) {
      this.windows.delete(ip);
      return 0;
    }
    return window.used >= this.perMinute ? Math.ceil(left / 1000) : 0;
  }

  /** One render (a miss of the kept bodies) for `ip`. */
  spend(ip: string): void {
    if (this.perMinute <= 0 || isLoopback(ip)) return;
    const now = this.now();
    const window = this.windows.get(ip);
    if (window && window.start + 60_000 > now) {
      window.used += 1;
      return;
    }
    if (this.windows.size >= MAX_ADDRESSES) {
      for (const [address, w] of this.windows) if (w.start + 60_000 <= now) this.windows.delete(address);
      if (this.windows.size >= MAX_ADDRESSES) this.windows.clear();
    }
    this.windows.set(ip, { start: now, used: 1 });
  }
}
