import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ProductSort, ProductsResponse } from '@/shared/schemas/catalog.ts';
import { apiFetch } from '../../lib/api-client.ts';
import { CATALOG_TIMEOUT_MS, catalogQueryPolicy } from './query-policy.ts';

/** What a list screen asks for; every facet may hold several values (OR within, AND across). */
export type ProductsParams = {
  brand?: string[];
  group?: string[];
  line?: string[];
  type?: string[];
  q?: string;
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
