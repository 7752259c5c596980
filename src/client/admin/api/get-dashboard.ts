import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { Dashboard } from '@/shared/schemas/dashboard.ts';

export const getDashboard = () => apiFetch<Dashboard>('/api/admin/dashboard');

/** GET /api/admin/dashboard: the admin's home; read again every five minutes while it is open. */
export const dashboardQueryOptions = queryOptions({
  queryKey: ['admin', 'dashboard'],
  queryFn: getDashboard,
  refetchInterval: 5 * 60_000,
});

export const useDashboard = () => useQuery(dashboardQueryOptions);
