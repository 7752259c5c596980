import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { CatalogReads } from '@/shared/catalog-reads.ts';
import type { Brand } from '@/shared/schemas/catalog.ts';
import { foldName } from '@/shared/text.ts';
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

/** The server's read of the same query (same key), kept in `client`. */
export const prefetchBrands = (client: QueryClient, reads: CatalogReads) =>
  client.fetchQuery({ ...brandsQueryOptions, queryFn: () => reads.brands() });

/** The brand a /marcas/:name address means: names match without regard to case. */
/** The brand a name in an address means: any case, with or without accents. */
export const findBrand = (brands: Brand[] | undefined, name: string) =>
  brands?.find((b) => foldName(b.name) === foldName(name));
