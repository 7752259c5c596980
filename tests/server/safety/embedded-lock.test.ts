import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { processStart } from '../../../src/server/db/embedded-lock.ts';
import { root, type ServerProcess, startServer, waitReady } from '../support/instances.ts';

/**
 * Issue 16, "data that vanishes": the shop on the embedded database owns its data directory (tienda.lock
 * with pid and start time). Commands run while it is up reach the shop's own database through its
 * socket — what they write is seen by the running shop and is still there after a restart — and a
 * folder another live process owns is refused with one Spanish line. A lock left by a dead process is
 * taken over.
 */

const dirs: string[] = [];
const running: ServerProcess[] = [];
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const s of running.splice(0)) await s.stop();
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const PASSWORD = 'Clave-Segura-123!';

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tienda-lock-'));
  dirs.push(dir);
  return dir;
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolvePort(port));
    });
  });
}

async function startShop(dataDir: string): Promise<ServerProcess> {
  const server = startServer({
    PORT: String(await freePort()),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    SEED_DEMO: 'false',
    RATE_LIMIT_PER_MINUTE: '0',
  });
  running.push(server);
  await waitReady(server);
  return server;
}

/**
 * Runs `scripts/<script> …args` on dataDir as `npx tsx` would, with the test's own Node and tsx's loader (no
 * npm and tsx wrapper processes to start); resolves with its exit code and output.
 */
function runTool(
  dataDir: string,
  script: string,
  args: string[] = [],
  stdin = '',
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolveRun) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--import', './scripts/quick-start.mjs', `scripts/${script}`, ...args],
      {
        cwd: root,
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          DATABASE_URL: '',
          TEST_DATABASE_URL: '',
          LOG_LEVEL: 'warn',
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    children.push(child);
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stdin.end(stdin);
    child.on('exit', (code) => resolveRun({ code, out }));
  });
}

const createStaff = (dataDir: string, email: string) =>
  runTool(
    dataDir,
    'staff-create.ts',
    ['--email', email, '--nombre', 'Ana', '--apellido', 'Ruiz', '--telefono', '3312345678'],
    `${PASSWORD}\n`,
  );

async function signIn(base: string, email: string): Promise<number> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email, password: PASSWORD }),
  });
  return res.status;
}

const toolOutput = (out: string) =>
  out
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('npm warn'))
    .join('\n');

describe('the embedded data directory has one owner', () => {
  it('commands (staff:create, db:migrate, seed:demo, import) run while the shop is up write into the shop’s own database; nothing is lost on restart', async () => {
    const dataDir = freshDir();
    const shop = await startShop(dataDir);
    const lock = JSON.parse(readFileSync(join(dataDir, 'tienda.lock'), 'utf8'));
    expect(lock.role).toBe('shop');
    expect(lock.start).toBe(processStart(lock.pid));

    const created = await createStaff(dataDir, 'persona@lab.example');
    expect(created.code, created.out).toBe(0);
    expect(created.out).toContain('Cuenta de personal creada: persona@lab.example');
    // The running shop sees it at once.
    expect(await signIn(shop.base, 'persona@lab.example')).toBe(200);

    const migrated = await runTool(dataDir, 'migrate.ts');
    expect(migrated.code, migrated.out).toBe(0);
    const total = async (base: string) =>
      ((await (await fetch(`${base}/api/products?page=1`)).json()) as { total?: number }).total ?? 0;
    const before = await total(shop.base);
    const seeded = await runTool(dataDir, 'seed-demo.ts', ['--products', '3']);
    expect(seeded.code, seeded.out).toBe(0);
    expect(seeded.out).toContain('3 productos nuevos');
    // The demo may join the three into one product with presentations (decision 021): one card or more.
    const listed = await total(shop.base);
    expect(listed).toBeGreaterThan(before);
    // The catalogue import (the fixture has bad rows on purpose: exit 2, the good ones land).
    const imported = await runTool(dataDir, 'import-catalogue.ts', [
      join(root, 'tests/server/fixtures/productos-con-errores.csv'),
    ]);
    expect([0, 2], imported.out).toContain(imported.code);
    expect((await fetch(`${shop.base}/api/products/IMP-001`)).status).toBe(200);

    // The shop keeps serving after the commands let go of its database.
    expect(await signIn(shop.base, 'persona@lab.example')).toBe(200);
    await shop.stop();
    // A clean stop lets go of the folder (the shop's lock is released as it exits).
    for (let i = 0; i < 200 && existsSync(join(dataDir, 'tienda.lock')); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(existsSync(join(dataDir, 'tienda.lock'))).toBe(false);

    const again = await startShop(dataDir);
    expect(await signIn(again.base, 'persona@lab.example')).toBe(200);
    // Nothing lost on restart: the seeded products and the imported one are still listed.
    expect(await total(again.base)).toBeGreaterThan(listed);
    expect((await fetch(`${again.base}/api/products/IMP-001`)).status).toBe(200);
  }, 240_000);

  it('a folder owned by another live process is refused with one Spanish line; nothing is written', async () => {
    const dataDir = freshDir();
    // A live process that is not a shop (no socket): its pid and start time in the lock.
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    children.push(holder);
    const pid = holder.pid!;
    const start = await (async () => {
      for (let i = 0; i < 50; i++) {
        const s = processStart(pid);
        if (s !== null) return s;
        await new Promise((r) => setTimeout(r, 20));
      }
      return null;
    })();
    writeFileSync(
      join(dataDir, 'tienda.lock'),
      JSON.stringify({ pid, start, role: 'tool', socketDir: null, since: new Date().toISOString() }),
    );
    const refused = await createStaff(dataDir, 'nadie@lab.example');
    expect(refused.code).toBe(1);
    expect(toolOutput(refused.out)).toBe(
      `La base de datos incorporada está en uso por la tienda (pid ${pid}). Deténgala o use DATABASE_URL.`,
    );
    expect(existsSync(join(dataDir, 'pglite'))).toBe(false);

    // A second shop on the same folder refuses too.
    const second = startServer({ PORT: String(await freePort()), DATA_DIR: dataDir, DATABASE_URL: '' });
    running.push(second);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`en uso por la tienda (pid ${pid})`);
  }, 120_000);

  it('a lock left by a process that is gone (or whose pid now runs something else) is taken over', async () => {
    const dataDir = freshDir();
    mkdirSync(dataDir, { recursive: true });
    const gone = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    const deadPid = gone.pid!;
    await new Promise((r) => gone.on('exit', r));
    writeFileSync(
      join(dataDir, 'tienda.lock'),
      JSON.stringify({
        pid: deadPid,
        start: '1',
        role: 'shop',
        socketDir: dataDir,
        since: '2026-01-01T00:00:00Z',
      }),
    );
    const created = await createStaff(dataDir, 'tras-caida@lab.example');
    expect(created.code, created.out).toBe(0);
    expect(existsSync(join(dataDir, 'tienda.lock'))).toBe(false);

    // Our own pid with another start time: a reused pid, not the owner.
    writeFileSync(
      join(dataDir, 'tienda.lock'),
      JSON.stringify({
        pid: process.pid,
        start: '1',
        role: 'shop',
        socketDir: dataDir,
        since: '2026-01-01T00:00:00Z',
      }),
    );
    const shop = await startShop(dataDir);
    expect(await signIn(shop.base, 'tras-caida@lab.example')).toBe(200);
  }, 180_000);
});
