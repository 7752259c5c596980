// npm run check:startup: the start-up's long tasks on the built home and product pages (issue 39, decision 068),
// part of npm test. Chromium (Debian's) loads each page with a phone's viewport and its CPU throttled 4× through the
// DevTools protocol, records a trace, and reads the page's main-thread tasks from the navigation until the page has
// hydrated and the main thread is idle.
//
// What fails: a task that runs the shop's JavaScript (module evaluation, hydration, effects: a task with a script
// call in it) lasting over 50 ms at 4× CPU. Measured as the task's *thread CPU time* × 4, not its wall time:
// Chromium throttles by suspending the main thread (ThreadCPUThrottler), so on a quiet machine wall ≈ 4 × CPU, and
// on a machine whose two cores are busy with other tests the wall time also counts the time the thread waited for a
// core — the CPU time does not. Each page is loaded LOADS times; its figure is the *smallest* of the loads' longest
// tasks (a task that really is too long is so in every load; a garbage collection or a preemption that happens to
// land in one load is not the page's). The tasks without script (the HTML's parse, style, layout and paint of the
// server's markup) are printed, not judged: hydrating less does not change them (decision 038).
//
//   STARTUP_BASE        a running shop to measure (default: one is started on STARTUP_PORT, a fresh embedded
//                       database copied from E2E_TEMPLATE_DIR or test-results/e2e-template when there is one)
//   STARTUP_PORT        default 3190
//   STARTUP_LOADS       loads per page (default 3)
//   STARTUP_PAGES       e.g. "inicio,producto,grupo,carrito" (default "inicio,producto")
//   STARTUP_LIMIT_MS    default 50
//   STARTUP_CLIENT_DIR  the built client to serve (default dist/client)
//   STARTUP_TRACES      a folder where each load's trace is written (open in DevTools' Performance panel)
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { CART_COOKIE, encodeCartCookie } from '../src/shared/cart-cookie.ts';

const root = resolve(import.meta.dirname, '..');
const RATE = Number(process.env.STARTUP_RATE ?? 4);
const LIMIT_MS = Number(process.env.STARTUP_LIMIT_MS ?? 50);
const LOADS = Number(process.env.STARTUP_LOADS ?? 3);
const PORT = Number(process.env.STARTUP_PORT ?? 3190);
const PAGES = (process.env.STARTUP_PAGES ?? 'inicio,producto').split(',').map((s) => s.trim());
const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';

type TraceEvent = {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown> };
};

/** One main-thread task of the start-up: wall and CPU milliseconds, and what ran in it. */
export type Task = { at: number; wall: number; cpu: number; script: boolean; what: string };

const TASK_NAMES = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);
const SCRIPT_NAMES = new Set([
  'FunctionCall',
  'EvaluateScript',
  'v8.evaluateModule',
  'TimerFire',
  'FireIdleCallback',
]);

/**
 * The main thread's tasks of the page's renderer, from its navigation on. Nested RunTask events (a task inside a
 * task's nested loop) count once, as the outer one.
 */
