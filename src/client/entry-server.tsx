import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, StrictMode } from 'react';
import {
  createStaticHandler,
  createStaticRouter,
  matchRoutes,
  type NonIndexRouteObject,
  Outlet,
  type RouteObject,
  StaticRouterProvider,
} from 'react-router';
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
  body(): Promise<PageBody>;
};

export type PageBody = {
  element: () => Promise<ReactNode>;
  state: () => string;
  /** The page rendered apart from its frame; none for a page whose frame is not kept (private, client-rendered). */
  frame?: PageFrame;
};

/**
 * The frame — the layout around the page: skip link, header, footer, WhatsApp link — is the same markup for
 * every page of a route whatever its parameters, and is most of a product page's markup (≈ 11 of 15 KB). The
 * server keeps it per `key` and renders only the page (src/server/spa/ssr.ts, docs/decisions/037).
 */
export type PageFrame = {
  /** What the frame's markup is made of: the route, the address when the route has no parameters, the menu's data. */
  key: string;
  /** The whole tree with PAGE_MARKER where the page goes: the frame's markup is cut there. */
  element: () => Promise<ReactNode>;
  /**
   * The page alone, at the tree position it has inside the frame (its useId values are the same), inside
   * PAGE_START…`</div>`: what React hoists to the markup's start (the preloads of high-priority images) comes before.
   */
  page: () => Promise<ReactNode>;
};

/** Where the page alone starts in its render (after React's hoisted preloads); it ends with the last `</div>`. */
export const PAGE_START = '<div data-tienda-pagina="">';

/** What the frame's render holds in the page's place (an element no page renders). */
export const PAGE_MARKER = '<template data-tienda-pagina=""></template>';
function PageMarker() {
  return <template data-tienda-pagina="" />;
}

/**
 * The page without its frame, at the same tree position. React's useId values (and nothing else of the markup)
 * depend on where a component sits in the tree: each array of children adds its length and the child's index.
 * Layout (app/shell/layout.tsx) renders `<div>` with 8 children — skip link, header, main (the page), footer,
 * WhatsApp link, CartSync, toaster, ScrollRestoration — so the page is child 2 of 8; host elements and components
 * without useId add nothing. What React hoists to the start of the markup (preloads) is the page's own as long
 * as the frame hoists nothing. Should Layout change, a spliced render would differ from the whole one: the server
 * compares both when it builds a frame and keeps none then (ssr.ts), and ssr.test.ts compares them for every kind
 * of page.
 */
const LAYOUT_CHILDREN = 8;
const PAGE_AT = 2;
function PageAlone() {
  // Inside an element, as in Layout's <main>: text separators are reckoned per element (and the cut is marked).
  return Array.from({ length: LAYOUT_CHILDREN }, (_, i) =>
    i === PAGE_AT ? (
      <div key="page" data-tienda-pagina="">
        <Outlet />
      </div>
    ) : null,
  );
}

/**
 * Route matching without ranking the whole table at every request: React Router's `matchRoutes` flattens and ranks
 * the routes it is given at each call (≈ 0.2 ms for the table). A route whose path starts with a fixed segment
 * can only match an address with that first segment (case-insensitive, as React Router matches), so the table is
 * cut once per first segment to those routes and the ones starting with a parameter, a splat or nothing; the
 * order is kept, so React Router ranks the candidates exactly as it ranks them within the whole table.
 */
