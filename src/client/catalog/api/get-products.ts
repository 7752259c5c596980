import { keepPreviousData, type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { CatalogReads } from '@/shared/catalog-reads.ts';
import type { ProductSort, ProductsResponse } from '@/shared/schemas/catalog.ts';
import { CATALOG_TIMEOUT_MS, catalogQueryPolicy } from './query-policy.ts';

/** What a list screen asks for; every facet may hold several values (OR within, AND across). */
export type ProductsParams = {
  brand?: string[];
  group?: string[];
  line?: string[];
  type?: string[];
  q?: string;
  /** Search the words as typed, without correcting them ('¿Buscaba «balansa»?'). */
  exact?: boolean;
  sort?: ProductSort;
  page?: number;
  pageSize?: number;
};

/** The query string of GET /api/products, with repeated keys for multi-valued facets. */
export function productsSearchParams(p: ProductsParams): URLSearchParams {
  const s = new URLSearchParams();
  for (const key of ['brand', 'group', 'line', 'type'] as const) {
    for (const v of p[key] ?? []) s.append(key, v);
  }
  if (p.q) s.set('q', p.q);
  if (p.q && p.exact) s.set('exact', '1');
  // Without sort the server orders by code, or by relevance when there is a search term.
  if (p.sort) s.set('sort', p.sort);
  if (p.page && p.page > 1) s.set('page', String(p.page));
  if (p.pageSize) s.set('pageSize', String(p.pageSize));
  return s;
}

export const getProducts = (p: ProductsParams, signal?: AbortSignal) =>
  apiFetch<ProductsResponse>(`/api/products?${productsSearchParams(p)}`, {
    timeoutMs: CATALOG_TIMEOUT_MS,
    signal,
  });

export const productsQueryOptions = (p: ProductsParams) =>
  queryOptions({
    queryKey: ['products', productsSearchParams(p).toString()],
    queryFn: ({ signal }) => getProducts(p, signal),
    ...catalogQueryPolicy,
  });

/** Keeps the previous page on screen while the next one loads (no flash of the spinner when paging). */
export const useProducts = (p: ProductsParams) =>
  useQuery({ ...productsQueryOptions(p), placeholderData: keepPreviousData });

/**
 * The server's read of the same query (same key and query string), kept in `client`; null when the API would
 * refuse the query (nothing is kept: the browser asks and shows the API's message).
 */
export async function prefetchProducts(
  client: QueryClient,
  reads: CatalogReads,
  p: ProductsParams,
): Promise<ProductsResponse | null> {
  const data = await reads.products(productsSearchParams(p));
  if (data) client.setQueryData(productsQueryOptions(p).queryKey, data);
  return data;
}
