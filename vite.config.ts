import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const apiPort = process.env.API_PORT ?? '3001';

/**
 * Writes .vite/chunk-modules.json next to the manifest: for each JavaScript chunk, the source modules
 * inside it (project paths, or `npm:<package>`). scripts/check-budgets.mjs reads it to prove that no
 * chunk a catalogue page loads carries admin or checkout code.
 */
function chunkModules(): Plugin {
  return {
    name: 'tienda-chunk-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      const map: Record<string, string[]> = {};
      for (const [fileName, chunk] of Object.entries(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const ids = new Set<string>();
        for (const id of chunk.moduleIds) {
          const clean = id.replace(/\?.*$/, '');
          const pkg = clean.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
          ids.add(pkg ? `npm:${pkg[1]}` : relative(import.meta.dirname, clean));
        }
        map[fileName] = [...ids].sort();
      }
      this.emitFile({
        type: 'asset',
        fileName: '.vite/chunk-modules.json',
        source: `${JSON.stringify(map, null, 1)}\n`,
      });
    },
  };
}

/**
 * The built index.html carries the icon itself (src/client/public/favicon.svg, ≈ 250 bytes) as a data: URL: a
 * request for /favicon.svg, which Chromium makes while the page is still painting, would otherwise be one more
 * request before the largest paint — on a slow phone link, a second connection to open (Lighthouse's simulated LCP
 * of the product page ≈ 0.93 → 1.07 s in the runs where it started first; docs/decisions/041). The file stays in
 * public/ for whoever asks for it by address. In development index.html keeps the address.
 */
function inlineFavicon(): Plugin {
  return {
    name: 'tienda-inline-favicon',
    apply: 'build',
    transformIndexHtml(html) {
      const svg = readFileSync(resolve(import.meta.dirname, 'src/client/public/favicon.svg'), 'utf8').trim();
      const data = `data:image/svg+xml,${encodeURIComponent(svg).replace(/%20/g, ' ').replace(/%3D/g, '=').replace(/%3A/g, ':').replace(/%2F/g, '/').replace(/%22/g, "'")}`;
      return html.replace('href="/favicon.svg"', `href="${data}"`);
    },
  };
}

export default defineConfig({
  root: resolve(import.meta.dirname, 'src/client'),
  publicDir: resolve(import.meta.dirname, 'src/client/public'),
  // React 19 runs the client (docs/decisions/011); the plugin gives Fast Refresh in development.
  plugins: [react(), tailwindcss(), chunkModules(), inlineFavicon()],
  resolve: {
    alias: [{ find: /^@\//, replacement: `${resolve(import.meta.dirname, 'src')}/` }],
  },
  build: {
    // CLIENT_OUT_DIR lets parallel work build into its own folder (the server reads CLIENT_DIR).
    outDir: resolve(import.meta.dirname, process.env.CLIENT_OUT_DIR ?? 'dist/client'),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    // .vite/manifest.json: entry, static imports and lazy chunks of every route (scripts/check-budgets.mjs).
    manifest: true,
    // Every browser the shop supports knows <link rel="modulepreload">; the polyfill is dead weight.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // V8's explicit compile hint (Chromium 136+; other engines read a comment): the framework chunk is
        // compiled whole while it downloads, on a background thread, instead of function by function on the main
        // thread the first time React DOM runs and hydrates (main-thread CPU of the start 91 → 79 ms, its second
        // longest task 8–12 → 6–8 ms on the product page; docs/decisions/038). After minification, so it stays the
        // file's first line. Only this chunk: our own chunks showed no further gain.
        postBanner: (chunk) => (chunk.name === 'framework' ? '//# allFunctionsCalledOnLoad' : ''),
        codeSplitting: {
          groups: [
            // The framework every page needs, in one long-cached file that changes only with the
            // dependencies (a deployment of the shop's own code does not invalidate it).
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/](query-core|react-query))[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    port: Number(process.env.PORT ?? 3000),
    proxy: {
      '/api': `http://127.0.0.1:${apiPort}`,
      '/healthz': `http://127.0.0.1:${apiPort}`,
      '/readyz': `http://127.0.0.1:${apiPort}`,
      '/dev': `http://127.0.0.1:${apiPort}`,
    },
  },
});
