import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_WORKERS, webConcurrency } from '../../../src/server/cluster.ts';
import { ConfigError } from '../../../src/server/config.ts';
import { createFreshDatabase, type ServerProcess, startServer, waitReady } from '../support/instances.ts';

const PG = 'postgres://postgres@127.0.0.1:5432/tienda';
const PORT = Number(process.env.SCALE_TEST_PORT ?? 3200) + 2;

describe('WEB_CONCURRENCY', () => {
  it('defaults to one process and accepts 1…32 on PostgreSQL', () => {
    expect(webConcurrency({}, undefined)).toBe(1);
    expect(webConcurrency({ WEB_CONCURRENCY: '' }, undefined)).toBe(1);
    expect(webConcurrency({ WEB_CONCURRENCY: '1' }, undefined)).toBe(1);
    expect(webConcurrency({ WEB_CONCURRENCY: '4' }, PG)).toBe(4);
    expect(webConcurrency({ WEB_CONCURRENCY: String(MAX_WORKERS) }, PG)).toBe(MAX_WORKERS);
  });

  it('refuses bad values naming the variable', () => {
    for (const bad of ['0', '-1', '2.5', 'dos', '33', '1e1']) {
      expect(() => webConcurrency({ WEB_CONCURRENCY: bad }, PG), bad).toThrow(
        /^Configuración inválida — WEB_CONCURRENCY: debe ser un número entero entre 1 y 32$/,
      );
    }
  });

  it('refuses several processes on the embedded database', () => {
    expect(() => webConcurrency({ WEB_CONCURRENCY: '2' }, undefined)).toThrow(ConfigError);
    expect(() => webConcurrency({ WEB_CONCURRENCY: '2' }, undefined)).toThrow(
      'WEB_CONCURRENCY=2 requiere PostgreSQL (DATABASE_URL)',
    );
  });
});

describe('the server with WEB_CONCURRENCY (real processes)', () => {
  const servers: ServerProcess[] = [];
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    for (const c of cleanups) await c();
  }, 60_000);

  it('on the embedded database: exits 1 with one clear line, before touching the data directory', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tienda-cluster-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const server = startServer({ WEB_CONCURRENCY: '2', DATA_DIR: join(dataDir, 'db'), PORT: String(PORT) });
    servers.push(server);
    expect(await server.exited).toBe(1);
    const lines = server
      .output()
      .split('\n')
      .filter((l) => l.trim() && !l.startsWith('npm warn'));
    expect(existsSync(join(dataDir, 'db'))).toBe(false);
    expect(lines).toEqual([
      'WEB_CONCURRENCY=2 requiere PostgreSQL (DATABASE_URL): la base de datos embebida admite un solo proceso; quite WEB_CONCURRENCY o configure DATABASE_URL.',
    ]);
  }, 60_000);

  it('on PostgreSQL: the primary migrates and seeds once, two workers serve one port, SIGTERM stops them all cleanly', async () => {
    const database = await createFreshDatabase('tienda_cluster');
    cleanups.push(() => database.drop());
    const server = startServer({
      WEB_CONCURRENCY: '2',
      DATABASE_URL: database.url,
      PORT: String(PORT),
      LOG_LEVEL: 'info',
    });
    servers.push(server);
    await waitReady(server);
    // Every worker listens before the primary says the shop is ready.
    const deadline = Date.now() + 60_000;
    while (!/"role":"primario".*"workers":2.*"tienda lista"/.test(server.output()) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));

    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${server.base}/api/products?group=VID-MAT`).then(async (r) => ({
          status: r.status,
          total: ((await r.json()) as { total: number }).total,
        })),
      ),
    );
    expect(answers.every((x) => x.status === 200)).toBe(true);
    expect(new Set(answers.map((x) => x.total)).size).toBe(1);

    // /metrics answers for the whole shop, whichever worker the kernel hands the scrape to: the 20 product lists
    // above were served by both workers, and every scrape counts all 20 (one worker alone counts about half).
    // The queue sizes, read from the database by each worker, are not doubled.
    const served =
      /^tienda_http_request_duration_seconds_count\{[^}]*route="\/api\/products"[^}]*status="200"[^}]*\} (\d+)$/m;
    const outbox = /^tienda_queue_size\{queue="mail_outbox_pending",kind=""\} (\d+)$/m;
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      for (let scrape = 0; scrape < 4; scrape += 1) {
        const pending = Number(
          (await client.query("select count(*)::int as n from mail_outbox where status = 'pending'")).rows[0]
            .n,
        );
        const response = await fetch(`${server.base}/metrics`);
        expect(response.status).toBe(200);
        const text = await response.text();
        expect(Number(served.exec(text)?.[1]), `scrape ${scrape}`).toBe(20);
        expect(Number(outbox.exec(text)?.[1]), `scrape ${scrape}`).toBe(pending);
      }
    } finally {
      await client.end();
    }

    const log = server.output();
    const lines = log.split('\n').filter((l) => l.startsWith('{'));
    const parsed = lines.map((l) => JSON.parse(l) as { msg: string; role?: string; pid: number });
    // Migrations and the demo catalogue: once, in the primary.
    expect(parsed.filter((l) => l.msg === 'catálogo demo cargado').map((l) => l.role)).toEqual(['primario']);
    const workers = new Set(parsed.filter((l) => l.msg === 'tienda lista' && !l.role).map((l) => l.pid));
    expect(workers.size).toBe(2);

    // SIGTERM to the primary alone (not the process group): it must pass the signal on to the workers.
    const primary = parsed.find((l) => l.role === 'primario')!.pid;
    process.kill(primary, 'SIGTERM');
    const code = await Promise.race([
      server.exited,
      new Promise((r) => setTimeout(() => r('timeout'), 30_000)),
    ]);
    expect(code).toBe(0);
    const after = server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string; role?: string; pid: number });
    const stopped = after.filter((l) => l.msg === 'detenido');
    expect(stopped.filter((l) => l.role === 'primario')).toHaveLength(1);
    expect(new Set(stopped.filter((l) => !l.role).map((l) => l.pid))).toEqual(workers);
    expect(after.some((l) => l.msg.startsWith('cierre forzado'))).toBe(false);
  }, 240_000);
});
