import { Link } from 'react-router';
import { shop } from '@/shared/shop.ts';

export function BrandMark({ light = false }: { light?: boolean }) {
  return (
    <Link to="/" className="flex shrink-0 items-center gap-2.5" aria-label={`${shop.tradeName} — inicio`}>
      <svg viewBox="0 0 64 64" className="size-9 sm:size-10" aria-hidden="true">
        <rect width="64" height="64" rx="14" fill={light ? '#fff' : '#0b4a6f'} />
        <path
          d="M26 14h12v4h-2v14l11 16c2 3 0 6-3 6H20c-3 0-5-3-3-6l11-16V18h-2z"
          fill={light ? '#0b4a6f' : '#fff'}
        />
        <path d="M21 46h22l-5-8H26z" fill="#38bdf8" />
      </svg>
      <span className="leading-tight">
        <span
          className={`block text-base font-bold tracking-tight sm:text-lg ${light ? 'text-white' : 'text-brand-800'}`}
        >
          {shop.tradeName}
        </span>
        <span className={`hidden text-xs sm:block ${light ? 'text-brand-100' : 'text-slate-500'}`}>
          {shop.tagline}
        </span>
      </span>
    </Link>
  );
}
