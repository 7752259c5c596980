// npm test: typecheck, lint, unit/API tests, production build and browser journeys; fails on any failure.
// Prints how long each step took. The API tests run on PGlite, or on PostgreSQL when TEST_DATABASE_URL is set
// (CI); the browser journeys always run the production server on a fresh embedded (PGlite) database.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
if (!existsSync(chrome)) {
  console.error(
    `No se encontró Chromium en ${chrome}. Instálelo con: sudo apt-get update && sudo apt-get install -y chromium ` +
      '(o indique su ruta con CHROME_PATH).',
  );
  process.exit(1);
}

const engine = process.env.TEST_DATABASE_URL ? 'PostgreSQL (TEST_DATABASE_URL)' : 'PGlite';
const steps = [
  ['Tipos (tsc)', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']],
  ['Lint (biome)', 'npx', ['biome', 'check', '.']],
  [`Pruebas unitarias y de API (vitest, sobre ${engine})`, 'npx', ['vitest', 'run']],
  ['Compilación del cliente (vite)', 'npx', ['vite', 'build', '--logLevel', 'warn']],
  [
    'Presupuestos del cliente (JavaScript inicial, código por área, fuentes, imágenes)',
    'npx',
    ['tsx', 'scripts/check-budgets.mjs'],
  ],
  ['Recorridos en el navegador (playwright)', 'npx', ['playwright', 'test']],
];

const seconds = (ms) => {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
};
const started = performance.now();
const times = [];
for (const [label, cmd, args] of steps) {
  console.log(`\n▶ ${label}`);
  const stepStarted = performance.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  times.push([label, performance.now() - stepStarted]);
  console.log(`⏱ ${label}: ${seconds(performance.now() - stepStarted)}`);
  if (r.status !== 0) {
    console.error(`\n✗ Falló: ${label}`);
    process.exit(r.status ?? 1);
  }
}
console.log('\nDuración de npm test:');
for (const [label, ms] of times) console.log(`  ${seconds(ms).padStart(10)}  ${label}`);
console.log(`  ${seconds(performance.now() - started).padStart(10)}  total`);
console.log('\n✓ Todas las pruebas pasaron');
