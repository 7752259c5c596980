import { Link } from 'react-router';
import { pageWindow } from './page-window.ts';

const cell =
  'flex h-10 min-w-9 items-center justify-center rounded-md border px-2.5 text-sm font-medium transition-colors sm:min-w-10 sm:px-3';
const idle = `${cell} border-slate-300 bg-white text-slate-700 hover:border-brand-500 hover:text-brand-700`;
const disabled = `${cell} cursor-not-allowed border-slate-200 bg-slate-50 text-slate-500`;

/**
 * 'Anterior' · 1 … 4 5 [6] 7 8 … 20 · 'Siguiente'. Every number is a real link (hrefFor builds it, e.g. with
 * ?pagina=N) so pages can be opened in a new tab and crawled.
 */
export function Paginator({
  page,
  pages,
  hrefFor,
}: {
  page: number;
  pages: number;
  hrefFor: (page: number) => string;
}) {
  if (pages <= 1 && page <= 1) return null;
  const prev = Math.min(page - 1, pages);
  const next = page + 1;
  return (
    <nav
      aria-label="Paginación"
      className="mt-10 flex flex-wrap items-center justify-between gap-x-2 gap-y-3 sm:justify-center"
    >
      {prev >= 1 ? (
        <Link to={hrefFor(prev)} className={idle} rel="prev">
          Anterior
        </Link>
      ) : (
        <span className={disabled} aria-disabled="true">
          Anterior
        </span>
      )}
      <ul className="order-first flex w-full flex-wrap items-center justify-center gap-1.5 sm:order-none sm:w-auto">
        {pageWindow(page, pages).map((slot, i) =>
          slot === 'gap' ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: at most two gaps, fixed positions
            <li key={`gap-${i}`} aria-hidden="true" className="px-1 text-slate-500">
              …
            </li>
          ) : (
            <li key={slot}>
              {slot === page ? (
                <span aria-current="page" className={`${cell} border-brand-700 bg-brand-700 text-white`}>
                  <span className="sr-only">Página </span>
                  {slot}
                </span>
              ) : (
                <Link to={hrefFor(slot)} className={idle}>
                  <span className="sr-only">Página </span>
                  {slot}
                </Link>
              )}
            </li>
          ),
        )}
      </ul>
      {next <= pages ? (
        <Link to={hrefFor(next)} className={idle} rel="next">
          Siguiente
        </Link>
      ) : (
        <span className={disabled} aria-disabled="true">
          Siguiente
        </span>
      )}
    </nav>
  );
}
