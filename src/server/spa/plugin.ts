import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sendNotFound } from '../http/errors.ts';
import { type PageMeta, resolvePageMeta } from '../seo/page-meta.ts';
import { createPreloadHints } from './preload-hints.ts';

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** JSON inside <script> must not be able to close the tag. */
const safeJson = (value: unknown) =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

export function renderIndexHtml(template: string, meta: PageMeta, hints: string[] = []): string {
  const tags = [
    ...hints,
    `<title>${escapeHtml(meta.title)}</title>`,
    `<meta name="description" content="${escapeHtml(meta.description)}">`,
    `<link rel="canonical" href="${escapeHtml(meta.canonical)}">`,
    `<meta property="og:title" content="${escapeHtml(meta.title)}">`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}">`,
    `<meta property="og:url" content="${escapeHtml(meta.canonical)}">`,
    `<meta property="og:type" content="${meta.ogType ?? 'website'}">`,
    `<meta property="og:locale" content="es_MX">`,
    meta.image ? `<meta property="og:image" content="${escapeHtml(meta.image)}">` : '',
    ...Object.entries(meta.openGraph ?? {}).map(
      ([property, content]) => `<meta property="${escapeHtml(property)}" content="${escapeHtml(content)}">`,
    ),
    meta.jsonLd ? `<script type="application/ld+json">${safeJson(meta.jsonLd)}</script>` : '',
  ]
    .filter(Boolean)
    .join('\n    ');
  return template.replace(/<title>[\s\S]*?<\/title>/, '').replace('<!--page-meta-->', tags);
}

/**
 * Serves the built client: hashed assets cached for a year, index.html never cached and written
 * per route with its metadata; every non-API GET that is not a file falls back to index.html.
 */
export const spaPlugin = fp(async (app: FastifyInstance, opts: { clientDir: string; publicUrl: string }) => {
  const indexPath = join(opts.clientDir, 'index.html');
  if (!existsSync(indexPath)) {
    app.log.warn({ clientDir: opts.clientDir }, 'no hay cliente compilado; ejecute npm run build');
    app.setNotFoundHandler((_request, reply) => sendNotFound(reply));
    return;
  }
  const template = readFileSync(indexPath, 'utf8');
  const preloadHints = createPreloadHints(opts.clientDir, (message) => app.log.warn(message));

  await app.register(fastifyStatic, {
    root: opts.clientDir,
    prefix: '/',
    wildcard: false,
    index: false,
    setHeaders(res, path) {
      if (path.includes(`${join(opts.clientDir, 'assets')}`)) {
        res.header('Cache-Control', 'public, max-age=31536000, immutable');
      } else {
        res.header('Cache-Control', 'public, max-age=3600');
      }
    },
  });

  app.setNotFoundHandler(async (request, reply) => {
    const url = new URL(request.url, 'http://x');
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !url.pathname.startsWith('/api/') &&
      !url.pathname.startsWith('/assets/');
    if (!isPage) return sendNotFound(reply);
    const meta = await resolvePageMeta(url.pathname, app.db, opts.publicUrl);
    return reply
      .code(meta.status ?? 200)
      .header('Cache-Control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(renderIndexHtml(template, meta, preloadHints(url, meta)));
  });
});
