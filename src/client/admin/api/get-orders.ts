import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { AdminOrderList, AdminOrdersQuery } from '@/shared/schemas/admin.ts';
import { toQueryString } from './query-string.ts';

export const getAdminOrders = (query: AdminOrdersQuery) =>
  apiFetch<AdminOrderList>(`/api/admin/orders${toQueryString(query)}`);

export const adminOrdersQueryOptions = (query: AdminOrdersQuery) =>
  queryOptions({
    queryKey: ['admin', 'orders', query],
    queryFn: () => getAdminOrders(query),
    placeholderData: keepPreviousData,
  });

export const useAdminOrders = (query: AdminOrdersQuery) => useQuery(adminOrdersQueryOptions(query));
