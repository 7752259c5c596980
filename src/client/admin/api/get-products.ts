import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { AdminProductList, AdminProductsQuery } from '@/shared/schemas/admin.ts';
import { toQueryString } from './query-string.ts';

export const getAdminProducts = (query: AdminProductsQuery) =>
  apiFetch<AdminProductList>(`/api/admin/products${toQueryString(query)}`);

export const adminProductsQueryOptions = (query: AdminProductsQuery) =>
  queryOptions({
    queryKey: ['admin', 'products', query],
    queryFn: () => getAdminProducts(query),
    placeholderData: keepPreviousData,
  });

export const useAdminProducts = (query: AdminProductsQuery) => useQuery(adminProductsQueryOptions(query));
