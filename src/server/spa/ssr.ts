import { PassThrough, type Transform, Writable } from 'node:stream';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import type { RouteEntry } from '../../client/app/route-table.ts';
import type { LoadPage, PageModule } from '../../client/app/routes.tsx';
import { createPageRenderer } from '../../client/entry-server.tsx';
import { SSR_STATE_ID } from '../../client/lib/query-client.ts';
import type { CatalogReads } from '../../shared/catalog-reads.ts';
import { type PageMeta, pageMeta } from '../seo/page-meta.ts';
import { productPhotoPreload } from './preload-hints.ts';

/**
 * Server rendering of the route table's pages (docs/decisions/012). The client's page modules are imported as
 * source through tsx (the server already runs under it), so the HTML is rendered by the very code the browser
 * hydrates, and no build is needed to render.
 *
 * One response, in order:
 *  1. the page's own read decides its status and metadata (an unknown product is a 404 before any byte leaves);
 *  2. the document's head goes out at once — CSS, the entry script, the page's modulepreloads, title, description,
 *     canonical, Open Graph, JSON-LD — so the browser fetches the CSS and the JavaScript while the server still
 *     reads the rest of the page's data (a listing's cards and facets, the menu's categories);
 *  3. React's renderToPipeableStream streams the body into <div id="root">;
 *  4. the query cache the page was rendered from, as JSON, for hydrateRoot (no inline script: the CSP allows none).
 * If rendering fails after the head has left, the body closes empty and without that JSON: the browser then
 * renders the page itself, as before server rendering existed.
 */

const clientSource = new URL('../../client/', import.meta.url);
const pageModules = new Map<string, Promise<PageModule>>();
/** Each page module imported once (a dynamic import() goes through tsx's loader hooks every time it is called). */
const loadPage: LoadPage = (page) => {
  let module = pageModules.get(page);
  if (!module) {
    module = import(new URL(page, clientSource).href) as Promise<PageModule>;
    pageModules.set(page, module);
  }
  return module;
};
const renderPage = createPageRenderer(loadPage);

/** React gives up on a render that has not finished by then (the stream is closed with what it has). */
const RENDER_TIMEOUT_MS = 10_000;

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** JSON inside <script> must not be able to close the tag. */
const safeJson = (value: unknown) =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

/** The page's metadata as head elements. */
export function metaTags(meta: PageMeta): string[] {
  return [
    `<title>${escapeHtml(meta.title)}</title>`,
    `<meta name="description" content="${escapeHtml(meta.description)}">`,
    `<link rel="canonical" href="${escapeHtml(meta.canonical)}">`,
    `<meta property="og:title" content="${escapeHtml(meta.title)}">`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}">`,
    `<meta property="og:url" content="${escapeHtml(meta.canonical)}">`,
    `<meta property="og:type" content="${meta.ogType ?? 'website'}">`,
    '<meta property="og:locale" content="es_MX">',
    ...(meta.image ? [`<meta property="og:image" content="${escapeHtml(meta.image)}">`] : []),
    ...Object.entries(meta.openGraph ?? {}).map(
      ([property, content]) => `<meta property="${escapeHtml(property)}" content="${escapeHtml(content)}">`,
    ),
    ...(meta.jsonLd ? [`<script type="application/ld+json">${safeJson(meta.jsonLd)}</script>`] : []),
  ];
}

export type HtmlTemplate = { head: string; bodyOpen: string; tail: string };

/**
 * The built index.html with its stylesheets written inline. A page's first response is the only HTML a visit
 * loads (the browser navigates by itself after hydration), so the CSS is needed exactly once per visit: inline,
 * the first paint waits for the HTML alone instead of one more request that competes with the JavaScript for the
 * connection (render-blocking, ≈ 12 KB compressed).
 */
export function inlineStylesheets(html: string, readAsset: (path: string) => string | null): string {
  return html.replace(
    /<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/g,
    (tag, href: string) => {
      const css = readAsset(href);
      return css === null ? tag : `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>`;
    },
  );
}

