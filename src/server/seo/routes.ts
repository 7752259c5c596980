import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../http/errors.ts';
import { renderRobots, renderSitemap, renderSubSitemap, SITEMAP_LIMIT } from './sitemap.ts';

/** /sitemap.xml, its sub-sitemaps and /robots.txt: real routes, so the SPA fallback never answers them. */
export const seoRoutes: FastifyPluginAsyncZod<{ sitemapLimit?: number }> = async (app, opts) => {
  const limit = opts.sitemapLimit ?? SITEMAP_LIMIT;
  const publicUrl = () => app.config.publicUrl.replace(/\/$/, '');

  app.get('/sitemap.xml', { schema: { hide: true } }, async (_request, reply) => {
    const xml = await renderSitemap(app.db, publicUrl(), limit);
    return reply
      .type('application/xml; charset=utf-8')
      .header('Cache-Control', 'public, max-age=3600')
      .send(xml);
  });

  app.get(
    '/sitemaps/:file',
    { schema: { hide: true, params: z.object({ file: z.string().max(40) }) } },
    async (request, reply) => {
      const name = /^(.+)\.xml$/.exec(request.params.file)?.[1];
      const xml = name ? await renderSubSitemap(app.db, publicUrl(), name, limit) : null;
      if (!xml) throw notFound('Mapa del sitio no encontrado');
      return reply
        .type('application/xml; charset=utf-8')
        .header('Cache-Control', 'public, max-age=3600')
        .send(xml);
    },
  );

  app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) => {
    return reply
      .type('text/plain; charset=utf-8')
      .header('Cache-Control', 'public, max-age=3600')
      .send(renderRobots(publicUrl()));
  });
};
