import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GroupTree } from '@/shared/schemas/catalog.ts';
import { apiFetch } from '../../lib/api-client.ts';

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
