import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': resolve(import.meta.dirname, 'src') } },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'tests/server/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    // Migrates once per run into a template each test file copies (tests/server/support/test-db.ts).
    globalSetup: ['tests/server/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Each of the two forks imports the server once and runs its files one after another, instead of importing
    // the whole server again for every file (decision 032: the imports were most of the suite's CPU time).
    // Files stay apart where it matters: each opens its own database copied from the template, and the
    // server's caches are keyed by database (WeakMap<Db, …>); no test changes process.env or a global it
    // does not restore.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
