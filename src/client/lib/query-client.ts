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

/** What may not stand as such in JSON inside a `<script>` element: it could close the element, or end a line. */
const UNSAFE_IN_SCRIPT = /[<>&\u2028\u2029]/g;
const ESCAPED: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * What the server read for the page, as JSON that cannot close its `<script>` element. The timestamps are left at
 * 0: the browser counts the answers as fetched when the page arrives (hydrateQueryState), and the server may send
 * a body rendered earlier from the same data (src/server/spa/html-cache.ts) — so the same data always gives the
 * same text, which is the kept body's key (docs/decisions/043).
 */
export function serializeQueryState(client: QueryClient): string {
  const state = dehydrate(client);
  const queries = state.queries.map((q) => ({
    ...q,
    dehydratedAt: 0,
    state: { ...q.state, dataUpdatedAt: 0, errorUpdatedAt: 0 },
  }));
  return JSON.stringify({ ...state, queries }).replace(UNSAFE_IN_SCRIPT, (c) => ESCAPED[c]!);
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
