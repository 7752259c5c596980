import { Link } from 'react-router';
import { leadTimeText } from '@/shared/backorder.ts';
import { formatPriceCard } from '@/shared/money.ts';
import type { ProductCard as Card } from '@/shared/schemas/catalog.ts';
import { CardAddButton } from './card-add-button.tsx';
import { ProductImage } from './product-image.tsx';

/**
 * Card in a list: image or 'Sin imagen', name, brand, '$1,234.56 mxn' ('desde $… mxn' for a family whose
 * presentations differ in price, decision 021); the whole card links to the detail.
 */
export function ProductCard({ product, lazy }: { product: Card; lazy: boolean }) {
  return (
    <li
      data-testid="product-card"
      className="group relative flex flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm transition hover:border-brand-200 hover:shadow-md has-[a:focus-visible]:ring-2 has-[a:focus-visible]:ring-brand-500"
    >
      <div className="border-b border-slate-100 p-3">
        <ProductImage
          url={product.imageUrl}
          alt={product.name}
          lazy={lazy}
          sizes="(min-width: 1280px) 280px, (min-width: 1024px) 22vw, (min-width: 640px) 30vw, 46vw"
        />
      </div>
      <div className="flex flex-1 flex-col gap-1 p-3 sm:p-4">
        {product.brand && (
          <p className="text-xs font-semibold uppercase tracking-wide text-brand-600">{product.brand}</p>
        )}
        <h2 className="line-clamp-3 text-sm font-medium leading-snug text-slate-900 sm:text-base">
          <Link
            to={`/productos/${encodeURIComponent(product.code)}`}
            className="after:absolute after:inset-0 focus-visible:outline-none group-hover:text-brand-700"
          >
            {product.name}
          </Link>
        </h2>
        <p className="text-xs text-slate-600">Código: {product.code}</p>
        <p className="mt-auto pt-2 text-base font-bold text-slate-900 sm:text-lg">
          {product.fromPriceCents !== null && (
            <span className="text-sm font-normal text-slate-600">desde </span>
          )}
          {formatPriceCard(product.fromPriceCents ?? product.priceCents)}
        </p>
        {product.presentationCount > 1 && (
          <p className="text-xs text-slate-600">{product.presentationCount} presentaciones</p>
        )}
        {product.familyStock < 1 &&
          (product.leadTime ? (
            <p className="text-xs font-medium text-amber-800" data-testid="card-backorder">
              Sobre pedido · {leadTimeText(product.leadTime)}
            </p>
          ) : (
            <p className="text-xs font-medium text-amber-800">Sin inventario</p>
          ))}
        <CardAddButton product={product} />
      </div>
    </li>
  );
}
