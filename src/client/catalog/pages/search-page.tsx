import { Link, useParams } from 'react-router';
import { shop } from '@/shared/shop.ts';
import { useDocumentTitle } from '../../ui/page-heading.tsx';
import { ListHeader } from '../components/list-header.tsx';
import { ProductListing } from '../components/product-listing.tsx';

const resultsText = (n: number) =>
  n === 1 ? 'Se encontró 1 resultado' : `Se encontraron ${n.toLocaleString('en-US')} resultados`;

/** /busqueda/:name — 'Resultados de búsqueda por' TERM, 'Se encontraron N resultados', category and brand filters. */
export function Component() {
  const term = (useParams().name ?? '').trim();
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
