import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that wait on real time or on processes they start (a lease running out, a shop and its commands on a fresh
 * embedded database, two instances, the fuzzer's thousands of requests), longest first. They start before the rest,
 * so their waits overlap with the short CPU-bound files instead of ending the run with one fork idle — in CI the API
 * tests share the two cores with the browser journeys and the crash tests, and the run lasts as long as its longest
 * lane (decision 039). Without a cache of earlier durations (a fresh clone) Vitest would order by file size, which
 * put the 25 s lease test last. The rest keep Vitest's own order.
 */
const START_FIRST = [
  'tests/server/safety/fuzz.test.ts',
  'tests/server/safety/embedded-lock.test.ts',
  'tests/server/scale/two-instances.test.ts',
  'tests/server/scale/cluster.test.ts',
  'src/server/checkout/delayed-payments.test.ts',
  'src/server/orders/cancellation.test.ts',
  'src/server/checkout/idempotency-lease.test.ts',
  'src/server/checkout/delayed-openpay.test.ts',
];

class WaitingFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const i = START_FIRST.findIndex((path) => file.moduleId.endsWith(path));
      return i < 0 ? START_FIRST.length : i;
    };
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}

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
    sequence: { sequencer: WaitingFilesFirst },
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
