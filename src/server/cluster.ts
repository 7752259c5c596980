import cluster, { type Worker } from 'node:cluster';
import { ConfigError } from './config.ts';
import { serveClusterMetrics } from './metrics/cluster-metrics.ts';

/** Upper bound for WEB_CONCURRENCY: each worker keeps its own pool of database connections. */
export const MAX_WORKERS = 32;

/**
 * WEB_CONCURRENCY: how many worker processes serve HTTP (default 1 = no cluster). Several workers need
 * PostgreSQL: the embedded database lives in one process's memory and files, so it is refused there.
 */
export function webConcurrency(env: NodeJS.ProcessEnv, databaseUrl: string | undefined): number {
  const raw = env.WEB_CONCURRENCY?.trim();
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isInteger(n) || n < 1 || n > MAX_WORKERS) {
    throw new ConfigError(
      `Configuración inválida — WEB_CONCURRENCY: debe ser un número entero entre 1 y ${MAX_WORKERS}`,
    );
  }
  if (n > 1 && !databaseUrl) {
    throw new ConfigError(
      `WEB_CONCURRENCY=${n} requiere PostgreSQL (DATABASE_URL): la base de datos embebida admite un solo proceso; quite WEB_CONCURRENCY o configure DATABASE_URL.`,
    );
  }
  return n;
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LEVELS: Record<Level, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
};

/** The primary's log lines, in the same JSON shape as the workers' (pino) lines. */
export function primaryLogger(level: Level) {
  const threshold = LEVELS[level] ?? 30;
  const write = (n: number, obj: Record<string, unknown>, msg: string) => {
    if (n < threshold) return;
    const line = JSON.stringify({
      level: n,
      time: Date.now(),
      pid: process.pid,
      role: 'primario',
      ...obj,
      msg,
    });
    (n >= 50 ? process.stderr : process.stdout).write(`${line}\n`);
  };
  return {
    info: (obj: Record<string, unknown>, msg: string) => write(30, obj, msg),
    warn: (obj: Record<string, unknown>, msg: string) => write(40, obj, msg),
    error: (obj: Record<string, unknown>, msg: string) => write(50, obj, msg),
  };
}

export type PrimaryOptions = {
  workers: number;
  log: ReturnType<typeof primaryLogger>;
  /** Milliseconds to wait for the workers to finish their requests after SIGTERM/SIGINT. */
  shutdownTimeoutMs?: number;
  /** Called once every worker listens (the shop is ready). */
  onReady?: () => void;
};

/**
 * The primary of a cluster: forks the workers (they share the listening port; Node hands connections
 * round-robin), replaces a worker that dies after it started, and on SIGTERM/SIGINT passes the signal
 * on to every worker, waits for them to finish their requests and exits. A worker that fails before it
 * listens (bad port, database down) stops the whole cluster instead of restarting in a loop.
 */
export function runPrimary({ workers, log, shutdownTimeoutMs = 15_000, onReady }: PrimaryOptions) {
  let stopping = false;
  let ready = false;
  const listening = new Set<number>();
  const restarts: number[] = [];

  const fork = () => {
    const worker = cluster.fork({ TIENDA_CLUSTER_WORKER: '1' });
    worker.on('listening', () => {
      listening.add(worker.id);
      if (!ready && listening.size >= workers) {
        ready = true;
        onReady?.();
      }
    });
    return worker;
  };

  const alive = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w));

  const stop = (signal: NodeJS.Signals, code: number) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, workers: alive().length }, 'deteniendo: avisando a los procesos de trabajo');
    for (const worker of alive()) worker.process.kill(signal);
    const force = setTimeout(() => {
      log.error({}, `cierre forzado tras ${shutdownTimeoutMs / 1000} s`);
      for (const worker of alive()) worker.process.kill('SIGKILL');
      process.exit(1);
    }, shutdownTimeoutMs);
    force.unref();
    const check = () => {
      if (alive().length === 0) {
        log.info({}, 'detenido');
        process.exit(code);
      }
    };
    cluster.on('exit', check);
    check();
  };

  cluster.on('exit', (worker, exitCode, signal) => {
    const wasListening = listening.delete(worker.id);
    if (stopping) return;
    if (!wasListening) {
      log.error({ worker: worker.process.pid, exitCode, signal }, 'un proceso de trabajo no pudo iniciar');
      stop('SIGTERM', 1);
      return;
    }
    // Crash after start: replace it, unless workers keep dying (then something is wrong everywhere).
    const now = Date.now();
    restarts.push(now);
    while (restarts.length > 0 && restarts[0]! < now - 60_000) restarts.shift();
    if (restarts.length > workers * 5) {
      log.error({ restarts: restarts.length }, 'demasiados reinicios de procesos de trabajo en un minuto');
      stop('SIGTERM', 1);
      return;
    }
    log.error(
      { worker: worker.process.pid, exitCode, signal },
      'un proceso de trabajo terminó; se reemplaza',
    );
    fork();
  });

  process.on('SIGTERM', () => stop('SIGTERM', 0));
  process.on('SIGINT', () => stop('SIGINT', 0));

  serveClusterMetrics();
  for (let i = 0; i < workers; i += 1) fork();
}

/** True in a process forked by runPrimary (migrations and the demo seed already ran in the primary). */
export const isClusterWorker = () => cluster.isWorker && process.env.TIENDA_CLUSTER_WORKER === '1';
