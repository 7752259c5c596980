import { spawnSync } from 'node:child_process';
import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3100);
const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
/**
 * Workers, each with its own production server on its own fresh embedded database: worker slot i
 * (TEST_PARALLEL_INDEX, set in each worker process before this file is loaded there) talks to
 * E2E_PORT + i, so specs keep using `page.goto('/…')` and `baseURL` unchanged and never see another
 * worker's orders, mails or carts. Two on a 2-core machine (decision 025 has the measurements).
 */
// At most 8: the journeys with a shop of their own listen on E2E_PORT + 8 and up (tests/e2e/own-server.ts).
const servers = Math.min(8, Math.max(1, Number(process.env.E2E_WORKERS ?? 2)));
const slot = Number(process.env.TEST_PARALLEL_INDEX ?? 0) % servers;

/**
 * The servers' database template (scripts/e2e-template.ts: migrated, with the demo catalogue), made once per
 * run in the runner's process before the servers start, which copy it (decision 032). `npm test` makes it
 * beside the API tests and passes E2E_TEMPLATE_DIR; the workers inherit the variable and never make one.
 */
if (
  !process.env.E2E_TEMPLATE_DIR &&
  process.env.TEST_WORKER_INDEX === undefined &&
  !process.env.E2E_DATABASE_URL
) {
  const dir = 'test-results/e2e-template';
  const made = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/e2e-template.ts', dir], {
    stdio: 'inherit',
  });
  if (made.status !== 0)
    throw new Error('no se pudo preparar la plantilla de los recorridos (scripts/e2e-template.ts)');
  process.env.E2E_TEMPLATE_DIR = dir;
}

/**
 * Traces (a DOM snapshot before and after every action, recorded for every journey and kept only for failures)
 * cost about a quarter of the journeys' CPU. In CI (CI=true) they are off: a failure still leaves its screenshot
 * and error-context.md (the page's ARIA snapshot and the error); `E2E_TRACE=retain-on-failure` records them
 * again when a CI failure needs one. Outside CI they stay on for failures (decision 035).
 */
const trace = (process.env.E2E_TRACE ?? (process.env.CI ? 'off' : 'retain-on-failure')) as
  | 'off'
  | 'on'
  | 'retain-on-failure';

const desktop = { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 900 } };

/**
 * Browser journeys in Debian's Chromium (no browser download). The servers are the production build
 * on fresh embedded databases under test-results/, so runs never touch ./data.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: servers,
  retries: 0,
  reporter: [['list']],
  outputDir: 'test-results/artifacts',
  use: {
    baseURL: `http://127.0.0.1:${port + slot}`,
    locale: 'es-MX',
    trace,
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chrome,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
    },
  },
  // The safety journeys (their own shop per worker, safety-shop.ts) are the longest files (≈ 8 of the ≈ 23 minutes
  // of summed journey time): their project comes first so both workers start on them and the short files fill
  // the end, instead of queuing them last, when one worker ends up idle while the other finishes (decision 035).
  projects: [
    {
      name: 'safety',
      testMatch: /\/safety-[^/]*\.spec\.ts$/,
      use: desktop,
    },
    {
      name: 'desktop',
      testIgnore: /\/safety-[^/]*\.spec\.ts$/,
      use: desktop,
    },
  ],
  webServer: Array.from({ length: servers }, (_, i) => ({
    command: 'node scripts/e2e-server.mjs',
    url: `http://127.0.0.1:${port + i}/readyz`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: { E2E_PORT: String(port + i) },
  })),
});
