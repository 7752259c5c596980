// Preloaded (`node --import tsx --import ./scripts/quick-start.mjs …`) by the test harnesses that start the shop
// or its commands many times: the crash tests (≈ 23 starts), the journeys' servers, the API tests' instances and
// commands. Two savings on a process start, nothing else (decision 040):
//
// 1. drizzle-orm's ≈ 150 modules import each other with relative `./x.js` specifiers. For each one, Node 24
//    looks up the package scope to learn the module's format, and its package.json reader, by spreading the
//    package data into a new object, runs the lazy `exports` getter: drizzle-orm's package.json is 179 kB,
//    parsed again for every relative import — ≈ 0.4 s of CPU (and its garbage) per start, a fifth of it. The
//    hook answers those specifiers itself: the same file URL, and the format the package declares
//    ("type": "module"; its CommonJS files are .cjs and never loaded here). Everything else goes on to tsx and
//    Node unchanged.
// 2. Node's on-disk compile cache (V8 code cache) for the modules the process loads, in
//    node_modules/.cache/node-compile-cache (kept beside the dependencies it caches, reset by a fresh install);
//    a server is usually killed, so src/server/main.ts writes the cache once it is listening.
import { enableCompileCache, registerHooks } from 'node:module';

const DRIZZLE = '/node_modules/drizzle-orm/';
const projectUrl = new URL('..', import.meta.url).href;
/** drizzle-orm's specifiers as resolved from the project's own files. */
const fromProject = new Map();

registerHooks({
  resolve(specifier, context, nextResolve) {
    const parent = context.parentURL;
    if (
      parent?.startsWith('file:') &&
      parent.includes(DRIZZLE) &&
      (specifier.startsWith('./') || specifier.startsWith('../')) &&
      specifier.endsWith('.js')
    ) {
      const url = new URL(specifier, parent).href;
      if (url.includes(DRIZZLE)) return { url, format: 'module', shortCircuit: true };
    }
    // The app's own files name the package itself ('drizzle-orm', 'drizzle-orm/pg-core') ≈ 150 times; each
    // resolution reads its exports map again. From the project's files the answer is the same every time.
    if (
      (specifier === 'drizzle-orm' || specifier.startsWith('drizzle-orm/')) &&
      parent?.startsWith(projectUrl) &&
      !parent.includes('/node_modules/')
    ) {
      // Keyed by the conditions too: a require() (conditions "require", …) resolves to the CommonJS build.
      const key = `${specifier} ${context.conditions?.join(',')}`;
      const known = fromProject.get(key);
      if (known) return { url: known.url, format: known.format, shortCircuit: true };
      const resolved = nextResolve(specifier, context);
      fromProject.set(key, resolved);
      return resolved;
    }
    return nextResolve(specifier, context);
  },
});

enableCompileCache(new URL('../node_modules/.cache/node-compile-cache', import.meta.url).pathname);
