import { defineConfig } from '@playwright/test';

/**
 * The production smoke test's one journey (tests/smoke/production.spec.ts), run only by
 * scripts/smoke-production.sh against the built server behind Caddy; `npx playwright test` (the root config,
 * testDir tests/e2e) never picks it up. SMOKE_URL is Caddy's HTTPS address with its own local CA (`tls internal`),
 * which the browser is told to accept.
 */
export default defineConfig({
  testDir: '.',
  testMatch: /production\.spec\.ts$/,
  timeout: 180_000,
  expect: { timeout: 30_000 },
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: process.env.SMOKE_ARTIFACTS ?? '../../test-results/smoke-artifacts',
  use: {
    baseURL: process.env.SMOKE_URL ?? 'https://localhost:3643',
    ignoreHTTPSErrors: true,
    locale: 'es-MX',
    viewport: { width: 1280, height: 900 },
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
    },
  },
});
