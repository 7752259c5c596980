import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { AggregatorRegistry, type Registry } from 'prom-client';

/**
 * /metrics under WEB_CONCURRENCY > 1 (issue 38): the kernel hands a scrape to one worker at random, and each worker
 * only counts its own requests, jobs and calls — a scrape saw half the shop, a different half each time. The worker
 * that receives the scrape asks the primary, which gathers every worker's registries with prom-client's
 * AggregatorRegistry (counters and histograms summed; the gauges say how in their `aggregator`) and answers it.
 */
const ASK = 'tienda:metrics-ask';
const ANSWER = 'tienda:metrics-answer';
/** prom-client gives the workers 5 s; a little more here so its own timeout is the one reported. */
const WAIT_MS = 6_000;

type Ask = { type: typeof ASK; id: string };
type Answer = { type: typeof ANSWER; id: string; text?: string; error?: string };

/** In the primary: answers the workers' requests for the whole cluster's metrics. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: Partial<Ask>) => {
    if (message?.type !== ASK || typeof message.id !== 'string') return;
    const id = message.id;
    aggregator.clusterMetrics().then(
      (text) => worker.isConnected() && worker.send({ type: ANSWER, id, text } satisfies Answer),
      (error: unknown) =>
        worker.isConnected() &&
        worker.send({
          type: ANSWER,
          id,
          error: error instanceof Error ? error.message : String(error),
        } satisfies Answer),
    );
  });
}

let offered = false;

/**
 * In a worker: offers these registries to the primary's gathering (once per process; a worker has one app) and
 * returns the function that fetches the aggregated text.
 */
export function clusterMetricsReader(registries: Registry[]): () => Promise<string> {
  if (!offered) {
    offered = true;
    // Constructing one installs prom-client's answer to the primary's gathering in this worker.
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries(registries);
  }
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = randomUUID();
      const timer = setTimeout(() => {
        process.off('message', onMessage);
        reject(new Error('el proceso primario no respondió a tiempo'));
      }, WAIT_MS);
      const onMessage = (message: Partial<Answer>) => {
        if (message?.type !== ANSWER || message.id !== id) return;
        clearTimeout(timer);
        process.off('message', onMessage);
        if (typeof message.text === 'string') resolve(message.text);
        else reject(new Error(message.error ?? 'sin respuesta'));
      };
      process.on('message', onMessage);
      process.send?.({ type: ASK, id } satisfies Ask);
    });
}
