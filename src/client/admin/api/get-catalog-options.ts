import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { CatalogOptions } from '@/shared/schemas/admin.ts';

export const getCatalogOptions = () => apiFetch<CatalogOptions>('/api/admin/catalog-options');

export const catalogOptionsQueryOptions = queryOptions({
  queryKey: ['admin', 'catalog-options'],
  queryFn: getCatalogOptions,
  staleTime: 60_000,
});

export const useCatalogOptions = () => useQuery(catalogOptionsQueryOptions);