export function startupTasks(events: TraceEvent[], url: string): Task[] {
  const nav = events.find(
    (e) =>
      e.name === 'navigationStart' &&
      String(e.args?.data?.documentLoaderURL ?? '').startsWith(url.replace(/#.*/, '')),
  );
  if (!nav) throw new Error(`el trazo no tiene el inicio de la navegación a ${url}`);
  const mine = events
    .filter((e) => e.pid === nav.pid && e.tid === nav.tid && e.ts >= nav.ts && e.ph === 'X')
    .sort((a, b) => a.ts - b.ts);
  const out: Task[] = [];
  let end = 0;
  for (let i = 0; i < mine.length; i += 1) {
    const t = mine[i]!;
    if (!TASK_NAMES.has(t.name) || t.ts < end) continue;
    end = t.ts + (t.dur ?? 0);
    let script: TraceEvent | undefined;
    let biggest: TraceEvent | undefined;
    for (let j = i + 1; j < mine.length && mine[j]!.ts < end; j += 1) {
      const e = mine[j]!;
      if (TASK_NAMES.has(e.name)) continue;
      if (!script && SCRIPT_NAMES.has(e.name)) script = e;
      if (!biggest || (e.dur ?? 0) > (biggest.dur ?? 0)) biggest = e;
    }
    const source = String(
      script?.args?.data?.url ?? script?.args?.data?.scriptName ?? script?.args?.data?.functionName ?? '',
    ).replace(/^.*\//, '');
    out.push({
      at: (t.ts - nav.ts) / 1000,
      wall: (t.dur ?? 0) / 1000,
      cpu: (t.tdur ?? t.dur ?? 0) / 1000,
      script: Boolean(script),
      what: script ? `${script.name}${source ? ` ${source}` : ''}` : (biggest?.name ?? '—'),
    });
  }
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(url: string, timeoutMs: number, child?: ChildProcess) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`el servidor terminó (${child.exitCode})`);
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(2000) })).ok) return;
    } catch {
      // not yet
    }
    await sleep(250);
  }
  throw new Error(`${url} no respondió en ${timeoutMs / 1000} s`);
}

/** The page has hydrated — its header, main content and footer carry React's fibers — and the main thread is idle. */
const SETTLED = `new Promise((done) => {
  const hydrated = () => ['header', 'main', 'footer', 'main h1'].every((s) => {
    const el = document.querySelector(s);
    return !el || Object.keys(el).some((k) => k.startsWith('__reactFiber$'));
  });
  const idle = (n) => requestIdleCallback((d) => (d.timeRemaining() > 40 ? (n > 1 ? done(true) : idle(n + 1)) : idle(0)));
  const check = () => (hydrated() ? idle(0) : setTimeout(check, 50));
  check();
})`;

