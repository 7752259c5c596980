import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CatalogOptions } from '@/shared/schemas/admin.ts';
import { apiFetch } from '../../lib/api-client.ts';

export const getCatalogOptions = () => apiFetch<CatalogOptions>('/api/admin/catalog-options');

export const catalogOptionsQueryOptions = queryOptions({
  queryKey: ['admin', 'catalog-options'],
  queryFn: getCatalogOptions,
  staleTime: 60_000,
});

export const useCatalogOptions = () => useQuery(catalogOptionsQueryOptions);
