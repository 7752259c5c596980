import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminOrderList, AdminOrdersQuery } from '@/shared/schemas/admin.ts';
import { apiFetch } from '../../lib/api-client.ts';
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
