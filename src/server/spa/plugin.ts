import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { cartQuoteSchema } from '../../shared/schemas/cart.ts';
import { quoteCart } from '../cart/quote.ts';
import { sendNotFound } from '../http/errors.ts';
import type { RenderBudget } from '../http/rate-limit.ts';
import { buyingFor } from '../institutions/membership.ts';
import { catalogReads } from './catalog-reads.ts';
import { createPreloadHints } from './preload-hints.ts';
import { inlineStylesheets, splitTemplate, streamPage } from './ssr.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The shop's 404 page, for an address the router could not even read (set when the client is built). */
    notFoundPage?: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
  }
}

/** An address outside the route table (its '*' route: 'Página no encontrada', 404). */
const NO_PAGE = '/direccion-no-valida';

/** renders: the per-address budget of renders that miss the kept bodies (decision 053). */
type SpaOptions = { clientDir: string; publicUrl: string; renders?: RenderBudget };

/**
 * Serves the built client: hashed assets cached for a year; every other GET outside /api and /assets is a page
 * of the route table, rendered on the server (src/server/spa/ssr.ts) with its status, metadata and content,
 * never cached (prices and stock are read at each request).
 */
export const spaPlugin = fp(async (app: FastifyInstance, opts: SpaOptions) => {
  const indexPath = join(opts.clientDir, 'index.html');
  if (!existsSync(indexPath)) {
    app.log.warn({ clientDir: opts.clientDir }, 'no hay cliente compilado; ejecute npm run build');
    app.setNotFoundHandler((_request, reply) => sendNotFound(reply));
    return;
  }
  const inlined = inlineStylesheets(readFileSync(indexPath, 'utf8'), (href) => {
    const file = join(opts.clientDir, href);
    return file.startsWith(join(opts.clientDir, 'assets')) && existsSync(file)
      ? readFileSync(file, 'utf8')
      : null;
  });
  const template = splitTemplate(inlined.html, inlined.styles);
  const preloadHints = createPreloadHints(opts.clientDir, (message) => app.log.warn(message));
  const reads = catalogReads(app.db);

  await app.register(fastifyStatic, {
    root: opts.clientDir,
    prefix: '/',
    wildcard: false,
    index: false,
    setHeaders(res, path) {
      // Hashed bundles, and the GHS pictograms whose folder names their drawing's version (src/shared/ghs.ts).
      if (path.includes(join(opts.clientDir, 'assets')) || path.includes(join(opts.clientDir, 'ghs'))) {
        res.header('Cache-Control', 'public, max-age=31536000, immutable');
      } else {
        res.header('Cache-Control', 'public, max-age=3600');
      }
    },
  });

  // An address that cannot be decoded (a broken escape: /busqueda/%E0%A4%A) names no page; Fastify refuses it
  // before routing (sendFrameworkError), which answers a page's address with the route table's 404 page.
  app.decorate('notFoundPage', (request: FastifyRequest, reply: FastifyReply) =>
    streamPage(request, reply, {
      url: new URL(NO_PAGE, 'http://x'),
      template,
      reads,
      publicUrl: opts.publicUrl,
      preloadHints,
    }),
  );

  app.setNotFoundHandler(async (request, reply) => {
    const url = new URL(request.url, 'http://x');
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !url.pathname.startsWith('/api/') &&
      !url.pathname.startsWith('/assets/');
    if (!isPage) return sendNotFound(reply);
    return streamPage(request, reply, {
      url,
      template,
      // The cart of a session buying for an institution is priced at its contract prices (decision 059).
      reads: {
        ...reads,
        cartQuote: async (items) =>
          cartQuoteSchema.parse(
            await quoteCart(app.db, items, undefined, {
              institutionId: (await buyingFor(request))?.institution.id ?? null,
            }),
          ),
      },
      publicUrl: opts.publicUrl,
      preloadHints,
      renders: opts.renders,
    });
  });
});
