import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { CatalogReads } from '@/shared/catalog-reads.ts';
import type { GroupTree } from '@/shared/schemas/catalog.ts';
import { foldName } from '@/shared/text.ts';

export const getGroups = () =>
  apiFetch<{ groups: GroupTree[] }>('/api/groups', { timeoutMs: 2000 }).then((r) => r.groups);

/** The menu's categories: cached for the session and fetched again quietly on failure (SPEC-NOTES). */
export const groupsQueryOptions = queryOptions({
  queryKey: ['groups'],
  queryFn: getGroups,
  staleTime: 30 * 60_000,
  gcTime: 60 * 60_000,
});

export const useGroups = () => useQuery(groupsQueryOptions);

/**
 * The server's read of the same query (same key), kept in `client` — a request's cache, which must not outlive the
 * request: no gcTime timer (the browser's hour would keep every page's cache in the server's memory for an hour).
 */
export const prefetchGroups = (client: QueryClient, reads: CatalogReads) =>
  client.fetchQuery({
    ...groupsQueryOptions,
    gcTime: Number.POSITIVE_INFINITY,
    queryFn: () => reads.groups(),
  });

/** A group or sub-group of the tree by its CLAS, with its parent when it is a sub-group. */
export function findGroup(
  groups: GroupTree[] | undefined,
  clas: string,
): { clas: string; name: string; parent: GroupTree | undefined } | undefined {
  const wanted = foldName(clas);
  for (const g of groups ?? []) {
    if (foldName(g.clas) === wanted) return { clas: g.clas, name: g.name, parent: undefined };
    const sub = g.subgroups.find((s) => foldName(s.clas) === wanted);
    if (sub) return { ...sub, parent: g };
  }
  return undefined;
}
