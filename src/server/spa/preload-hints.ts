import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PageMeta } from '../seo/page-meta.ts';

/**
 * Hints written into index.html so the browser fetches, in parallel with the framework, what it
 * would otherwise discover only after the JavaScript ran:
 *  - <link rel="modulepreload"> for the page's own lazy chunk and its static imports (from the Vite
 *    manifest): the router waits for that chunk before it renders anything, so without the hint the
 *    first paint waits one more round trip;
 *  - on a product page, <link rel="preload" as="image"> for the product photo with the same
 *    srcset/sizes as the <img>, fetchpriority high: it is the page's largest contentful paint;
 *  - on a product, group or brand page (without filters in the URL), <link rel="preload" as="fetch">
 *    for the exact API request the page makes first, so its answer is there when the code runs.
 */

/** Route patterns → the page module the client router lazy-loads for them (keys of the Vite manifest). */
export const ROUTE_MODULES: [RegExp, string][] = [
  [/^\/$/, 'catalog/pages/home-page.tsx'],
  [/^\/todas_las_marcas$/, 'catalog/pages/brands-page.tsx'],
  [/^\/marcas\/[^/]+$/, 'catalog/pages/brand-page.tsx'],
  [/^\/grupos\/[^/]+$/, 'catalog/pages/group-page.tsx'],
  [/^\/busqueda\/[^/]+$/, 'catalog/pages/search-page.tsx'],
  [/^\/productos\/[^/]+$/, 'catalog/pages/product-page.tsx'],
  [/^\/carrito$/, 'cart/pages/cart-page.tsx'],
  [
    /^\/(preguntas_frecuentes|contacto|nosotros|terminos_y_condiciones|cookies_policy|politica_de_privacidad|politica_de_envios|facturacion|politica_de_venta|politica_de_devoluciones|sucursales)$/,
    'static-pages/pages/static-page.tsx',
  ],
];

/** Must match IMAGE_WIDTHS of src/client/catalog/components/product-image.tsx (a test checks it). */
export const IMAGE_WIDTHS = [160, 320, 640] as const;
/** Must match the `sizes` of the product photo on src/client/catalog/pages/product-page.tsx (tested). */
export const PRODUCT_PHOTO_SIZES = '(min-width: 1280px) 540px, (min-width: 768px) 44vw, calc(100vw - 4rem)';

type ManifestEntry = { file: string; imports?: string[]; isEntry?: boolean };
type Manifest = Record<string, ManifestEntry>;

const escapeAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function closure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key) || !manifest[key]) return seen;
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) closure(manifest, imported, seen);
  return seen;
}

/** The product photo preload, from the page's Open Graph image (…/image?v=hash&w=640). */
export function productPhotoPreload(meta: PageMeta): string | null {
  if (meta.ogType !== 'product' || !meta.image || (meta.status ?? 200) !== 200) return null;
  const url = new URL(meta.image);
  // Same-origin path, exactly as the <img> asks for it (the client builds `${imageUrl}&w=N`).
  const path = `${url.pathname}?${url.searchParams
    .toString()
    .replace(/(^|&)w=\d+/, '')
    .replace(/^&/, '')}`;
  const sized = (w: number) => `${path}&w=${w}`;
  const srcset = IMAGE_WIDTHS.map((w) => `${sized(w)} ${w}w`).join(', ');
  return `<link rel="preload" as="image" href="${escapeAttr(sized(640))}" imagesrcset="${escapeAttr(srcset)}" imagesizes="${escapeAttr(PRODUCT_PHOTO_SIZES)}" fetchpriority="high">`;
}

const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
};

/**
 * The page's first API request, written exactly as the client writes it (get-product.ts and
 * productsSearchParams in get-products.ts): a preload only helps when the URLs are identical.
 */
export function apiPreload(url: URL, meta: PageMeta): string | null {
  if ((meta.status ?? 200) !== 200) return null;
  const match = url.pathname.match(/^\/(productos|grupos|marcas)\/([^/]+)$/);
  if (!match) return null;
  const value = decode(match[2]!);
  if (value === null) return null;
  let href: string;
  if (match[1] === 'productos') href = `/api/products/${encodeURIComponent(value)}`;
  else if (url.search !== '')
    return null; // filters, sort or page: the client builds another query
  else href = `/api/products?${new URLSearchParams({ [match[1] === 'grupos' ? 'group' : 'brand']: value })}`;
  return `<link rel="preload" as="fetch" crossorigin href="${escapeAttr(href)}">`;
}

/**
 * Reads the Vite manifest of the built client once; returns the hints for one request. Without a
 * manifest (an old build) there are no module hints, only the photo preload.
 */
export function createPreloadHints(clientDir: string, warn: (message: string) => void) {
  const manifestPath = join(clientDir, '.vite', 'manifest.json');
  const manifest: Manifest = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')) : {};
  const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  const inIndex = entryKey ? closure(manifest, entryKey) : new Set<string>();
  const byModule = new Map<string, string[]>();
  for (const [, key] of ROUTE_MODULES) {
    if (!manifest[key]) {
      if (entryKey) warn(`preload: ${key} no está en el manifiesto del cliente`);
      continue;
    }
    const files = [...closure(manifest, key)]
      .filter((k) => !inIndex.has(k))
      .map((k) => manifest[k]!.file)
      .filter((f) => f.endsWith('.js'));
    byModule.set(
      key,
      files.map((f) => `<link rel="modulepreload" crossorigin href="/${escapeAttr(f)}">`),
    );
  }

  return (url: URL, meta: PageMeta): string[] => {
    const route = ROUTE_MODULES.find(([pattern]) => pattern.test(url.pathname));
    const modules = route ? (byModule.get(route[1]) ?? []) : [];
    return [productPhotoPreload(meta), apiPreload(url, meta), ...modules].filter(
      (t): t is string => t !== null,
    );
  };
}
