import { Link } from 'react-router';
import type { Brand } from '@/shared/schemas/catalog.ts';

/** A brand's logo when it has one, else its name as text; links to /marcas/{name}. */
export function BrandTile({
  brand,
  showCount = true,
  className,
}: {
  brand: Brand;
  showCount?: boolean;
  className?: string;
}) {
  return (
    <li className={className}>
      <Link
        to={`/marcas/${encodeURIComponent(brand.name)}`}
        className="group flex h-full flex-col items-center justify-center gap-2 rounded-lg border border-slate-200 bg-white px-4 py-6 text-center shadow-sm transition hover:border-brand-300 hover:shadow-md"
      >
        <span className="flex h-16 w-full items-center justify-center">
          {brand.logoUrl ? (
            <img
              src={brand.logoUrl}
              alt={brand.name}
              width={160}
              height={64}
              loading="lazy"
              className="max-h-16 w-auto max-w-full object-contain"
            />
          ) : (
            <span className="text-xl font-bold tracking-tight text-brand-800 group-hover:text-brand-700">
              {brand.name}
            </span>
          )}
        </span>
        {showCount && (
          <span className="text-xs text-slate-600">
            {brand.productCount === 1 ? '1 producto' : `${brand.productCount} productos`}
          </span>
        )}
      </Link>
    </li>
  );
}
