// npm test: typecheck, lint, unit/API tests, production build and browser journeys; fails on any failure.
// Prints how long each step took. The API tests run on PGlite, or on PostgreSQL when TEST_DATABASE_URL is set
// (CI); the browser journeys always run the production server on fresh embedded (PGlite) databases, one per
// Playwright worker.
//
// The steps run in three lanes at once (decision 039): the checks (tsc, then Biome), the API tests, and the
// client's build, budgets and browser journeys (which wait for their database template, made beside them). The
// API tests are CPU-bound; the journeys wait on pages (network idle, animations, a server's answer) for much of
// their time, and the API tests fill those waits. A failure in one lane does not stop the others: every failure
// is listed at the end.
//
// `npm test -- --chaos` also runs the crash tests (npm run test:chaos), after the three lanes (decision 051; .ci/run
// runs them itself, beside the production smoke test's build: decision 069). They stop PostgreSQL on purpose, so
// they make their own throw-away cluster (scripts/chaos.ts) and the API tests keep the machine's; they mostly wait
// for a shopper's pace and for restarts (decision 025).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
if (!existsSync(chrome)) {
  console.error(
    `No se encontró Chromium en ${chrome}. Instálelo con: sudo apt-get update && sudo apt-get install -y chromium ` +
      '(o indique su ruta con CHROME_PATH).',
  );
  process.exit(1);
}
const withChaos = process.argv.includes('--chaos');

const engine = process.env.TEST_DATABASE_URL ? 'PostgreSQL (TEST_DATABASE_URL)' : 'PGlite';
const checks = [
  ['Tipos (tsc)', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']],
  ['Lint (biome)', 'npx', ['biome', 'check', '.']],
];
const apiTests = [`Pruebas unitarias y de API (vitest, sobre ${engine})`, 'npx', ['vitest', 'run']];
const browserSteps = [
  ['Compilación del cliente (vite)', 'npx', ['vite', 'build', '--logLevel', 'warn']],
  [
    'Presupuestos del cliente (JavaScript inicial, código por área, fuentes, imágenes)',
    process.execPath,
    ['--import', 'tsx', 'scripts/check-budgets.mjs'],
  ],
  ['Recorridos en el navegador (playwright)', 'npx', ['playwright', 'test']],
];
// The browser journeys' database template (migrated, with the demo catalogue: scripts/e2e-template.ts), made
// beside the build (it uses PGlite in its own folder, not PostgreSQL), so that neither
// playwright.config.ts nor any journey server makes one while the journeys wait (decision 032).
const templateDir = 'test-results/e2e-template';
const templateStep = [
  'Plantilla de los recorridos (PGlite migrado con el catálogo demo)',
  process.execPath,
  ['--import', 'tsx', '--import', './scripts/quick-start.mjs', 'scripts/e2e-template.ts', templateDir],
];
const chaosStep = [
  'Consistencia ante caídas (test:chaos: 20 SIGKILL y PostgreSQL detenido bajo carga)',
  process.execPath,
  ['--import', 'tsx', 'scripts/chaos.ts'],
];

const seconds = (ms) => {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
};
const started = performance.now();
const times = [];
const failures = [];

/** Runs one step; resolves with its exit status (its duration is recorded and printed). */
function run([label, cmd, args]) {
  console.log(`\n▶ ${label}`);
  const stepStarted = performance.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'inherit', env: process.env });
    child.on('exit', (code, signal) => {
      const ms = performance.now() - stepStarted;
      times.push([label, ms]);
      console.log(`⏱ ${label}: ${seconds(ms)}`);
      const status = code ?? (signal ? 1 : 0);
      if (status !== 0) failures.push(label);
      resolve(status);
    });
  });
}

/** Runs steps one after another; stops at the first that fails. */
async function sequence(steps) {
  for (const step of steps) if ((await run(step)) !== 0) return 1;
  return 0;
}

const template = process.env.E2E_DATABASE_URL ? Promise.resolve(0) : run(templateStep);
const [build, budgets, journeys] = browserSteps;
const lanes = [
  sequence(checks),
  run(apiTests),
  (async () => {
    if ((await sequence([build, budgets])) !== 0) return;
    if ((await template) !== 0) return;
    if (!process.env.E2E_DATABASE_URL) process.env.E2E_TEMPLATE_DIR = templateDir;
    await run(journeys);
  })(),
];
await Promise.all(lanes);
// The crash tests run once the other lanes are done (decision 051): beside them, on two cores, a restart waited a
// minute for the CPU and the run passed its 600 s bound, and the journeys' 10 s expectations timed out.
if (withChaos) await run(chaosStep);

console.log('\nDuración de npm test:');
for (const [label, ms] of times) console.log(`  ${seconds(ms).padStart(10)}  ${label}`);
console.log(`  ${seconds(performance.now() - started).padStart(10)}  total`);
if (failures.length > 0) {
  console.error(`\n✗ Falló: ${failures.join('; ')}`);
  process.exit(1);
}
console.log('\n✓ Todas las pruebas pasaron');
