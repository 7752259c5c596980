import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import type { RouteEntry } from '../../client/app/route-table.ts';
import type { LoadPage, PageModule } from '../../client/app/routes.tsx';
import { createPageRenderer, PAGE_MARKER, PAGE_START, type PageFrame } from '../../client/entry-server.tsx';
import { SSR_STATE_ID } from '../../client/lib/query-client.ts';
import type { CatalogReads } from '../../shared/catalog-reads.ts';
import { escapeMarkup } from '../../shared/escape.ts';
import { shop } from '../../shared/shop.ts';
import type { RenderBudget } from '../http/rate-limit.ts';
import { type PageMeta, pageMeta } from '../seo/page-meta.ts';
import { bootScriptTag, withBootScript } from './boot-script.ts';
import { classesIn, type SplitStylesheet, splitStylesheet, utilitiesFor } from './css-subset.ts';
import { gzipWriter, type Segment, segment, segmentText } from './gzip-segments.ts';
import { HtmlCache } from './html-cache.ts';
import { productPhotoPreload } from './preload-hints.ts';
import { SERVER_PAGES } from './server-pages.ts';

/**
 * Server rendering of the route table's pages (docs/decisions/012). The client's page modules are imported as
 * source (server-pages.ts) — through tsx in development and tests, bundled with the server in its build
 * (docs/decisions/055) — so the HTML is rendered by the very code the browser hydrates.
 *
 * One response, in order:
 *  1. the page's own read decides its status and metadata (an unknown product is a 404 before any byte leaves);
 *  2. the document's head goes out at once — CSS inline, title, description, canonical, Open Graph, JSON-LD, the
 *     product photo's preload and the boot script that starts the JavaScript after the first paint
 *     (boot-script.ts) — while the server still reads the rest of the page's data (a listing's cards and facets,
 *     the menu's categories);
 *  3. React's renderToPipeableStream renders the body into <div id="root">, followed by
 *  4. the query cache the page was rendered from, as JSON, for hydrateRoot.
 * Steps 3–4 are kept per address and data (html-cache.ts, docs/decisions/019): a request whose reads return what
 * an earlier render was made of gets that body again, already compressed; the response is gzip spliced from
 * pieces (gzip-segments.ts), the template's compressed once.
 * If rendering fails after the head has left, the body closes empty and without that JSON: the browser then
 * renders the page itself, as before server rendering existed.
 */

const pageModules = new Map<string, Promise<PageModule>>();
/** Each page module imported once (under tsx a dynamic import() goes through its loader hooks every time it is called). */
const loadPage: LoadPage = (page) => {
  let module = pageModules.get(page);
  if (!module) {
    const load = SERVER_PAGES[page];
    module = load ? load() : Promise.reject(new Error(`La página ${page} no se renderiza en el servidor`));
    pageModules.set(page, module);
  }
  return module;
};
const renderPage = createPageRenderer(loadPage);

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

export type HtmlTemplate = {
  head: string;
  /** From the head's end to the body's opening tag; the root element opens with the page's body. */
  bodyOpen: string;
  tail: string;
  /** The stylesheet whose utilities are cut per page (css-subset.ts); the boot script loads it whole. */
  styles: PageStyles | null;
  /** The entry module and the modules index.html preloads with it, started by the boot script after the paint. */
  entry: string | null;
  preload: string[];
};

/** The built stylesheet whose utilities each page gets only as far as its markup uses them. */
export type PageStyles = { href: string; split: SplitStylesheet };

const styleElement = (css: string) => `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>`;

/**
 * The built index.html with its stylesheets written inline. A page's first response is the only HTML a visit
 * loads (the browser navigates by itself after hydration), so the CSS is needed exactly once per visit: inline,
 * the first paint waits for the HTML alone instead of one more request that competes with the JavaScript for the
 * connection (render-blocking). The head gets the stylesheet without its utilities' rules; each page's body
 * starts with the utilities its markup uses (css-subset.ts, docs/decisions/026): the document's CSS goes from
 * ≈ 10.6 KB to ≈ 6.5 KB compressed, under the first round trip's 14.6 KB with the page.
 */
export function inlineStylesheets(
  html: string,
  readAsset: (path: string) => string | null,
): { html: string; styles: PageStyles | null } {
  let styles: PageStyles | null = null;
  const out = html.replace(
    /<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/g,
    (tag, href: string) => {
      const css = readAsset(href);
      if (css === null) return tag;
      const split = styles ? null : splitStylesheet(css);
      if (!split) return styleElement(css);
      styles = { href, split };
      return styleElement(split.frame);
    },
  );
  return { html: out, styles };
}

