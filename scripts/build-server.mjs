// npm run build:server: the server as JavaScript in dist/server (docs/decisions/055), run in production with
// `node dist/server/main.js` and only the production dependencies installed.
//
// One esbuild bundle of the project's own code (src/server, src/shared, and the client's modules the server renders
// pages with), ESM for Node 24, every npm package left as an import of node_modules. esbuild resolves what the
// sources rely on and Node alone would not: the `@/` alias of tsconfig.json, `.ts`/`.tsx` specifiers, JSX,
// parameter properties. Entries: main.js (the shop), migrate.js (npm run db:migrate), staff-create.js
// (npm run staff:create). All chunks sit beside them in dist/server, so every module's import.meta.url names that
// folder, where the data files the server reads at run time are copied: migrations/ (db/client.ts), catalogs/
// (SAT's postal codes, invoices/postal-codes.ts) and fixtures/ (the SAT's test CSD of the sandbox PAC,
// invoices/csd.ts). config/shop.json is compiled in, as it is in the client's build.
//
// The build fails when the bundle imports a package that is not in package.json's "dependencies": production
// installs only those (`npm ci --omit=dev`), so such an import would fail only there.
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = resolve(root, process.env.SERVER_OUT_DIR ?? 'dist/server');
const started = performance.now();

rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: [
    { in: 'src/server/main.ts', out: 'main' },
    { in: 'scripts/migrate.ts', out: 'migrate' },
    { in: 'scripts/staff-create.ts', out: 'staff-create' },
  ],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node24',
  packages: 'external',
  jsx: 'automatic',
  tsconfig: 'tsconfig.json',
  chunkNames: '[name]-[hash]',
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});

// Every package the bundle imports must be a production dependency.
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const production = new Set(Object.keys(pkg.dependencies ?? {}));
const builtins = new Set(builtinModules);
const missing = new Map();
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  for (const { path, external } of output.imports) {
    if (!external || path.startsWith('node:') || builtins.has(path)) continue;
    const name = path.startsWith('@') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0];
    if (!production.has(name)) missing.set(name, file);
  }
}
if (missing.size > 0) {
  for (const [name, file] of missing) {
    console.error(`✗ ${file} importa ${name}, que no está en "dependencies" de package.json`);
  }
  process.exit(1);
}

for (const [from, to] of [
  ['src/server/db/migrations', 'migrations'],
  ['src/server/invoices/catalogs', 'catalogs'],
  ['src/server/invoices/fixtures', 'fixtures'],
]) {
  cpSync(join(root, from), join(outdir, to), { recursive: true });
}
const files = Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js')).length;
console.log(
  `Servidor compilado en ${outdir} (${files} módulos JS) en ${Math.round(performance.now() - started)} ms`,
);