/** The built index.html cut where the server writes: the head's end, and the root element's content. */
export function splitTemplate(html: string): HtmlTemplate {
  const headEnd = html.indexOf('</head>');
  const rootTag = '<div id="root"></div>';
  const root = html.indexOf(rootTag);
  if (headEnd < 0 || root < headEnd) throw new Error('index.html necesita </head> y <div id="root"></div>');
  return {
    head: html
      .slice(0, headEnd)
      .replace(/<title>[\s\S]*?<\/title>\s*/, '')
      .replace(/\s*<!--page-meta-->/, ''),
    bodyOpen: `${html.slice(headEnd, root)}<div id="root">`,
    tail: html.slice(root + rootTag.length),
  };
}

type Encoding = 'br' | 'gzip' | 'identity';

/** The best encoding the browser accepts (q=0 refuses); the HTML is compressed here, chunk by chunk. */
export function negotiateEncoding(header: string | undefined): Encoding {
  const accepted = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return 'identity';
}

/**
 * The response body: compressed so that each flush really leaves (a plain compression stream would hold the
 * head back until it had 16 KB). Brotli at quality 4 and gzip at level 4: every page is compressed afresh
 * (≈ 70 KB of HTML with its inline CSS), so speed counts more than the last percent of size.
 */
function bodyStream(encoding: Encoding): Transform & { flush?: () => void } {
  if (encoding === 'br') return createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
  if (encoding === 'gzip') return createGzip({ level: 4 });
  return new PassThrough();
}

/** Streams React's HTML into `out` (flushing when React does) and ends `out` with `tail()`. */
function pipeReact(
  element: ReactNode,
  out: Transform & { flush?: () => void },
  tail: () => string,
  onError: (error: unknown) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const sink = new Writable({
      write(chunk, _encoding, done) {
        out.write(chunk, done);
      },
      final(done) {
        clearTimeout(timer);
        out.end(tail());
        done();
        resolve();
      },
    });
    // React calls flush() on its destination after each batch it writes: pass it on to the compressor.
    Object.assign(sink, { flush: () => out.flush?.() });
    const stream = renderToPipeableStream(element, {
      onShellReady: () => stream.pipe(sink),
      onShellError: (error) => {
        clearTimeout(timer);
        reject(error);
      },
      onError,
    });
    timer = setTimeout(() => stream.abort(new Error('El renderizado tardó demasiado')), RENDER_TIMEOUT_MS);
    timer.unref();
  });
}

export async function streamPage(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: {
    url: URL;
    template: HtmlTemplate;
    reads: CatalogReads;
    publicUrl: string;
    preloadHints: (entry: RouteEntry) => string[];
  },
): Promise<FastifyReply> {
  const page = await renderPage(ctx.url, ctx.reads);
  if (page.redirect) return reply.redirect(page.redirect, page.temporary ? 302 : 301);

  const encoding = negotiateEncoding(request.headers['accept-encoding']);
  const out = bodyStream(encoding);
  reply.code(page.status).header('Cache-Control', 'no-cache').type('text/html; charset=utf-8');
  reply.header('Vary', 'Accept-Encoding');
  if (encoding !== 'identity') reply.header('Content-Encoding', encoding);
  const photo = productPhotoPreload(page.facts.product);
  const head = [
    ...(photo ? [photo] : []),
    ...ctx.preloadHints(page.entry),
    ...metaTags(pageMeta(page, ctx.url, ctx.publicUrl)),
  ];
  out.write(`${ctx.template.head}  ${head.join('\n    ')}\n  ${ctx.template.bodyOpen}`);
  out.flush?.();
  reply.send(out);

  const closeRoot = (state: string | null) =>
    `</div>${state === null ? '' : `<script type="application/json" id="${SSR_STATE_ID}">${state}</script>`}${ctx.template.tail}`;
  try {
    const { element, state } = await page.body();
    await pipeReact(
      element,
      out,
      () => closeRoot(state()),
      (error) => request.log.error({ err: error }, 'error al renderizar la página'),
    );
  } catch (error) {
    request.log.error(
      { err: error },
      'no se pudo renderizar la página en el servidor; la renderiza el navegador',
    );
    out.end(closeRoot(null));
  }
  return reply;
}