/**
 * The built index.html cut where the server writes: the head's end, and the root element's content. The entry
 * `<script type="module">` and its `<link rel="modulepreload">`s are taken out of the head: the boot script starts
 * them after the first paint (src/server/spa/boot-script.ts, docs/decisions/019).
 */
export function splitTemplate(source: string, styles: PageStyles | null = null): HtmlTemplate {
  let entry: string | null = null;
  const preload: string[] = [];
  const html = source
    .replace(/\s*<script type="module"[^>]*\ssrc="([^"]+)"[^>]*><\/script>/g, (_tag, src: string) => {
      entry = src;
      return '';
    })
    .replace(/\s*<link rel="modulepreload"[^>]*\shref="([^"]+)"[^>]*>/g, (_tag, href: string) => {
      preload.push(href);
      return '';
    });
  const headEnd = html.indexOf('</head>');
  const rootTag = '<div id="root"></div>';
  const root = html.indexOf(rootTag);
  if (headEnd < 0 || root < headEnd) throw new Error('index.html necesita </head> y <div id="root"></div>');
  return {
    head: html
      .slice(0, headEnd)
      .replace(/<title>[\s\S]*?<\/title>\s*/, '')
      .replace(/\s*<!--page-meta-->/, ''),
    bodyOpen: html.slice(headEnd, root),
    tail: html.slice(root + rootTag.length),
    styles,
    entry,
    preload,
  };
}

type Encoding = 'gzip' | 'identity';

/**
 * gzip when the browser accepts it (q=0 refuses), else none. Not brotli: the page is spliced from pieces compressed
 * separately (src/server/spa/gzip-segments.ts) — the template with its inline CSS once at level 9, which is as small
 * as brotli at the quality a per-request compression could afford — and brotli streams cannot be spliced.
 */
export function negotiateEncoding(header: string | undefined): Encoding {
  const accepted = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  return (accepted.get('gzip') ?? accepted.get('*') ?? 0) > 0 ? 'gzip' : 'identity';
}

/**
 * React's HTML of `element`, whole. The tree does not suspend on the server (decision 012) and the body is kept
 * whole anyway (html-cache.ts: compressed once, sent again while its data is the same), so the render is the
 * synchronous `renderToString`: the same bytes as `renderToPipeableStream` collected after `onAllReady`, in ≈ 60 %
 * of its time (no stream, no encoding into chunks and back; docs/decisions/026). What streams is the response:
 * the head leaves before the page's data is read.
 */
function renderMarkup(element: ReactNode): string {
  return renderToString(element);
}

/**
 * Per template (one per process in production): its head and body opening compressed once at level 9, and the
 * rendered bodies by address and data (at most 32 MB).
 */
const templateParts = new WeakMap<
  HtmlTemplate,
  {
    head: Segment;
    bodyOpen: Segment;
    bodies: HtmlCache;
    utilities: Map<string, Segment>;
    heads: Map<string, Segment>;
    frames: Map<string, Frame | null>;
  }
>();

/**
 * A page's frame (entry-server.tsx), kept per key: its markup before and after the page, and the classes it uses.
 * null: the frame spliced around the page did not give the whole render's markup (not kept). Kept as text, not
 * compressed apart: the body is compressed as one piece with the page and the state (below).
 */
type Frame = { before: string; after: string; classes: ReadonlySet<string> };

/** Frames kept per template: one per route and menu version, one per address of the splat route (the 404 page). */
const MAX_FRAMES = 256;

/**
 * The frame of `key`, made once: the tree rendered with the marker in the page's place, cut there; and checked
 * once against the whole render of this request's page (entry-server.tsx's PageAlone must stand where Layout puts
 * the page). Then the page's own render: `hoisted`, what React put before the root's content (the preloads of
 * its high-priority images), and `markup`, its markup.
 */
export async function frameFor(
  template: HtmlTemplate,
  kept: Map<string, Frame | null>,
  frame: PageFrame,
  whole: () => Promise<ReactNode>,
  log: Pick<FastifyRequest['log'], 'error'>,
): Promise<{ frame: Frame; hoisted: string; markup: string } | null> {
  const known = kept.get(frame.key);
  if (known === null) return null;
  const alone = renderMarkup(await frame.page());
  const start = alone.indexOf(PAGE_START);
  if (start < 0 || !alone.endsWith('</div>')) return null;
  const hoisted = alone.slice(0, start);
  const markup = alone.slice(start + PAGE_START.length, -'</div>'.length);
  if (known) return { frame: known, hoisted, markup };
  const framed = renderMarkup(await frame.element());
  const at = framed.indexOf(PAGE_MARKER);
  const before = framed.slice(0, at);
  const after = framed.slice(at + PAGE_MARKER.length);
  const made =
    at >= 0 &&
    framed.indexOf(PAGE_MARKER, at + 1) < 0 &&
    hoisted + before + markup + after === renderMarkup(await whole())
      ? {
          before,
          after: `${after}</div>`,
          classes: classesIn(after, classesIn(before, classesIn(template.bodyOpen))),
        }
      : null;
  if (!made)
    log.error({ key: frame.key.split('\n')[0] }, 'el marco de la página no coincide con su render completo');
  if (kept.size >= MAX_FRAMES) kept.clear();
  kept.set(frame.key, made);
  return made && { frame: made, hoisted, markup };
}

