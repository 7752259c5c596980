import type { ProductSort } from '@/shared/schemas/catalog.ts';

/**
 * A list screen's state lives in its URL query so a link reproduces the view:
 * ?marca=A&marca=B&linea=…&tipo=…&orden=precio_asc&pagina=2 (Spanish names, as the shopper sees them).
 */
export type FacetKey = 'brand' | 'line' | 'type';

export const facetParam: Record<FacetKey, string> = { brand: 'marca', line: 'linea', type: 'tipo' };

const sortParam: Record<ProductSort, string> = {
  code: 'codigo',
  price_asc: 'precio_asc',
  price_desc: 'precio_desc',
};

export type ListState = {
  brand: string[];
  line: string[];
  type: string[];
  /** null: the screen's default order (by code; by relevance on a search). */
  sort: ProductSort | null;
  page: number;
};

export function readListState(search: URLSearchParams): ListState {
  const orden = search.get('orden');
  const sort =
    (Object.entries(sortParam).find(([, v]) => v === orden)?.[0] as ProductSort | undefined) ?? null;
  const raw = Number(search.get('pagina') ?? '1');
  const page = Number.isInteger(raw) && raw >= 1 ? Math.min(raw, 100_000) : 1;
  const values = (name: string) => [...new Set(search.getAll(name).filter((v) => v !== ''))];
  return {
    brand: values(facetParam.brand),
    line: values(facetParam.line),
    type: values(facetParam.type),
    sort,
    page,
  };
}

/** Toggles one facet value; the page goes back to 1 because the result set changed. */
export function toggleFacet(search: URLSearchParams, key: FacetKey, value: string): URLSearchParams {
  const next = new URLSearchParams(search);
  const name = facetParam[key];
  const current = next.getAll(name);
  next.delete(name);
  const kept = current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
  for (const v of kept) next.append(name, v);
  next.delete('pagina');
  return next;
}

export function clearFacets(search: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const name of Object.values(facetParam)) next.delete(name);
  next.delete('pagina');
  return next;
}

export function withSort(search: URLSearchParams, sort: ProductSort | null): URLSearchParams {
  const next = new URLSearchParams(search);
  if (sort) next.set('orden', sortParam[sort]);
  else next.delete('orden');
  next.delete('pagina');
  return next;
}

export function withPage(search: URLSearchParams, page: number): URLSearchParams {
  const next = new URLSearchParams(search);
  if (page <= 1) next.delete('pagina');
  else next.set('pagina', String(page));
  return next;
}
