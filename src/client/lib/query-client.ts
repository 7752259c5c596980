import { type DehydratedState, dehydrate, hydrate, QueryClient } from '@tanstack/react-query';

/** The query cache of one browser tab, or of one server-rendered request (never shared between requests). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Spec §9: entries kept 5 minutes; no refetch on window focus.
        gcTime: 5 * 60_000,
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
