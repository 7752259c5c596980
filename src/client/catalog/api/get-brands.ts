import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Brand } from '@/shared/schemas/catalog.ts';
import { apiFetch } from '../../lib/api-client.ts';
import { CATALOG_TIMEOUT_MS, catalogQueryPolicy } from './query-policy.ts';

export const getBrands = () =>
  apiFetch<{ brands: Brand[] }>('/api/brands', { timeoutMs: CATALOG_TIMEOUT_MS }).then((r) => r.brands);

export const brandsQueryOptions = queryOptions({
  queryKey: ['brands'],
  queryFn: getBrands,
  staleTime: 5 * 60_000,
  ...catalogQueryPolicy,
});

export const useBrands = () => useQuery(brandsQueryOptions);
