// Starts the production server for browser journeys on a fresh embedded database (or E2E_DATABASE_URL).
// One process (Node with tsx's loader), not npx → tsx → node: quicker to start, and the signal that stops
// it reaches the server itself. With E2E_TEMPLATE_DIR (playwright.config.ts sets it) the fresh database is
// a copy of that run's template — migrated, with the demo catalogue a shop loads on an empty database
// (scripts/e2e-template.ts) — instead of initdb, the migrations and the demo catalogue once per server.
import { spawn } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';

const port = process.env.E2E_PORT ?? '3100';
const dataDir = `test-results/e2e-data-${port}`;
rmSync(dataDir, { recursive: true, force: true });
if (process.env.E2E_TEMPLATE_DIR && !process.env.E2E_DATABASE_URL)
  cpSync(`${process.env.E2E_TEMPLATE_DIR}/pglite`, `${dataDir}/pglite`, { recursive: true });
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--import', './scripts/quick-start.mjs', 'src/server/main.ts'],
  {
    stdio: 'inherit',
    env: {
      ...process.env,
      PORT: port,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...(process.env.E2E_DATABASE_URL
        ? { DATABASE_URL: process.env.E2E_DATABASE_URL }
        : { DATABASE_URL: '' }),
    },
  },
);
for (const s of ['SIGTERM', 'SIGINT']) process.on(s, () => child.kill(s));
child.on('exit', (code) => process.exit(code ?? 0));
