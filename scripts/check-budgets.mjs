// npm run check:budgets [-- <client dir>]: front-end budgets of the production build (part of npm test).
// Runs under tsx: the pages and their areas come from the route table (src/client/app/route-table.ts).
//
// Reads the Vite manifest (.vite/manifest.json) and the chunk → modules map written by vite.config.ts
// (.vite/chunk-modules.json) of the build in <client dir> (default: CLIENT_OUT_DIR, the build's folder, or dist/client) and checks:
//   1. initial JavaScript of the home page (what index.html loads — the entry chunk and its static
//      imports — plus the home route's lazy chunk and its static imports), gzip, against the budget;
//   2. no chunk a catalogue page loads (entry + the page's chunk and static imports) carries admin,
//      checkout, orders, invoices or account code — those load only on their own screens;
//   3. fonts local or system: no external stylesheet, script or font in index.html or the CSS;
//   4. images sized: every <img> in the modules of the catalogue and cart pages sets width and height
//      and says how it loads (loading="lazy" below the fold, or fetchPriority for the LCP image);
//   5. React itself runs the client: no `preact` in package.json nor in any built chunk (decision 011).
// Prints a table of every route's initial JavaScript too. Exits 1 on any failure.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { ROUTES as TABLE } from '../src/client/app/route-table.ts';

/**
 * Budgets in bytes (KB = 1000 bytes). React 19 runs the client (docs/decisions/011): React DOM, React Router 8
 * (data router) and TanStack Query 5 are ≈ 110 KB gzip of the home page's initial JavaScript before any of
 * the shop's code; the home page is held at 130 KB. The page paints from the server's HTML, so this is
 * what hydration waits for, not what the first paint waits for (docs/benchmarks.md, "Front-end budgets").
 */
export const BUDGETS = {
  homeInitialJsGzip: 130_000,
};

