import { timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import { Gauge, Histogram, Registry } from 'prom-client';
import { isClusterWorker } from '../cluster.ts';
import { waitingQueues } from '../dashboard/queues.ts';
import { fromThisMachine } from '../http/loopback.ts';
import { adapterRegistry } from './adapters.ts';
import { clusterMetricsReader } from './cluster-metrics.ts';

export const METRICS_FORBIDDEN =
  'Las métricas solo responden a esta misma máquina o con Authorization: Bearer $METRICS_TOKEN.';
export const METRICS_UNAVAILABLE =
  'No se pudieron reunir las métricas de todos los procesos de la tienda; intente de nuevo.';

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * GET /metrics in Prometheus' text format (prom-client): request latencies by route pattern, the queues, each
 * background job's last run and failures (jobs.ts), and the calls to Openpay and the PAC (adapters.ts). Served to
 * this machine, or to anyone with `Authorization: Bearer $METRICS_TOKEN`; never listed in the API docs.
 */
export const metricsPlugin = fp<{ token: string | undefined }>(async (app, { token }) => {
  const registry = new Registry();
  const requests = new Histogram({
    name: 'tienda_http_request_duration_seconds',
    help: 'Duración de las solicitudes HTTP por método, patrón de ruta y código de estado',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern (/api/orders/:number), never the raw URL; a 404 has none.
    const route = request.routeOptions.url ?? 'sin_ruta';
    if (route === '/metrics') return;
    requests.observe(
      { method: request.method, route, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  new Gauge({
    name: 'tienda_queue_size',
    help: 'Elementos en espera: correos, CFDI por timbrar o en cancelación, pedidos SPEI/efectivo por pagar, reembolsos abiertos',
    labelNames: ['queue', 'kind'] as const,
    registers: [registry],
    // Counted in the database: every worker of a cluster reads the same number (not a sum).
    aggregator: 'first',
    async collect() {
      this.reset();
      // Zero for the queues with nothing in them, so an alert on them always has a series to read.
      for (const queue of ['mail_outbox_pending', 'mail_outbox_failed'] as const)
        this.set({ queue, kind: '' }, 0);
      for (const kind of ['stamping', 'at_purchase', 'cancellation'])
        this.set({ queue: 'invoices_waiting', kind }, 0);
      for (const kind of ['spei', 'cash']) this.set({ queue: 'orders_awaiting_payment', kind }, 0);
      for (const kind of ['owed', 'in_progress']) this.set({ queue: 'refunds_open', kind }, 0);
      // The queues an operator watches (docs/operations.md), counted in the database (dashboard/queues.ts).
      for (const row of await waitingQueues(app.db))
        this.set({ queue: row.queue, kind: row.kind ?? '' }, row.n);
    },
  });

  /** How a cluster's workers' values become one: times and intervals by 'max', counts by 'sum'. */
  const jobGauge = (
    name: string,
    help: string,
    value: (s: ReturnType<typeof app.jobs.states>[number]) => number | null,
    aggregator: 'max' | 'sum' = 'max',
  ) =>
    new Gauge({
      name,
      help,
      labelNames: ['job'] as const,
      registers: [registry],
      aggregator,
      collect() {
        this.reset();
        for (const state of app.jobs.states()) {
          const v = value(state);
          if (v !== null) this.set({ job: state.name }, v);
        }
      },
    });
  jobGauge(
    'tienda_job_last_success_timestamp_seconds',
    'Último fin sin error de cada trabajo en segundo plano (epoch, s)',
    (s) => (s.lastSuccessAt === null ? null : s.lastSuccessAt / 1000),
  );
  jobGauge(
    'tienda_job_last_run_timestamp_seconds',
    'Último fin de cada trabajo, con o sin error (epoch, s)',
    (s) => (s.lastFinishedAt === null ? null : s.lastFinishedAt / 1000),
  );
  jobGauge('tienda_job_last_duration_seconds', 'Duración de la última ronda de cada trabajo (s)', (s) =>
    s.lastDurationMs === null ? null : s.lastDurationMs / 1000,
  );
  jobGauge(
    'tienda_job_runs_total',
    'Rondas terminadas sin error desde el arranque de los procesos',
    (s) => s.runs,
    'sum',
  );
  jobGauge(
    'tienda_job_failures_total',
    'Rondas terminadas con error desde el arranque de los procesos',
    (s) => s.failures,
    'sum',
  );
  jobGauge(
    'tienda_job_held_total',
    'Rondas omitidas porque otro proceso tenía el trabajo',
    (s) => s.held,
    'sum',
  );
  jobGauge('tienda_job_interval_seconds', 'Pausa entre rondas de cada trabajo (s)', (s) => s.everyMs / 1000);

  // Under WEB_CONCURRENCY > 1 a scrape answers for every worker, not just the one the kernel picked.
  const wholeCluster = isClusterWorker() ? clusterMetricsReader([registry, adapterRegistry]) : undefined;

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const allowed = token && bearer ? sameToken(bearer, token) : fromThisMachine(app, request);
    reply.header('Cache-Control', 'no-store');
    if (!allowed) return reply.code(403).type('text/plain; charset=utf-8').send(METRICS_FORBIDDEN);
    if (wholeCluster) {
      try {
        return reply.type(registry.contentType).send(await wholeCluster());
      } catch (error) {
        request.log.error({ err: error }, 'métricas del clúster no disponibles');
        return reply.code(503).type('text/plain; charset=utf-8').send(METRICS_UNAVAILABLE);
      }
    }
    const merged = Registry.merge([registry, adapterRegistry]);
    return reply.type(merged.contentType).send(await merged.metrics());
  });
});
