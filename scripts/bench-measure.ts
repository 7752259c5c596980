// The measuring of `npm run bench` (scripts/bench.ts): autocannon's latencies and the server's CPU time.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';

/**
 * CPU time (user + system, ms) used so far by the processes of a process group: the server and its workers (they
 * start detached, in their own group). Read from /proc: on a shared machine the CPU a request costs is the figure
 * that compares between runs, where latencies wait for cores others use. null where there is no /proc.
 */
export function groupCpuMs(pgid: number): number | null {
  if (!existsSync('/proc/self/stat')) return null;
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      // Fields after the command's closing parenthesis: state ppid pgrp … utime (14th) stime (15th).
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(f[2]) === pgid) ticks += Number(f[11]) + Number(f[12]);
    } catch {}
  }
  // USER_HZ is 100 on Linux.
  return ticks * 10;
}
export type Figures = {
  p50: number;
  p95: number;
  p99: number;
  rps: number;
  requests: number;
  statuses: Record<number, number>;
  errors: number;
  /** The server's CPU time per answered request (its processes only; PostgreSQL and autocannon apart). */
  cpuMs?: number;
};

function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export type RequestSpec = {
  method: 'GET' | 'POST';
  path: string;
  setup?: () => { path?: string; headers?: Record<string, string>; body?: string };
};

/** What one run of autocannon saw: every answer's latency, its status, and the run's length. */
type Samples = { times: number[]; statuses: Record<number, number>; errors: number; seconds: number };

async function sample(
  base: string,
  spec: RequestSpec,
  seconds: number,
  connections: number,
): Promise<Samples> {
  const times: number[] = [];
  const statuses: Record<number, number> = {};
  const started = performance.now();
  const result = await new Promise<autocannon.Result>((ok, ko) => {
    const instance = autocannon(
      {
        url: base,
        connections,
        duration: seconds,
        requests: [
          {
            method: spec.method,
            path: spec.path,
            setupRequest: (req) => {
              const extra = spec.setup?.() ?? {};
              return {
                ...req,
                ...(extra.path ? { path: extra.path } : {}),
                ...(extra.body !== undefined ? { body: extra.body } : {}),
                headers: { ...req.headers, ...extra.headers },
              };
            },
          },
        ],
      },
      (err, res) => (err ? ko(err) : ok(res)),
    );
    instance.on('response', (_client, status, _bytes, responseTime) => {
      times.push(responseTime);
      statuses[status] = (statuses[status] ?? 0) + 1;
    });
  });
  return {
    times,
    statuses,
    errors: result.errors + result.timeouts,
    seconds: (performance.now() - started) / 1000,
  };
}

/** The figures of one or more runs of the same case, their latencies pooled. */
function figures(runs: Samples[], cpuMs?: number): Figures {
  const times = runs.flatMap((r) => r.times).sort((a, b) => a - b);
  const statuses: Record<number, number> = {};
  for (const r of runs)
    for (const [status, n] of Object.entries(r.statuses))
      statuses[Number(status)] = (statuses[Number(status)] ?? 0) + n;
  const seconds = runs.reduce((n, r) => n + r.seconds, 0);
  return {
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    rps: times.length / seconds,
    requests: times.length,
    statuses,
    errors: runs.reduce((n, r) => n + r.errors, 0),
    ...(cpuMs !== undefined && times.length > 0 ? { cpuMs: cpuMs / times.length } : {}),
  };
}

/** One case for `seconds`; `cpu` reads the server's CPU time (ms) before and after. */
export async function measure(
  base: string,
  spec: RequestSpec,
  seconds: number,
  connections: number,
  cpu: () => number | null = () => null,
): Promise<Figures> {
  const before = cpu();
  const run = await sample(base, spec, seconds, connections);
  const after = cpu();
  return figures([run], before !== null && after !== null ? after - before : undefined);
}

/**
 * Cases to compare with each other (a page's HTML and the JSON API it is made of), measured in turns: `rounds`
 * times each case for `seconds / rounds`, its latencies pooled. A shared machine's speed drifts over minutes (the
 * same build's CPU per request moved by 40 % within ten minutes here, decision 043); measured one after the other,
 * a case could get a slow spell its counterpart did not. In turns, both see the same machine.
 */
export async function measureInTurns(
  base: string,
  specs: RequestSpec[],
  seconds: number,
  connections: number,
  rounds: number,
  cpu: () => number | null = () => null,
): Promise<Figures[]> {
  const runs = specs.map(() => [] as Samples[]);
  const cpuMs = specs.map(() => 0 as number | undefined);
  for (let round = 0; round < rounds; round++) {
    for (const [i, spec] of specs.entries()) {
      const before = cpu();
      runs[i]!.push(await sample(base, spec, seconds / rounds, connections));
      const after = cpu();
      cpuMs[i] =
        before !== null && after !== null && cpuMs[i] !== undefined ? cpuMs[i]! + after - before : undefined;
    }
  }
  return runs.map((r, i) => figures(r, cpuMs[i]));
}
