import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useGroups } from '@/client/catalog/api/get-groups.ts';
import { ChevronDownIcon } from '@/client/ui/icons.tsx';
import type { GroupTree } from '@/shared/schemas/catalog.ts';

/** Splits sub-groups into columns of four (spec: menu columns hold 4 items). */
export function columnsOfFour<T>(items: T[]): T[][] {
  const cols: T[][] = [];
  for (let i = 0; i < items.length; i += 4) cols.push(items.slice(i, i + 4));
  return cols;
}

/** Desktop: a 'Categorías' button opening a panel — groups on the left, the chosen group's sub-groups in columns. */
export function CategoryMenu() {
  const { data: groups = [] } = useGroups();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState<string | null>(null);
  const ref = useRef<HTMLDivElement>(null);
  const location = useLocation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: close on every navigation
  useEffect(() => setOpen(false), [location.pathname]);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const current: GroupTree | undefined = groups.find((g) => g.clas === active) ?? groups[0];

  return (
    <div ref={ref} className="relative">
      <button
        type="button"
        aria-expanded={open}
        aria-controls="menu-categorias"
        onClick={() => setOpen((o) => !o)}
        className="flex items-center gap-1.5 px-4 py-3 font-medium hover:bg-brand-800"
      >
        Categorías
        <ChevronDownIcon className={`size-4 transition-transform ${open ? 'rotate-180' : ''}`} />
      </button>
      {open && (
        <div
          id="menu-categorias"
          className="absolute left-0 top-full z-40 flex w-[min(56rem,calc(100vw-2rem))] overflow-hidden rounded-b-lg bg-white text-slate-800 shadow-2xl ring-1 ring-slate-200"
        >
          <ul className="w-64 shrink-0 border-r border-slate-100 bg-slate-50 py-2">
            {groups.map((g) => (
              <li key={g.clas}>
                <Link
                  to={`/grupos/${encodeURIComponent(g.clas)}`}
                  onMouseEnter={() => setActive(g.clas)}
                  onFocus={() => setActive(g.clas)}
                  className={`block px-4 py-2 text-sm ${current?.clas === g.clas ? 'bg-white font-semibold text-brand-700' : 'hover:bg-white'}`}
                >
                  {g.name}
                </Link>
              </li>
            ))}
          </ul>
          {current && (
            <div className="flex-1 p-6">
              <Link
                to={`/grupos/${encodeURIComponent(current.clas)}`}
                className="text-base font-semibold text-brand-800 hover:underline"
              >
                {current.name}
              </Link>
              <div className="mt-4 flex flex-wrap gap-x-12 gap-y-4">
                {columnsOfFour(current.subgroups).map((col) => (
                  <ul key={col[0]?.clas} className="space-y-2">
                    {col.map((s) => (
                      <li key={s.clas}>
                        <Link
                          to={`/grupos/${encodeURIComponent(s.clas)}`}
                          className="text-sm text-slate-600 hover:text-brand-700 hover:underline"
                        >
                          {s.name}
                        </Link>
                      </li>
                    ))}
                  </ul>
                ))}
              </div>
            </div>
          )}
        </div>
      )}
    </div>
  );
}

/** Mobile: every group as a disclosure with its sub-groups. */
export function CategoryList() {
  const { data: groups = [] } = useGroups();
  return (
    <ul className="divide-y divide-slate-100">
      {groups.map((g) => (
        <li key={g.clas}>
          <details className="group">
            <summary className="flex cursor-pointer list-none items-center justify-between px-4 py-3 font-medium">
              {g.name}
              <ChevronDownIcon className="size-4 transition-transform group-open:rotate-180" />
            </summary>
            <ul className="pb-2">
              <li>
                <Link
                  to={`/grupos/${encodeURIComponent(g.clas)}`}
                  className="block px-8 py-2 text-sm text-brand-700"
                >
                  Ver todo en {g.name}
                </Link>
              </li>
              {g.subgroups.map((s) => (
                <li key={s.clas}>
                  <Link
                    to={`/grupos/${encodeURIComponent(s.clas)}`}
                    className="block px-8 py-2 text-sm text-slate-600"
                  >
                    {s.name}
                  </Link>
                </li>
              ))}
            </ul>
          </details>
        </li>
      ))}
    </ul>
  );
}
