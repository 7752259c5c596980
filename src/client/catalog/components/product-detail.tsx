import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Breadcrumb } from '@/client/ui/breadcrumb.tsx';
import { ControlledNotice } from '@/client/ui/controlled-notice.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { availabilityText } from '@/shared/backorder.ts';
import { formatPriceDetail } from '@/shared/money.ts';
import type { ProductDetail } from '@/shared/schemas/catalog.ts';
import { shop } from '@/shared/shop.ts';
import { stockText } from '../lib/stock-text.ts';
import { PresentationPicker } from './presentation-picker.tsx';
import { ProductImage } from './product-image.tsx';
import { Formula, HazardSummary } from './safety-panel.tsx';
import { TechnicalSpecs } from './technical-specs.tsx';
import { VolumePrices } from './volume-prices.tsx';

/**
 * The photo fills its column: a phone downloads the 320 px rendition, a desktop the 640 px one. The server
 * preloads the photo from the document's head with the same sizes (src/server/spa/preload-hints.ts).
 */
export const PRODUCT_PHOTO_SIZES = '(min-width: 1280px) 540px, (min-width: 768px) 44vw, calc(100vw - 4rem)';

/**
 * The product detail: photo, code, name, brand, price with IVA, stock, category, description and the
 * technical sheet. `purchase` is what the page puts under the price (the cart's button).
 */
export function ProductDetailView({ product: p, purchase }: { product: ProductDetail; purchase: ReactNode }) {
  useDocumentTitle(`${p.code} | ${p.brand ?? shop.tradeName}`);
  return (
    <div className="mx-auto max-w-7xl px-4 py-6 sm:py-8">
      <Breadcrumb items={[{ label: 'Inicio', to: '/' }, { label: p.name }]} />

      <div className="mt-6 grid gap-8 md:grid-cols-2 lg:grid-cols-[5fr_6fr] lg:gap-12">
        <div className="self-start rounded-xl border border-slate-200 bg-white p-4 sm:p-6">
          <ProductImage
            url={p.imageUrl}
            alt={p.name}
            lazy={false}
            fallbackWidth={640}
            sizes={PRODUCT_PHOTO_SIZES}
            className="rounded-lg"
          />
        </div>

        <div>
          <p className="text-sm text-slate-600">
            Código: <span className="font-mono font-medium text-slate-800">{p.code}</span>
          </p>
          <h1 className="mt-2 text-2xl font-semibold leading-tight tracking-tight text-slate-900 sm:text-3xl">
            {p.name}
            {p.presentationLabel && <span className="text-slate-600">, {p.presentationLabel}</span>}
          </h1>

          <div className="mt-4">
            <BrandLink product={p} />
          </div>

          <p className="mt-6 text-3xl font-bold text-slate-900">{formatPriceDetail(p.priceCents)}</p>
          <p className="mt-1 text-sm text-slate-600">Precio con IVA incluido</p>

          <p
            className={`mt-4 inline-flex items-center gap-2 text-sm font-medium ${p.stock < 1 ? 'text-amber-800' : 'text-green-800'}`}
          >
            <span
              aria-hidden="true"
              className={`size-2.5 rounded-full ${p.stock < 1 ? 'bg-amber-500' : 'bg-accent-500'}`}
            />
            {/* 'Sobre pedido' (decision 029): what ships now and that more can be ordered, with the lead time. */}
            {p.leadTime ? (
              <span data-testid="backorder-availability">{availabilityText(p.stock, p.leadTime)}</span>
            ) : (
              stockText(p.stock)
            )}
          </p>
          {/* The hazard stays in sight beside the price; the statements are in the 'Seguridad' tab (decision 036). */}
          <HazardSummary product={p} />

          <PresentationPicker product={p} />
          <VolumePrices product={p} />
          {p.controlled && <ControlledNotice />}

          <dl className="mt-6 space-y-2 border-t border-slate-200 pt-6 text-sm">
            {p.groupClas && (
              <div className="flex gap-2">
                <dt className="text-slate-600">Categoría:</dt>
                <dd>
                  <Link
                    to={`/grupos/${encodeURIComponent(p.groupClas)}`}
                    className="font-medium text-brand-700 hover:underline"
                  >
                    {p.groupName ?? p.groupClas}
                  </Link>
                </dd>
              </div>
            )}
            {p.line && (
              <div className="flex gap-2">
                <dt className="text-slate-600">Línea:</dt>
                <dd className="text-slate-800">{p.line}</dd>
              </div>
            )}
            {p.type && (
              <div className="flex gap-2">
                <dt className="text-slate-600">Tipo:</dt>
                <dd className="text-slate-800">{p.type}</dd>
              </div>
            )}
            {p.casNumber && (
              <div className="flex gap-2">
                <dt className="text-slate-600">Número CAS:</dt>
                <dd className="font-mono text-slate-800">{p.casNumber}</dd>
              </div>
            )}
            {p.formula && (
              <div className="flex gap-2">
                <dt className="text-slate-600">Fórmula:</dt>
                <dd className="text-slate-800">
                  <Formula text={p.formula} />
                </dd>
              </div>
            )}
          </dl>

          {p.shortDesc && <p className="mt-6 leading-relaxed text-slate-700">{p.shortDesc}</p>}

          <div className="mt-8">{purchase}</div>
        </div>
      </div>

      <TechnicalSpecs product={p} />
    </div>
  );
}

/** The brand's logo (or name) → /marcas/{brand}; with no brand, → /todas_las_marcas. */
function BrandLink({ product: p }: { product: ProductDetail }) {
  if (!p.brand) {
    return (
      <Link to="/todas_las_marcas" className="text-sm font-medium text-brand-700 hover:underline">
        Ver todas las marcas
      </Link>
    );
  }
  const to = `/marcas/${encodeURIComponent(p.brand)}`;
  return p.brandLogoUrl ? (
    <Link
      to={to}
      className="inline-block rounded-md border border-slate-200 bg-white p-2 hover:border-brand-300"
      title={`Ver productos de ${p.brand}`}
    >
      <img
        src={p.brandLogoUrl}
        alt={`Marca ${p.brand}`}
        width={140}
        height={56}
        loading="lazy"
        className="h-12 w-auto object-contain"
      />
    </Link>
  ) : (
    <Link to={to} className="text-sm text-slate-600">
      Marca: <span className="font-semibold text-brand-700 hover:underline">{p.brand}</span>
    </Link>
  );
}