const root = resolve(import.meta.dirname, '..');
const dir = resolve(root, process.argv[2] ?? process.env.CLIENT_OUT_DIR ?? 'dist/client');
const manifestPath = join(dir, '.vite/manifest.json');
const modulesPath = join(dir, '.vite/chunk-modules.json');
if (!existsSync(manifestPath) || !existsSync(modulesPath)) {
  console.error(`No hay manifiesto de Vite en ${dir}/.vite: compile primero (npx vite build).`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const chunkModules = JSON.parse(readFileSync(modulesPath, 'utf8'));

/** Route → manifest key of its page module, from the route table (one row per page module). */
const ROUTES = {};
for (const r of TABLE) {
  if (Object.values(ROUTES).includes(r.page)) continue;
  ROUTES[r.path === '' ? '/ (inicio)' : `/${r.path}`] = r.page;
}
const areaOf = Object.fromEntries(TABLE.map((r) => [r.page, r.area]));
const CATALOGUE = Object.keys(ROUTES).filter((r) => areaOf[ROUTES[r]] === 'catalogue');
/** Code that must never load on a catalogue page: the signed-in areas' folders and pages. */
const FORBIDDEN = [
  /^src\/client\/admin\//,
  /^src\/client\/checkout\//,
  /^src\/client\/orders\//,
  /^src\/client\/invoices\//,
  /^src\/client\/account\//,
  /^src\/shared\/schemas\/admin\.ts$/,
  /^src\/shared\/schemas\/orders\.ts$/,
  /^src\/shared\/schemas\/invoice/,
  ...TABLE.filter((r) => ['account', 'checkout', 'admin'].includes(r.area)).map(
    (r) => new RegExp(`^src/client/${r.page.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
  ),
];

const failures = [];
const fail = (message) => failures.push(message);

/** The manifest keys loaded with `key`: itself and its static imports, recursively. */
function closure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  const entry = manifest[key];
  if (!entry) throw new Error(`falta ${key} en el manifiesto`);
  seen.add(key);
  for (const imported of entry.imports ?? []) closure(imported, seen);
  return seen;
}

const sizeCache = new Map();
function sizes(file) {
  if (!sizeCache.has(file)) {
    const bytes = readFileSync(join(dir, file));
    sizeCache.set(file, {
      raw: bytes.length,
      gzip: gzipSync(bytes, { level: 9 }).length,
      brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    });
  }
  return sizeCache.get(file);
}

const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entryKey) {
  console.error('El manifiesto no tiene punto de entrada.');
  process.exit(1);
}

// ── 1. Initial JavaScript per route ──────────────────────────────────────────────────────────────
const rows = [];
const routeKeys = {};
for (const [route, key] of Object.entries(ROUTES)) {
  if (!manifest[key]) {
    fail(`${route}: no se encontró ${key} en el manifiesto (¿está en src/client/app/page-modules.ts?)`);
    continue;
  }
  const keys = new Set([...closure(entryKey), ...closure(key)]);
  routeKeys[route] = keys;
  const files = [...keys].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
  const total = files.reduce(
    (acc, f) => {
      const s = sizes(f);
      return { raw: acc.raw + s.raw, gzip: acc.gzip + s.gzip, brotli: acc.brotli + s.brotli };
    },
    { raw: 0, gzip: 0, brotli: 0 },
  );
  rows.push({ route, files: files.length, ...total });
}

console.log('JavaScript inicial por ruta (entrada + importaciones estáticas + chunk de la página):');
console.log(
  `${'ruta'.padEnd(26)}${'archivos'.padStart(9)}${'sin comprimir'.padStart(15)}${'gzip'.padStart(10)}${'brotli'.padStart(10)}`,
);
for (const r of rows) {
  console.log(
    `${r.route.padEnd(26)}${String(r.files).padStart(9)}${kb(r.raw).padStart(15)}${kb(r.gzip).padStart(10)}${kb(r.brotli).padStart(10)}`,
  );
}
const home = rows.find((r) => r.route === '/ (inicio)');
if (home) {
  const ok = home.gzip <= BUDGETS.homeInitialJsGzip;
  console.log(
    `\n${ok ? '✓' : '✗'} Inicio: ${kb(home.gzip)} gzip de JavaScript inicial (presupuesto ${kb(BUDGETS.homeInitialJsGzip)})`,
  );
  if (!ok) fail(`JavaScript inicial del inicio: ${kb(home.gzip)} gzip > ${kb(BUDGETS.homeInitialJsGzip)}`);

  // The biggest pieces of the home page, to see what to cut when the budget breaks.
  const pieces = new Map();
  for (const k of routeKeys['/ (inicio)']) {
    const file = manifest[k].file;
    if (!file.endsWith('.js')) continue;
    for (const m of chunkModules[file] ?? []) {
      const name = m.startsWith('npm:') ? m : m.split('/').slice(0, 3).join('/');
      pieces.set(name, (pieces.get(name) ?? 0) + 1);
    }
  }
  const npm = [...pieces.keys()].filter((p) => p.startsWith('npm:')).map((p) => p.slice(4));
  console.log(`  paquetes en el inicio: ${npm.sort().join(', ')}`);
}

// ── 2. No admin/checkout code on catalogue pages ─────────────────────────────────────────────────
for (const route of CATALOGUE) {
  const keys = routeKeys[route];
  if (!keys) continue;
  for (const k of keys) {
    const file = manifest[k].file;
    if (!file.endsWith('.js')) continue;
    const modules = chunkModules[file];
    if (!modules) {
      fail(`${file} no aparece en chunk-modules.json (¿falta el plugin en vite.config.ts?)`);
      continue;
    }
    const bad = modules.filter((m) => FORBIDDEN.some((re) => re.test(m)));
    if (bad.length > 0) fail(`${route} carga ${file} con código de otra área: ${bad.join(', ')}`);
  }
}
// The check must be able to fail: the admin and checkout chunks do hold those modules.
for (const route of ['/admin/*', '/orden']) {
  const keys = routeKeys[route];
  if (!keys) continue;
  const all = [...keys].flatMap((k) => chunkModules[manifest[k].file] ?? []);
  if (!all.some((m) => FORBIDDEN.some((re) => re.test(m))))
    fail(`${route}: no se reconocen sus módulos en chunk-modules.json; la comprobación de áreas no sirve`);
}
if (!failures.some((f) => f.includes('código de otra área')))
  console.log(
    `✓ Ninguna página del catálogo (${CATALOGUE.length} rutas) carga código de admin, pago, pedidos, facturas o cuenta`,
  );

// ── 3. Fonts local or system; no third-party requests from the page shell ───────────────────────
const html = readFileSync(join(dir, 'index.html'), 'utf8');
for (const m of html.matchAll(/<(?:script|link)\b[^>]*(?:src|href)="(https?:)?\/\/[^"]+"[^>]*>/g))
  fail(`index.html carga un recurso externo: ${m[0]}`);
const cssFiles = Object.values(manifest).flatMap((e) => e.css ?? []);
let fontFaces = 0;
for (const css of new Set(cssFiles)) {
  const text = readFileSync(join(dir, css), 'utf8');
  if (/@import\s+(url\()?["']?(https?:)?\/\//.test(text)) fail(`${css} importa una hoja de estilos externa`);
  for (const face of text.matchAll(/@font-face\s*{[^}]*}/g)) {
    fontFaces += 1;
    if (/url\(\s*["']?(https?:)?\/\//.test(face[0]))
      fail(`${css}: @font-face con fuente externa: ${face[0]}`);
  }
}
if (!failures.some((f) => /externa|externo/.test(f)))
  console.log(
    `✓ Fuentes ${fontFaces === 0 ? 'del sistema (ninguna @font-face)' : `locales (${fontFaces} @font-face propias)`}; nada externo en index.html ni en el CSS`,
  );

// ── 4. Images sized and loading said, in the code of the catalogue and cart pages ───────────────
const sourceFiles = new Set();
for (const route of [...CATALOGUE, '/carrito']) {
  for (const k of routeKeys[route] ?? []) {
    for (const m of chunkModules[manifest[k].file] ?? []) if (/^src\/.*\.tsx$/.test(m)) sourceFiles.add(m);
  }
}
let images = 0;
for (const file of sourceFiles) {
  const text = readFileSync(join(root, file), 'utf8');
  for (const m of text.matchAll(/<img\b[\s\S]*?\/>/g)) {
    images += 1;
    const tag = m[0];
    const line = text.slice(0, m.index).split('\n').length;
    const missing = [];
    if (!/\swidth=/.test(tag)) missing.push('width');
    if (!/\sheight=/.test(tag)) missing.push('height');
    if (!/\s(loading|fetchPriority)=/.test(tag)) missing.push('loading o fetchPriority');
    if (missing.length > 0) fail(`${file}:${line}: <img> sin ${missing.join(', ')}`);
  }
}
if (images === 0)
  fail('No se encontró ningún <img> en las páginas del catálogo: la comprobación de imágenes no sirve');
else if (!failures.some((f) => f.includes('<img>')))
  console.log(
    `✓ ${images} etiquetas <img> del catálogo y el carrito con width, height y loading/fetchPriority`,
  );

// ── 5. React, not a stand-in behind an alias ────────────────────────────────────────────────────
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) {
  for (const name of Object.keys(pkg[field] ?? {}))
    if (/(^|\/)preact/.test(name)) fail(`package.json (${field}) declara ${name}: el cliente corre en React`);
}
for (const [file, modules] of Object.entries(chunkModules)) {
  const bad = modules.filter((m) => /^npm:(@[^/]+\/)?preact/.test(m));
  if (bad.length > 0 || /\bpreact\b/.test(readFileSync(join(dir, file), 'utf8')))
    fail(`${file} contiene Preact${bad.length > 0 ? ` (${bad.join(', ')})` : ''}: el cliente corre en React`);
}
if (!Object.values(chunkModules).some((modules) => modules.includes('npm:react-dom')))
  fail('Ningún chunk contiene react-dom: la comprobación de React no reconoce la compilación');
else if (!failures.some((f) => f.includes('Preact') || f.includes('preact')))
  console.log('✓ React 19 en el navegador: ningún chunk ni package.json menciona preact');

if (failures.length > 0) {
  console.error(`\n✗ Presupuestos incumplidos (${failures.length}):`);
  for (const f of failures) console.error(`  - ${f}`);
  process.exit(1);
}
console.log('\n✓ Presupuestos del cliente cumplidos');
