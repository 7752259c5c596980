import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { PageError, PageLoading } from '@/client/ui/page-state.tsx';
import { Paginator } from '@/client/ui/paginator.tsx';
import type { ProductSort, ProductsResponse } from '@/shared/schemas/catalog.ts';
import { type ProductsParams, useProducts } from '../api/get-products.ts';
import {
  clearFacets,
  type FacetKey,
  readListState,
  toggleFacet,
  withPage,
  withSort,
} from '../lib/list-url.ts';
import { type FacetGroup, FacetPanel, type RelatedLinks } from './facet-panel.tsx';
import { FilterDrawer } from './filter-drawer.tsx';
import { ProductCard } from './product-card.tsx';

const sortLabels: Record<ProductSort | 'relevance', string> = {
  relevance: 'Relevancia',
  code: 'Código de producto',
  price_asc: 'Precio: menor a mayor',
  price_desc: 'Precio: mayor a menor',
};
const DEFAULT = 'default';

const facetTitles: Record<FacetKey, string> = { brand: 'Marca', line: 'Línea', type: 'Tipo' };
const facetData = { brand: 'brands', line: 'lines', type: 'types' } as const;

/**
 * The first two cards load at once, the rest lazily: on a phone (two columns) that is the first row, the only one
 * above the fold since the cards carry their 'Agregar' button; on a desktop the rest of the first row is in
 * view and loads right after layout anyway.
 */
const EAGER_CARDS = 2;

export type ListingProps = {
  /** The screen's own filter (its brand, its group or the search term). */
  base: Pick<ProductsParams, 'brand' | 'group' | 'q' | 'exact'>;
  /** Checkbox facets the shopper may tick. */
  facets: FacetKey[];
  /** Related pages shown as links with counts. */
  related: (data: ProductsResponse) => RelatedLinks[];
  /** Brand options also link to the brand's page (group and search screens). */
  brandLinks?: boolean;
  /** Heading block; receives the response once it is there. */
  header: (data: ProductsResponse) => ReactNode;
  /** When it returns something (unknown brand or group), that shows instead of the list. */
  unknown?: (data: ProductsResponse) => ReactNode | null;
  /** The order without a choice: by code (spec), or by relevance on a search. */
  defaultSort?: 'code' | 'relevance';
  /** What an empty list says when no filter is ticked. */
  emptyText?: ReactNode;
};

/** What a list screen asks the API for: its own filter plus the shopper's, from the URL (the server reads the same). */
export function listingQuery(base: ListingProps['base'], search: URLSearchParams): ProductsParams {
  const state = readListState(search);
  return {
    ...base,
    brand: [...(base.brand ?? []), ...state.brand],
    line: state.line,
    type: state.type,
    sort: state.sort ?? undefined,
    page: state.page,
  };
}

/**
 * Past the last page (a link to ?pagina=40 of a list that has 21): the query string of its last page
 * ('' for the first), or null when the page exists. Such an address is redirected there — temporarily (302 on
 * the server), since the number of pages follows the catalogue — instead of counting 'Mostrando 186–186 de
 * 186' over nothing (docs/decisions/018).
 */
export function pastLastPage(
  search: URLSearchParams,
  data: ProductsResponse | null | undefined,
): string | null {
  if (!data) return null;
  const last = Math.max(1, data.pages);
  if (readListState(search).page <= last) return null;
  const query = withPage(search, last).toString();
  return query ? `?${query}` : '';
}

/**
 * The server's side of it: only for a page past the first, the listing's read is awaited before the status is
 * decided (the head waits for it); the address to redirect to, or null.
 */
export async function lastPageRedirect(
  path: string,
  search: URLSearchParams,
  read: Promise<ProductsResponse | null>,
): Promise<string | null> {
  if (readListState(search).page <= 1) return null;
  const to = pastLastPage(search, await read.catch(() => null));
  return to === null ? null : `${path}${to}`;
}

/**
 * The list of a brand, a group or a search: sort, 9 per page, paginator in ?pagina=, filters in the URL
 * (so a link reproduces the view), a sidebar on desktop and a drawer on phones.
 */
