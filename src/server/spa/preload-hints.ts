import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROUTES, type RouteEntry } from '../../client/app/route-table.ts';
import { PRODUCT_PHOTO_SIZES } from '../../client/catalog/components/product-detail.tsx';
import { IMAGE_WIDTHS, sizedImageUrl } from '../../client/catalog/components/product-image.tsx';
import type { ProductDetail } from '../../shared/schemas/catalog.ts';

/**
 * The page's own chunk and its static imports (from the Vite manifest), preloaded (modulepreload) together with
 * the entry by the boot script once the page has painted (docs/decisions/019). The browser loads a server-rendered page's chunk before it
 * hydrates (src/client/main.tsx), and a client-rendered page's right after: without the hint it would wait for
 * the entry to run first. The page's data needs no hint (it is in the HTML); the product photo gets one, so its
 * request starts with the head instead of when the body has been rendered and streamed.
 */

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

/**
 * Reads the Vite manifest of the built client once; returns the hints of a route table entry. Without a
 * manifest (an old build) there are none.
 */
export function createPreloadHints(clientDir: string, warn: (message: string) => void) {
  const manifestPath = join(clientDir, '.vite', 'manifest.json');
  const manifest: Manifest = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')) : {};
  const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  const inIndex = entryKey ? closure(manifest, entryKey) : new Set<string>();
  const byPage = new Map<string, string[]>();
  for (const { page } of ROUTES) {
    if (byPage.has(page)) continue;
    if (!manifest[page]) {
      if (entryKey) warn(`preload: ${page} no está en el manifiesto del cliente`);
      continue;
    }
    const files = [...closure(manifest, page)]
      .filter((k) => !inIndex.has(k))
      .map((k) => manifest[k]!.file)
      .filter((f) => f.endsWith('.js'));
    byPage.set(
      page,
      files.map((f) => `/${f}`),
    );
  }
  /** The page's own modules (paths), preloaded with the entry by the boot script (src/server/spa/boot-script.ts). */
  return (entry: RouteEntry): string[] => byPage.get(entry.page) ?? [];
}

/** The product photo, preloaded from the head with the srcset and sizes of its <img>, high priority (the LCP). */
export function productPhotoPreload(product: Pick<ProductDetail, 'imageUrl'> | undefined): string | null {
  if (!product?.imageUrl) return null;
  const url = product.imageUrl;
  const srcset = IMAGE_WIDTHS.map((w) => `${sizedImageUrl(url, w)} ${w}w`).join(', ');
  return `<link rel="preload" as="image" href="${escapeAttr(sizedImageUrl(url, 640))}" imagesrcset="${escapeAttr(srcset)}" imagesizes="${escapeAttr(PRODUCT_PHOTO_SIZES)}" fetchpriority="high">`;
}
