import { type DehydratedState, dehydrate, hydrate, QueryClient } from '@tanstack/react-query';

/**
 * The query cache of one browser tab (`'browser'`), or of one server-rendered request (`'server'`, never shared
 * between requests).
 */
export function createQueryClient(where: 'browser' | 'server' = 'browser'): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Spec §9: a tab keeps entries 5 minutes; no refetch on window focus. A request's cache lives as long as the
        // request: with a finite gcTime every query it read would hold a 5-minute timer, and the timer the whole
        // cache — every page served in the last 5 minutes kept in the server's memory (3,766 caches after 8 s
        // of product pages; decision 042). Infinity schedules no timer (TanStack Query's own default on a server).
        gcTime: where === 'server' ? Number.POSITIVE_INFINITY : 5 * 60_000,
        staleTime: 60_000,
        refetchOnWindowFocus: false,
        retry: 3,
        retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 30_000),
      },
    },
  });
}

/**
 * The id of the `<script type="application/json">` that carries the server's query cache into the page. JSON,
 * not a script: the Content-Security-Policy allows no inline script.
 */
export const SSR_STATE_ID = 'tienda-estado';

/** What the server read for the page, as JSON that cannot close its `<script>` element. */
export function serializeQueryState(client: QueryClient): string {
  return JSON.stringify(dehydrate(client))
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * Puts the server's answers into the browser's cache before the first render, so hydration renders exactly what
 * the HTML shows and no hook asks again. They count as fetched now: the page has just arrived, and a clock that
 * differs from the server's must not make them stale at once.
 */
export function hydrateQueryState(client: QueryClient, state: DehydratedState): void {
  const now = Date.now();
  hydrate(client, {
    ...state,
    queries: state.queries.map((q) => ({ ...q, state: { ...q.state, dataUpdatedAt: now } })),
  });
}
