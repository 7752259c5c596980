import { Navigate, useLocation, useParams } from 'react-router';
import { later, type Prefetch } from '@/client/lib/page-data.ts';
import { NotFound } from '@/client/ui/not-found.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { shop } from '@/shared/shop.ts';
import { findBrand, prefetchBrands, useBrands } from '../api/get-brands.ts';
import { prefetchProducts } from '../api/get-products.ts';
import { countText, ListHeader } from '../components/list-header.tsx';
import { lastPageRedirect, listingQuery, ProductListing } from '../components/product-listing.tsx';

const BRAND_NOT_FOUND = 'Marca no encontrada';
const base = (brandName: string) => ({ brand: [brandName] });

/**
 * The brand list decides the status and the one address of the brand (/marcas/cristalux → /marcas/Cristalux);
 * the brand's products are read meanwhile.
 */
export const prefetch: Prefetch = async ({ params, search, client, reads }) => {
  const name = params.brandName ?? '';
  const rest = later(prefetchProducts(client, reads, listingQuery(base(name), search)));
  const brand = findBrand(await prefetchBrands(client, reads), name);
  if (!brand) return { status: 404, facts: { title: BRAND_NOT_FOUND }, rest };
  if (brand.name !== name) {
    const query = search.toString();
    return { redirect: `/marcas/${encodeURIComponent(brand.name)}${query ? `?${query}` : ''}` };
  }
  const last = await lastPageRedirect(`/marcas/${encodeURIComponent(brand.name)}`, search, rest);
  if (last !== null) return { redirect: last, temporary: true };
  return { facts: { title: brand.name }, rest };
};

/** /marcas/:brandName — the brand's products, its related categories (→ /grupos/{clas}) with counts. */
export function Component() {
  const brandName = useParams().brandName ?? '';
  const brands = useBrands();
  const brand = findBrand(brands.data, brandName);
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
      base={base(brandName)}
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
          <NotFound
            title={BRAND_NOT_FOUND}
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
