import { useParams, useSearchParams } from 'react-router';
import { later, type Prefetch } from '@/client/lib/page-data.ts';
import { NotFound } from '@/client/ui/not-found.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { groupThousands } from '@/shared/money.ts';
import { shop } from '@/shared/shop.ts';
import { searchable } from '@/shared/text.ts';
import { prefetchProducts } from '../api/get-products.ts';
import { ListHeader } from '../components/list-header.tsx';
import { lastPageRedirect, listingQuery, ProductListing } from '../components/product-listing.tsx';
import { NoResults, SearchNote } from '../components/search-note.tsx';

const searchTerm = (name: string | undefined) => (name ?? '').trim();

const EMPTY_SEARCH = 'Búsqueda vacía';
const EMPTY_SEARCH_MESSAGE = 'Escriba el nombre, el código o la marca del producto que busca.';

/**
 * A search answers 200 (no results is an answer); its results are read while the head goes out. An address
 * without a term to search for names no search: 404 (it would list the whole catalogue under an empty heading).
 */
export const prefetch: Prefetch = async ({ params, search, client, reads }) => {
  const term = searchTerm(params.name);
  if (!searchable(term)) return { status: 404, facts: { title: EMPTY_SEARCH } };
  const exact = search.get('exacta') === '1';
  const rest = later(prefetchProducts(client, reads, listingQuery({ q: term, exact }, search)));
  const last = await lastPageRedirect(`/busqueda/${encodeURIComponent(term)}`, search, rest);
  if (last !== null) return { redirect: last, temporary: true };
  return { facts: { searchTerm: term }, rest };
};

const resultsText = (n: number) =>
  n === 1 ? 'Se encontró 1 resultado' : `Se encontraron ${groupThousands(n)} resultados`;

/** /busqueda/:name — 'Resultados de búsqueda por' TERM, 'Se encontraron N resultados', category and brand filters. */
export function Component() {
  const term = searchTerm(useParams().name);
  if (!searchable(term)) return <NotFound title={EMPTY_SEARCH} message={EMPTY_SEARCH_MESSAGE} />;
  return <Results term={term} />;
}

function Results({ term }: { term: string }) {
  const exact = useSearchParams()[0].get('exacta') === '1';
  // Same title as the server writes for the first load (src/server/seo/page-meta.ts).
  useDocumentTitle(`Resultados de búsqueda por ${term.toUpperCase()} | ${shop.tradeName}`);

  return (
    <ProductListing
      key={`${term}:${exact}`}
      base={{ q: term, exact }}
      facets={['brand', 'line', 'type']}
      brandLinks
      defaultSort="relevance"
      related={(data) => [
        {
          title: 'Categorías',
          items: data.facets.groups.map((g) => ({
            label: g.label,
            count: g.count,
            to: `/grupos/${encodeURIComponent(g.value)}`,
          })),
        },
      ]}
      emptyText={<NoResults term={term} />}
      header={(data) => (
        <>
          <ListHeader
            crumbs={[{ label: 'Inicio', to: '/' }, { label: 'Búsqueda' }]}
            title={
              <>
                Resultados de búsqueda por{' '}
                <span className="text-brand-700 [overflow-wrap:anywhere]">{term.toUpperCase()}</span>
              </>
            }
            subtitle={resultsText(data.total)}
          />
          <SearchNote term={term} note={data.searchNote} />
        </>
      )}
    />
  );
}
