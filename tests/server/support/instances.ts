import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { postgresAdminUrl } from './test-db.ts';

/** Support for the multi-instance tests: a fresh PostgreSQL database and real server processes. */

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const hidePassword = (url: string) => url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:…@');

/** Creates an empty database; fails with one clear sentence when PostgreSQL cannot be reached. */
export async function createFreshDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = postgresAdminUrl();
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `Esta prueba necesita PostgreSQL y no pudo conectarse a ${hidePassword(admin)} (${(error as Error).message}). ` +
        'Inicie PostgreSQL o indique otro servidor con TEST_DATABASE_URL.',
    );
  }
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: admin, connectionTimeoutMillis: 5000 });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export type ServerProcess = {
  base: string;
  child: ChildProcess;
  /** Everything the process wrote (stdout and stderr), for failure messages. */
  output(): string;
  exited: Promise<number | null>;
  /** SIGTERM to the process group; SIGKILL after timeoutMs. Resolves with the exit code. */
  stop(timeoutMs?: number): Promise<number | null>;
};

/**
 * `node --import tsx src/server/main.ts` (the test's own Node, as `npm start` runs it, without npx → npm →
 * tsx → node: three fewer Node start-ups per server) in its own process group (so the whole group can be
 * signalled).
 */
export function startServer(env: Record<string, string>): ServerProcess {
  const port = env.PORT ?? '0';
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', './scripts/quick-start.mjs', 'src/server/main.ts'],
    {
      cwd: root,
      env: {
        ...process.env,
        TEST_DATABASE_URL: '',
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        CLIENT_DIR: 'none',
        LOG_LEVEL: 'warn',
        ...env,
      },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const exited = new Promise<number | null>((resolveExit) => child.on('exit', (code) => resolveExit(code)));
  const signal = (s: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, s);
    } catch {
      // already gone
    }
  };
  return {
    base: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    exited,
    stop: async (timeoutMs = 15_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      signal('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** Waits until GET /readyz answers 200; throws with the process's output if it exits or time runs out. */
export async function waitReady(server: ServerProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void server.exited.then(() => {
    exited = true;
  });
  while (Date.now() < deadline) {
    if (exited) throw new Error(`El servidor terminó antes de estar listo:\n${server.output()}`);
    try {
      const res = await fetch(`${server.base}/readyz`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`El servidor no estuvo listo en ${timeoutMs / 1000} s:\n${server.output()}`);
}
