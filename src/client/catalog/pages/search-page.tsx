import { Link, useParams } from 'react-router';
import { later, type Prefetch } from '@/client/lib/page-data.ts';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { shop } from '@/shared/shop.ts';
import { prefetchProducts } from '../api/get-products.ts';
import { ListHeader } from '../components/list-header.tsx';
import { listingQuery, ProductListing } from '../components/product-listing.tsx';

const searchTerm = (name: string | undefined) => (name ?? '').trim();

/** A search always answers 200 (no results is an answer); its results are read while the head goes out. */
export const prefetch: Prefetch = async ({ params, search, client, reads }) => {
  const term = searchTerm(params.name);
  return {
    facts: { searchTerm: term },
    rest: later(prefetchProducts(client, reads, listingQuery({ q: term }, search))),
  };
};

const resultsText = (n: number) =>
  n === 1 ? 'Se encontró 1 resultado' : `Se encontraron ${n.toLocaleString('en-US')} resultados`;

/** /busqueda/:name — 'Resultados de búsqueda por' TERM, 'Se encontraron N resultados', category and brand filters. */
export function Component() {
  const term = searchTerm(useParams().name);
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
          <p>No encontramos productos para «{term}».</p>
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
              <span className="break-words text-brand-700">{term.toUpperCase()}</span>
            </>
          }
          subtitle={resultsText(data.total)}
        />
      )}
    />
  );
}
