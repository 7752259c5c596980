import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, StrictMode } from 'react';
import { createStaticHandler, createStaticRouter, matchRoutes, StaticRouterProvider } from 'react-router';
import type { CatalogReads } from '@/shared/catalog-reads.ts';
import type { RouteEntry } from './app/route-table.ts';
import { createRoutes, type LoadPage, type RouteHandle } from './app/routes.tsx';
import { prefetchGroups } from './catalog/api/get-groups.ts';
import type { PageFacts } from './lib/page-data.ts';
import { createQueryClient, serializeQueryState } from './lib/query-client.ts';

/**
 * The server's side of the client (src/server/spa/ssr.ts calls it): the same routes, pages and query keys as
 * the browser, rendered by React Router's static handler. Each request gets its own query cache, filled by the
 * page's `prefetch` through `reads` (the catalogue's services, in-process), and serialized into the HTML so the
 * browser hydrates with exactly the data the HTML shows.
 */

export type PageRender = {
  entry: RouteEntry;
  status: 200 | 404;
  facts: PageFacts;
  /** Another address of the same page: answer with a redirect, render nothing. */
  redirect?: string;
  /** 302 instead of 301. */
  temporary?: true;
  /**
   * Waits for the rest of the page's data; then the query cache for hydration, and the React element to render
   * (built only when asked: a body kept from an earlier render of the same data needs none).
   */
  body(): Promise<{ element: () => Promise<ReactNode>; state: () => string }>;
};

export function createPageRenderer(loadPage: LoadPage) {
  const routes = createRoutes(loadPage, 'server');
  const handler = createStaticHandler(routes);

  /**
   * Resolves once the page's status and metadata are known (the server can send the head); `body()` then waits
   * for the rest of its reads.
   */
  return async function renderPage(
    url: URL,
    reads: CatalogReads,
    cookies: Readonly<Record<string, string | undefined>> = {},
  ): Promise<PageRender> {
    const match = matchRoutes(routes, url.pathname)?.at(-1);
    const entry = (match?.route.handle as RouteHandle | undefined)?.entry;
    if (!match || !entry) throw new Error(`Sin ruta para ${url.pathname}`);
    const client = createQueryClient();
    // The menu's categories, on every page (the header holds them; the browser would otherwise ask at once).
    const groups = prefetchGroups(client, reads);
    groups.catch(() => {});
    const head =
      entry.render === 'server'
        ? ((await (
            await loadPage(entry.page)
          ).prefetch?.({
            params: match.params,
            search: url.searchParams,
            client,
            reads,
            cookies,
          })) ?? {})
        : {};
    return {
      entry,
      status: head.status ?? entry.status ?? 200,
      facts: head.facts ?? {},
      ...(head.redirect ? { redirect: head.redirect, ...(head.temporary ? { temporary: true } : {}) } : {}),
      async body() {
        await Promise.all([groups, head.rest]);
        const element = async () => {
          const context = await handler.query(new Request(url.href));
          if (context instanceof Response)
            throw new Error(`Respuesta inesperada del enrutador: ${context.status}`);
          const router = createStaticRouter(handler.dataRoutes, context);
          return (
            <StrictMode>
              <QueryClientProvider client={client}>
                {/* The router has no loader data to hand over (the query cache carries the data). */}
                <StaticRouterProvider router={router} context={context} hydrate={false} />
              </QueryClientProvider>
            </StrictMode>
          );
        };
        return { element, state: () => serializeQueryState(client) };
      },
    };
  };
}