async function main() {
  const started = Date.now();
  let server: ChildProcess | undefined;
  let base = process.env.STARTUP_BASE;
  if (!base) {
    base = `http://127.0.0.1:${PORT}`;
    const template =
      process.env.E2E_TEMPLATE_DIR ??
      (existsSync(resolve(root, 'test-results/e2e-template/pglite'))
        ? 'test-results/e2e-template'
        : undefined);
    server = spawn(process.execPath, ['scripts/e2e-server.mjs'], {
      cwd: root,
      env: {
        ...process.env,
        E2E_PORT: String(PORT),
        ...(template ? { E2E_TEMPLATE_DIR: template } : {}),
        ...(process.env.STARTUP_CLIENT_DIR ? { CLIENT_DIR: process.env.STARTUP_CLIENT_DIR } : {}),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
      detached: true,
    });
    const stop = () => {
      try {
        if (server?.pid) process.kill(-server.pid, 'SIGTERM');
      } catch {
        // gone
      }
    };
    process.on('exit', stop);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));
    console.log(`Arrancando la tienda en ${base}…`);
    await waitFor(`${base}/readyz`, 180_000, server);
  }
  const groups = (await (await fetch(`${base}/api/groups`)).json()) as { groups: { clas: string }[] };
  const group = groups.groups.find((g) => g.clas === 'VID-MAT') ?? groups.groups[0]!;
  const list = (await (
    await fetch(`${base}/api/products?group=${encodeURIComponent(group.clas)}`)
  ).json()) as {
    items: { code: string; name: string; priceCents: number; stock: number; imageUrl: string | null }[];
  };
  const products = list.items.filter((p) => p.imageUrl && p.stock > 2);
  const cart = products.slice(0, 2).map((p) => ({ ...p, quantity: 1 }));
  const paths: Record<string, string> = {
    inicio: '/',
    producto: `/productos/${encodeURIComponent(products[0]!.code)}`,
    grupo: `/grupos/${encodeURIComponent(group.clas)}`,
    carrito: '/carrito',
  };
  // The server's first render of each page (photos resized, frames kept) happens before anything is measured.
  for (const key of PAGES) await (await fetch(`${base}${paths[key]}`)).text();

  console.log(
    `Tareas al arrancar, CPU ${RATE}× (Chromium, 412 × 823), ${LOADS} cargas por página; ` +
      `${cpus().length} núcleos, carga ${loadavg()[0]!.toFixed(1)}`,
  );
  const browser = await chromium.launch({
    executablePath: chrome,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
  });
  const failures: string[] = [];
  try {
    for (const key of PAGES) {
      const path = paths[key];
      if (!path) throw new Error(`página desconocida: ${key}`);
      const longest: number[] = [];
      for (let i = 0; i < LOADS; i += 1) {
        const context = await browser.newContext({
          viewport: { width: 412, height: 823 },
          deviceScaleFactor: 1.75,
          isMobile: true,
          hasTouch: true,
          locale: 'es-MX',
        });
        if (key === 'carrito') {
          await context.addCookies([
            { name: CART_COOKIE, value: encodeCartCookie(cart), url: base, sameSite: 'Lax' },
          ]);
          await context.addInitScript(
            (items) => localStorage.getItem('cartItems') ?? localStorage.setItem('cartItems', items),
            JSON.stringify(cart),
          );
        }
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: RATE });
        await browser.startTracing(page, {
          categories: [
            'devtools.timeline',
            'disabled-by-default-devtools.timeline',
            'toplevel',
            'v8.execute',
            'blink.user_timing',
          ],
        });
        const url = `${base}${path}`;
        await page.goto(url, { waitUntil: 'load' });
        await page.evaluate(SETTLED);
        const raw = await browser.stopTracing();
        if (process.env.STARTUP_TRACES) {
          mkdirSync(process.env.STARTUP_TRACES, { recursive: true });
          writeFileSync(join(process.env.STARTUP_TRACES, `${key}-${i + 1}.trace.json`), raw);
        }
        const trace = JSON.parse(raw.toString('utf8')) as {
          traceEvents: TraceEvent[];
        };
        await context.close();
        const tasks = startupTasks(trace.traceEvents, url);
        const scripted = tasks.filter((t) => t.script);
        const worst = Math.max(0, ...scripted.map((t) => t.cpu));
        longest.push(worst);
        const show = (t: Task) =>
          `${(t.cpu).toFixed(0)} ms (${t.wall.toFixed(0)} ms de pared) a los ${t.at.toFixed(0)} ms: ${t.what}`;
        const top = [...tasks].sort((a, b) => b.cpu - a.cpu).slice(0, 4);
        console.log(
          `  ${key} carga ${i + 1}: la más larga con JavaScript ${worst.toFixed(0)} ms; ` +
            `${scripted.length} tareas con JavaScript, ${tasks.length} en total; carga ${loadavg()[0]!.toFixed(1)}`,
        );
        for (const t of top) console.log(`      ${t.script ? 'JS ' : '   '}${show(t)}`);
      }
      const figure = Math.min(...longest);
      const ok = figure <= LIMIT_MS;
      console.log(
        `${ok ? '✓' : '✗'} ${key} (${path}): tarea con JavaScript más larga ${figure.toFixed(0)} ms a CPU ${RATE}× ` +
          `(la menor de ${LOADS} cargas: ${longest.map((n) => n.toFixed(0)).join(', ')}; límite ${LIMIT_MS} ms)`,
      );
      if (!ok) failures.push(`${key}: ${figure.toFixed(0)} ms > ${LIMIT_MS} ms`);
    }
  } finally {
    await browser.close();
  }
  // The shop this run started is stopped here: its process would keep this one alive.
  if (server?.pid) {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      // gone
    }
    server.unref();
  }
  console.log(`${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (failures.length > 0) {
    console.error(`✗ Tareas largas al arrancar: ${failures.join('; ')}`);
    process.exitCode = 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