export function ProductListing({
  base,
  facets,
  related,
  brandLinks,
  header,
  unknown,
  defaultSort = 'code',
  emptyText = 'No hay productos por ahora.',
}: ListingProps) {
  const [search, setSearch] = useSearchParams();
  const state = readListState(search);
  const [drawer, setDrawer] = useState(false);
  const query = useProducts(listingQuery(base, search));
  const top = useRef<HTMLDivElement>(null);

  // A new page of results starts at the top of the list, not where the paginator was.
  const firstRender = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the page number changes
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    top.current?.scrollIntoView({ block: 'start' });
  }, [state.page]);

  if (query.isPending) return <PageLoading label="Cargando productos…" />;
  if (query.isError) return <PageError message={query.error.message} />;

  const data = query.data;
  const unknownView = unknown?.(data);
  if (unknownView) return <>{unknownView}</>;
  const beyond = query.isPlaceholderData ? null : pastLastPage(search, data);
  if (beyond !== null) return <Navigate to={{ search: beyond }} replace />;

  const onToggle = (key: FacetKey, value: string) => setSearch(toggleFacet(search, key, value));
  const hrefFor = (page: number) => `?${withPage(search, page).toString()}`;
  const groups: FacetGroup[] = facets.map((key) => ({
    key,
    title: facetTitles[key],
    options: data.facets[facetData[key]],
    selected: state[key],
  }));
  const active = facets.flatMap((key) => state[key].map((value) => ({ key, value })));
  const panel = (
    <FacetPanel
      related={related(data)}
      groups={groups}
      onToggle={onToggle}
      brandLink={brandLinks ? (b) => `/marcas/${encodeURIComponent(b)}` : undefined}
    />
  );

  return (
    <div ref={top} className="mx-auto max-w-7xl scroll-mt-40 px-4 py-6 sm:py-8">
      {header(data)}
      <div className="mt-6 lg:grid lg:grid-cols-[16rem_1fr] lg:gap-8">
        <aside aria-label="Filtros" className="hidden lg:block">
          {panel}
        </aside>
        <FilterDrawer open={drawer} onClose={() => setDrawer(false)} total={data.total}>
          {/* Rendered only while open: the sidebar already renders the panel (hidden on phones). */}
          {drawer ? panel : null}
        </FilterDrawer>

        <div aria-busy={query.isPlaceholderData}>
          <div className="flex items-center justify-between gap-3 border-b border-slate-200 pb-4">
            <button
              type="button"
              onClick={() => setDrawer(true)}
              aria-haspopup="dialog"
              className="flex items-center gap-2 rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800 hover:border-brand-500 lg:hidden"
            >
              <svg
                viewBox="0 0 24 24"
                className="size-4"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                aria-hidden="true"
              >
                <path d="M3 5h18M6 12h12M10 19h4" strokeLinecap="round" />
              </svg>
              Filtros{active.length > 0 ? ` (${active.length})` : ''}
            </button>
            <p className="hidden text-sm text-slate-600 lg:block">
              {data.total === 0
                ? 'Sin productos'
                : `Mostrando ${Math.min((data.page - 1) * data.pageSize + 1, data.total)}–${Math.min(
                    data.page * data.pageSize,
                    data.total,
                  )} de ${data.total}`}
            </p>
            <div className="flex items-center gap-2">
              <label htmlFor="orden" className="sr-only text-sm text-slate-700 sm:not-sr-only">
                Ordenar por
              </label>
              <select
                id="orden"
                value={state.sort ?? DEFAULT}
                onChange={(e) =>
                  setSearch(
                    withSort(search, e.target.value === DEFAULT ? null : (e.target.value as ProductSort)),
                  )
                }
                className="max-w-52 rounded-md border border-slate-300 bg-white py-2 pl-3 pr-8 text-sm text-slate-800 focus:border-brand-500 sm:max-w-none"
              >
                <option value={DEFAULT}>{sortLabels[defaultSort]}</option>
                {(['code', 'price_asc', 'price_desc'] as const)
                  .filter((s) => s !== defaultSort)
                  .map((s) => (
                    <option key={s} value={s}>
                      {sortLabels[s]}
                    </option>
                  ))}
              </select>
            </div>
          </div>

          {active.length > 0 && (
            <ul aria-label="Filtros aplicados" className="mt-4 flex flex-wrap items-center gap-2">
              {active.map(({ key, value }) => (
                <li key={`${key}:${value}`}>
                  <button
                    type="button"
                    onClick={() => onToggle(key, value)}
                    className="flex items-center gap-1.5 rounded-full border border-brand-200 bg-brand-50 py-1 pl-3 pr-2 text-sm text-brand-800 hover:border-brand-500"
                    aria-label={`Quitar filtro ${facetTitles[key]}: ${value}`}
                  >
                    {value}
                    <span aria-hidden="true" className="text-base leading-none">
                      ×
                    </span>
                  </button>
                </li>
              ))}
              <li>
                <button
                  type="button"
                  onClick={() => setSearch(clearFacets(search))}
                  className="px-2 text-sm font-medium text-brand-700 hover:underline"
                >
                  Limpiar filtros
                </button>
              </li>
            </ul>
          )}

          {data.items.length === 0 ? (
            <EmptyList
              data={data}
              filtered={active.length > 0}
              firstHref={hrefFor(1)}
              emptyText={emptyText}
              onClear={() => setSearch(clearFacets(search))}
            />
          ) : (
            <ul
              className={`mt-6 grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-5 ${query.isPlaceholderData ? 'opacity-60 transition-opacity' : ''}`}
            >
              {data.items.map((p, i) => (
                <ProductCard key={p.code} product={p} lazy={i >= EAGER_CARDS} />
              ))}
            </ul>
          )}
          <Paginator page={state.page} pages={data.pages} hrefFor={hrefFor} />
        </div>
      </div>
    </div>
  );
}

function EmptyList({
  data,
  filtered,
  firstHref,
  emptyText,
  onClear,
}: {
  data: ProductsResponse;
  filtered: boolean;
  firstHref: string;
  emptyText: ReactNode;
  onClear: () => void;
}) {
  if (data.total > 0) {
    return (
      <div className="mt-10 rounded-lg border border-dashed border-slate-300 px-6 py-12 text-center">
        <p className="font-medium text-slate-800">Esta página no tiene productos.</p>
        <p className="mt-1 text-sm text-slate-600">
          Hay {data.pages} {data.pages === 1 ? 'página' : 'páginas'} de resultados.
        </p>
        <Link to={firstHref} className="mt-4 inline-block text-sm font-medium text-brand-700 hover:underline">
          Ir a la primera página
        </Link>
      </div>
    );
  }
  return (
    <div className="mt-10 rounded-lg border border-dashed border-slate-300 px-6 py-12 text-center">
      <div className="font-medium text-slate-800">
        {filtered ? 'Ningún producto cumple con todos los filtros elegidos.' : emptyText}
      </div>
      {filtered && (
        <button
          type="button"
          onClick={onClear}
          className="mt-4 rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-800"
        >
          Limpiar filtros
        </button>
      )}
    </div>
  );
}
