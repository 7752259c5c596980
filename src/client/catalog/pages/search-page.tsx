import { Link, useParams } from 'react-router';
import { later, type Prefetch } from '@/client/lib/page-data.ts';
import { NotFound } from '@/client/ui/not-found.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { groupThousands } from '@/shared/money.ts';
import { shop } from '@/shared/shop.ts';
import { searchable } from '@/shared/text.ts';
import { prefetchProducts } from '../api/get-products.ts';
import { ListHeader } from '../components/list-header.tsx';
import { lastPageRedirect, listingQuery, ProductListing } from '../components/product-listing.tsx';

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
  const rest = later(prefetchProducts(client, reads, listingQuery({ q: term }, search)));
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
  // Same title as the server writes for the first load (src/server/seo/page-meta.ts).
  useDocumentTitle(`Resultados de búsqueda por ${term.toUpperCase()} | ${shop.tradeName}`);

  return (
    <ProductListing
      key={term}
      base={{ q: term }}
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
      emptyText={
        <>
          <p className="[overflow-wrap:anywhere]">No encontramos productos para «{term}».</p>
          <p className="mt-2 text-sm font-normal text-slate-600">
            Revise la ortografía, use menos palabras o busque por código.{' '}
            <Link to="/todas_las_marcas" className="font-medium text-brand-700 hover:underline">
              Ver todas las marcas
            </Link>
          </p>
        </>
      }
      header={(data) => (
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
      )}
    />
  );
}
