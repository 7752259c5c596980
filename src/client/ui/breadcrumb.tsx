import { Link } from 'react-router';

export type Crumb = { label: string; to?: string };

/** 'Inicio' › … › the current page (the last crumb is not a link). */
export function Breadcrumb({ items }: { items: Crumb[] }) {
  return (
    <nav aria-label="Ruta de navegación" className="text-sm text-slate-600">
      <ol className="flex items-center gap-2">
        {items.map((c, i) => (
          <li
            key={`${c.to ?? ''}|${c.label}`}
            className={`flex items-center gap-2 ${c.to ? 'shrink-0' : 'min-w-0'}`}
          >
            {i > 0 && (
              <span aria-hidden="true" className="text-slate-400">
                ›
              </span>
            )}
            {c.to ? (
              <Link to={c.to} className="text-brand-700 hover:underline">
                {c.label}
              </Link>
            ) : (
              <span aria-current="page" className="truncate text-slate-700">
                {c.label}
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
