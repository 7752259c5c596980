import { Navigate, useLocation, useParams } from 'react-router';
import { shop } from '@/shared/shop.ts';
import { useDocumentTitle } from '../../ui/page-heading.tsx';
import { useBrands } from '../api/get-brands.ts';
import { countText, ListHeader } from '../components/list-header.tsx';
import { NotFoundView } from '../components/not-found-view.tsx';
import { ProductListing } from '../components/product-listing.tsx';

/** /marcas/:brandName — the brand's products, its related categories (→ /grupos/{clas}) with counts. */
export function Component() {
  const brandName = useParams().brandName ?? '';
  const brands = useBrands();
  const brand = brands.data?.find((b) => b.name.toLowerCase() === brandName.toLowerCase());
  const name = brand?.name ?? brandName;
  const { search } = useLocation();
  useDocumentTitle(`${name} | ${shop.tradeName}`);
  // /marcas/cristalux → /marcas/Cristalux: one address per brand (the API matches names exactly).
  if (brand && brand.name !== brandName) {
    return <Navigate to={`/marcas/${encodeURIComponent(brand.name)}${search}`} replace />;
  }

  return (
    <ProductListing
      key={brandName}
      base={{ brand: [brandName] }}
      facets={['line', 'type']}
      related={(data) => [
        {
          title: 'Categorías relacionadas',
          items: data.facets.groups.map((g) => ({
            label: g.label,
            count: g.count,
            to: `/grupos/${encodeURIComponent(g.value)}`,
          })),
        },
      ]}
      unknown={(data) =>
        brands.isSuccess && !brand && data.total === 0 ? (
          <NotFoundView
            title="Marca no encontrada"
            message={`No tenemos productos de la marca «${brandName}». Revise el nombre o elija una de nuestras marcas.`}
          />
        ) : null
      }
      header={(data) => (
        <ListHeader
          crumbs={[
            { label: 'Inicio', to: '/' },
            { label: 'Marcas', to: '/todas_las_marcas' },
            { label: name },
          ]}
          title={name}
          subtitle={countText(data.total)}
          aside={
            brand?.logoUrl ? (
              <img
                src={brand.logoUrl}
                alt={`Logotipo de ${brand.name}`}
                width={160}
                height={64}
                loading="eager"
                className="h-12 w-auto shrink-0 object-contain sm:h-16"
              />
            ) : null
          }
        />
      )}
    />
  );
}
