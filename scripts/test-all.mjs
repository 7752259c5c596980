// npm test: typecheck, lint, unit/API tests, production build and browser journeys; fails on any failure.
// Prints how long each step took. The API tests run on PGlite, or on PostgreSQL when TEST_DATABASE_URL is set
// (CI); the browser journeys always run the production server on fresh embedded (PGlite) databases, one per
// Playwright worker.
//
// `npm test -- --chaos` (what .ci/run does) also runs the crash tests (npm run test:chaos) beside the steps
// that do not use PostgreSQL — the build, the budgets and the browser journeys — because the crash tests stop
// PostgreSQL on purpose (the API tests must not be running then) and spend most of their time waiting for
// a shopper's pace and for restarts, which leaves CPU for the browser journeys (decision 025).
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
const beforeChaos = [
  ['Tipos (tsc)', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']],
  ['Lint (biome)', 'npx', ['biome', 'check', '.']],
  [`Pruebas unitarias y de API (vitest, sobre ${engine})`, 'npx', ['vitest', 'run']],
];
const besideChaos = [
  ['Compilación del cliente (vite)', 'npx', ['vite', 'build', '--logLevel', 'warn']],
  [
    'Presupuestos del cliente (JavaScript inicial, código por área, fuentes, imágenes)',
    'npx',
    ['tsx', 'scripts/check-budgets.mjs'],
  ],
  ['Recorridos en el navegador (playwright)', 'npx', ['playwright', 'test']],
];
// The browser journeys' database template (migrated, with the demo catalogue: scripts/e2e-template.ts), made
// beside the checks and the API tests (it uses PGlite in its own folder, not PostgreSQL), so that neither
// playwright.config.ts nor any journey server makes one while the journeys wait (decision 032).
const templateDir = 'test-results/e2e-template';
const templateStep = [
  'Plantilla de los recorridos (PGlite migrado con el catálogo demo)',
  process.execPath,
  ['--import', 'tsx', 'scripts/e2e-template.ts', templateDir],
];
const chaosStep = [
  'Consistencia ante caídas (test:chaos: 20 SIGKILL y PostgreSQL detenido bajo carga)',
  'npx',
  ['tsx', 'scripts/chaos.ts'],
];

const seconds = (ms) => {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
};
const started = performance.now();
const times = [];
let failed;

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
      if (status !== 0) failed ??= label;
      resolve(status);
    });
  });
}

async function sequence(steps) {
  for (const step of steps) if ((await run(step)) !== 0) return;
}

const template = process.env.E2E_DATABASE_URL ? Promise.resolve(0) : run(templateStep);
await sequence(beforeChaos);
if ((await template) === 0 && !process.env.E2E_DATABASE_URL) process.env.E2E_TEMPLATE_DIR = templateDir;
if (!failed) {
  const together = [sequence(besideChaos)];
  if (withChaos) {
    console.log('\n▶ Las pruebas de caídas corren al mismo tiempo que la compilación y los recorridos');
    together.push(run(chaosStep));
  }
  await Promise.all(together);
}

console.log('\nDuración de npm test:');
for (const [label, ms] of times) console.log(`  ${seconds(ms).padStart(10)}  ${label}`);
console.log(`  ${seconds(performance.now() - started).padStart(10)}  total`);
if (failed) {
  console.error(`\n✗ Falló: ${failed}`);
  process.exit(1);
}
console.log('\n✓ Todas las pruebas pasaron');