export function routeMatcher(routes: RouteObject[]) {
  const layout = routes[0] as NonIndexRouteObject;
  const children = layout.children ?? [];
  const first = (path: string | undefined) => (path ?? '').split('/')[0]!.toLowerCase();
  const fixed = (segment: string) => segment !== '' && !segment.startsWith(':') && !segment.startsWith('*');
  /** The table with only the routes that can match an address whose first segment is one of `segments`. */
  const cut = (segments: string[]): RouteObject[] => [
    {
      ...layout,
      children: children.filter((r) => !fixed(first(r.path)) || segments.includes(first(r.path))),
    },
  ];
  const bySegment = new Map<string, RouteObject[]>();
  for (const r of children) {
    const s = first(r.path);
    if (fixed(s) && !bySegment.has(s)) bySegment.set(s, cut([s]));
  }
  const others = cut([]);
  const decoded = (s: string) => {
    try {
      return decodeURIComponent(s).toLowerCase();
    } catch {
      return s;
    }
  };
  return (pathname: string) => {
    const raw = pathname.split('/')[1]?.toLowerCase() ?? '';
    // React Router matches the decoded address (the raw one when it cannot be decoded): both are candidates.
    const named = [...new Set([raw, decoded(raw)])].filter((s) => bySegment.has(s));
    const candidates =
      named.length === 0 ? others : named.length === 1 ? bySegment.get(named[0]!)! : cut(named);
    return matchRoutes(candidates, pathname);
  };
}

/** Layout renders no page where the address cannot be decoded (its own check): such a frame is the address's. */
const decodable = (path: string) => {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
};

/** The menu's groups as text, once per tree (the server keeps one tree per catalogue version). */
const menuKeys = new WeakMap<object, string>();
function menuKey(groups: unknown): string {
  if (typeof groups !== 'object' || groups === null) return JSON.stringify(groups ?? null);
  let key = menuKeys.get(groups);
  if (key === undefined) {
    key = JSON.stringify(groups);
    menuKeys.set(groups, key);
  }
  return key;
}

export function createPageRenderer(loadPage: LoadPage) {
  const routes = createRoutes(loadPage, 'server');
  const handler = createStaticHandler(routes);
  const match = routeMatcher(routes);
  // The frame's render (every page is the marker) and the page's (the layout is only the page's place in it).
  const frameHandler = createStaticHandler(createRoutes(async () => ({ Component: PageMarker }), 'server'));
  const pageHandler = createStaticHandler(routes.map((r) => ({ ...r, element: <PageAlone /> })));

  /**
   * Resolves once the page's status and metadata are known (the server can send the head); `body()` then waits
   * for the rest of its reads.
   */
  return async function renderPage(
    url: URL,
    reads: CatalogReads,
    cookies: Readonly<Record<string, string | undefined>> = {},
  ): Promise<PageRender> {
    const matched = match(url.pathname)?.at(-1);
    const entry = (matched?.route.handle as RouteHandle | undefined)?.entry;
    if (!matched || !entry) throw new Error(`Sin ruta para ${url.pathname}`);
    const client = createQueryClient('server');
    // The menu's categories, on every page (the header holds them; the browser would otherwise ask at once).
    const groups = prefetchGroups(client, reads);
    groups.catch(() => {});
    const head =
      entry.render === 'server'
        ? ((await (
            await loadPage(entry.page)
          ).prefetch?.({
            params: matched.params,
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
        const render = async (using: typeof handler) => {
          const context = await using.query(new Request(url.href));
          if (context instanceof Response)
            throw new Error(`Respuesta inesperada del enrutador: ${context.status}`);
          const router = createStaticRouter(using.dataRoutes, context);
          return (
            <StrictMode>
              <QueryClientProvider client={client}>
                {/* The router has no loader data to hand over (the query cache carries the data). */}
                <StaticRouterProvider router={router} context={context} hydrate={false} />
              </QueryClientProvider>
            </StrictMode>
          );
        };
        // The frame reads the route (the bare sign-in screens), the address (the header's active link: a route's
        // parameters never make one active, a splat can) and the menu's groups; a private page's frame reads the
        // visitor (the cart's count), and a client-rendered page has no page to splice.
        const kept = entry.render === 'server' && !entry.private;
        const address =
          entry.path.includes(':') && !entry.path.includes('*') && decodable(url.pathname)
            ? ''
            : url.pathname;
        return {
          element: () => render(handler),
          state: () => serializeQueryState(client),
          ...(kept
            ? {
                frame: {
                  key: `${entry.id} ${address}\n${menuKey(client.getQueryData(['groups']))}`,
                  element: () => render(frameHandler),
                  page: () => render(pageHandler),
                },
              }
            : {}),
        };
      },
    };
  };
}