/** A page's own head (metadata, boot script), compressed once (level 9) while it stays the same (the same page again). */
function headSegment(kept: Map<string, Segment>, text: string): Segment {
  let piece = kept.get(text);
  if (!piece) {
    piece = segment(text, 9);
    if (kept.size >= 4096) kept.clear();
    kept.set(text, piece);
  }
  return piece;
}

/**
 * gzip level of a rendered body (once per distinct body). Level 6 would be ≈ 3 % smaller (a product page: 117 bytes)
 * for ≈ 40 % more time on every first render: the first render is the costly case of `npm run bench`.
 */
const BODY_LEVEL = 4;

/** Different class sets kept per template (a page's set is the same for every product, listing…). */
const MAX_CLASS_SETS = 256;

/**
 * The `<style>` with the utilities the markup uses (css-subset.ts), compressed once per distinct set of classes
 * at level 9; none when the stylesheet is inline whole.
 */
function pageUtilities(
  template: HtmlTemplate,
  kept: Map<string, Segment>,
  markup: string,
  frame?: ReadonlySet<string>,
): Segment | null {
  if (!template.styles) return null;
  const classes = classesIn(markup, new Set(frame ?? classesIn(template.bodyOpen)));
  const key = [...classes].sort().join(' ');
  let piece = kept.get(key);
  if (!piece) {
    piece = segment(styleElement(utilitiesFor(template.styles.split, classes)), 9);
    if (kept.size >= MAX_CLASS_SETS) kept.clear();
    kept.set(key, piece);
  }
  return piece;
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
    /** The per-address budget of renders that miss the kept bodies (decision 053); none: unlimited. */
    renders?: RenderBudget | undefined;
  },
): Promise<FastifyReply> {
  const page = await renderPage(ctx.url, ctx.reads, request.cookies ?? {});
  if (page.redirect) return reply.redirect(page.redirect, page.temporary ? 302 : 301);

  let fixed = templateParts.get(ctx.template);
  if (!fixed) {
    fixed = {
      head: segment(ctx.template.head, 9),
      bodyOpen: segment(ctx.template.bodyOpen, 9),
      bodies: new HtmlCache(32 * 1024 * 1024),
      utilities: new Map(),
      heads: new Map(),
      frames: new Map(),
    };
    templateParts.set(ctx.template, fixed);
  }
  const address = `${ctx.url.pathname}${ctx.url.search}`;
  // An address past its budget of renders is served only what is kept: its data is read first (the head cannot
  // leave before it is known that the page will be served), and a page that would need a render is a 429.
  let read: { body: Awaited<ReturnType<typeof page.body>>; json: string } | undefined;
  const wait = ctx.renders?.retryAfter(request.ip) ?? 0;
  if (wait > 0) {
    try {
      const body = await page.body();
      read = { body, json: body.state() };
    } catch {
      return tooManyRenders(reply, wait);
    }
    if (!fixed.bodies.get(HtmlCache.key(address, page.status, read.json))) return tooManyRenders(reply, wait);
  }

  const encoding = negotiateEncoding(request.headers['accept-encoding']);
  reply.code(page.status).header('Cache-Control', 'no-cache').type('text/html; charset=utf-8');
  // A private page (the cart) is rendered from the visitor's cookies.
  reply.header('Vary', page.entry.private ? 'Accept-Encoding, Cookie' : 'Accept-Encoding');
  if (encoding !== 'identity') reply.header('Content-Encoding', encoding);
  const photo = productPhotoPreload(page.facts.product);
  const { entry, preload } = ctx.template;
  const head = [...(photo ? [photo] : []), ...metaTags(pageMeta(page, ctx.url, ctx.publicUrl))];
  // The boot script (≈ 2 KB, the same for every page of a route) is a piece of its own: a product seen for the
  // first time compresses only its metadata.
  const boot = entry
    ? bootScriptTag(entry, [...preload, ...ctx.preloadHints(page.entry)], ctx.template.styles?.href)
    : null;
  if (entry) {
    const csp = reply.getHeader('content-security-policy');
    if (typeof csp === 'string') reply.header('Content-Security-Policy', withBootScript(csp));
  }

  // The head leaves at once (CSS, metadata, the boot script) while the rest of the page's data is read.
  // The response is written on the socket's response itself, in two writes: the status, headers and head at
  // once, then the body with the chunked encoding's end. Through a stream handed to reply.send, the end left in
  // a third write of its own (5 bytes), and each write to a socket costs ≈ 70 µs of the server's CPU on loopback —
  // a tenth of a kept page's whole cost (docs/decisions/043). No onSend hook runs for a page: none applies to one
  // (the compression is the page's own, above); onResponse hooks and the request's log still run at its end.
  reply.hijack();
  const res = reply.raw;
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(reply.getHeaders()))
    if (value !== undefined) headers[name] = value;
  res.writeHead(page.status, headers);
  let pending: Buffer[] = [];
  const taken = () => {
    const chunk = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
    pending = [];
    return chunk;
  };
  const gzip = gzipWriter((chunk) => pending.push(chunk));
  const send = (piece: Segment) => (encoding === 'gzip' ? gzip.add(piece) : pending.push(segmentText(piece)));
  send(fixed.head);
  send(headSegment(fixed.heads, `  ${head.join('\n    ')}${boot ? '\n    ' : '\n  '}`));
  if (boot) send(headSegment(fixed.heads, `${boot}\n  `));
  send(fixed.bodyOpen);
  res.write(taken());

  const finish = () => {
    if (encoding === 'gzip') gzip.end();
    res.end(taken());
  };
  try {
    const { element, state, frame } = read?.body ?? (await page.body());
    const json = read?.json ?? state();
    // Same address, same data: the same body as last time, already compressed (docs/decisions/019).
    const key = HtmlCache.key(address, page.status, json);
    let body = fixed.bodies.get(key);
    if (!body) {
      ctx.renders?.spend(request.ip);
      // The body is compressed as one piece: the state repeats much of the markup (names, descriptions, prices),
      // and compressed with it that costs little. Pieces compressed apart (the kept frame's, the page's, the state's)
      // made a product page's document ≈ 1.4 KB larger — past the 14.6 KB a first round trip carries.
      const state = `<script type="application/json" id="${SSR_STATE_ID}">${json}</script>${ctx.template.tail}`;
      // The page alone inside its kept frame (docs/decisions/037), or the whole tree.
      const framed = frame && (await frameFor(ctx.template, fixed.frames, frame, element, request.log));
      if (framed) {
        const { frame: kept, hoisted, markup } = framed;
        const styles = pageUtilities(ctx.template, fixed.utilities, hoisted + markup, kept.classes);
        const root = segment(
          `<div id="root">${hoisted}${kept.before}${markup}${kept.after}${state}`,
          BODY_LEVEL,
        );
        body = styles ? [styles, root] : [root];
      } else {
        const markup = renderMarkup(await element());
        const styles = pageUtilities(ctx.template, fixed.utilities, markup);
        const root = segment(`<div id="root">${markup}</div>${state}`, BODY_LEVEL);
        body = styles ? [styles, root] : [root];
      }
      fixed.bodies.set(key, body);
    }
    for (const piece of body) send(piece);
  } catch (error) {
    request.log.error(
      { err: error },
      'no se pudo renderizar la página en el servidor; la renderiza el navegador',
    );
    // The root closes empty and without the state: the browser renders the page itself.
    send(segment(`<div id="root"></div>${ctx.template.tail}`, 4));
  }
  finish();
  return reply;
}

/**
 * 429 for an address past its budget of renders (decision 053): a small page of its own, never rendered, in
 * Spanish, with Retry-After; the kept pages stay served to that address meanwhile.
 */
function tooManyRenders(reply: FastifyReply, seconds: number): FastifyReply {
  const name = escapeMarkup(shop.tradeName);
  return reply
    .code(429)
    .header('Retry-After', String(seconds))
    .header('Cache-Control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(`<!doctype html>
<html lang="es-MX">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Demasiadas solicitudes · ${name}</title></head>
<body>
<main>
<h1>Demasiadas solicitudes</h1>
<p>Desde su conexión se pidieron muchas páginas distintas en poco tiempo. Espere ${seconds} segundos y vuelva a intentarlo.</p>
<p><a href="/">Ir a la página de inicio de ${name}</a></p>
</main>
</body>
</html>
`);
}
