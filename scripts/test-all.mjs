// npm test: typecheck, lint, unit/API tests, production build and browser journeys; fails on any failure.
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

const steps = [
  ['Tipos (tsc)', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']],
  ['Lint (biome)', 'npx', ['biome', 'check', '.']],
  ['Pruebas unitarias y de API (vitest)', 'npx', ['vitest', 'run']],
  ['Compilación del cliente (vite)', 'npx', ['vite', 'build', '--logLevel', 'warn']],
  [
    'Presupuestos del cliente (JavaScript inicial, código por área, fuentes, imágenes)',
    'node',
    ['scripts/check-budgets.mjs'],
  ],
  ['Recorridos en el navegador (playwright)', 'npx', ['playwright', 'test']],
];

for (const [label, cmd, args] of steps) {
  console.log(`\n▶ ${label}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  if (r.status !== 0) {
    console.error(`\n✗ Falló: ${label}`);
    process.exit(r.status ?? 1);
  }
}
console.log('\n✓ Todas las pruebas pasaron');
