import { Link } from 'react-router';
import type { ProductsResponse } from '@/shared/schemas/catalog.ts';
import { useGroups } from '../api/get-groups.ts';

const searchHref = (term: string, exact = false) =>
  `/busqueda/${encodeURIComponent(term)}${exact ? '?exacta=1' : ''}`;

const linkClass = 'font-semibold text-brand-700 underline-offset-2 hover:underline [overflow-wrap:anywhere]';

/**
 * What was searched when it was not the shopper's words (decision 020): a correction says so and offers the words
 * as typed; a synonym of the lab's vocabulary names the catalogue's words it stands for.
 */
export function SearchNote({ term, note }: { term: string; note: ProductsResponse['searchNote'] }) {
  if (!note) return null;
  if (note.kind === 'corrected') {
    return (
      <p className="mt-3 rounded-md bg-amber-50 px-4 py-3 text-sm text-slate-800" data-testid="search-note">
        Mostrando resultados de{' '}
        <Link to={searchHref(note.searched)} className={linkClass}>
          «{note.searched}»
        </Link>
        . ¿Buscaba{' '}
        <Link to={searchHref(term, true)} className={linkClass}>
          «{term}»
        </Link>
        ?
      </p>
    );
  }
  return (
    <p className="mt-3 rounded-md bg-brand-50 px-4 py-3 text-sm text-slate-800" data-testid="search-note">
      Mostrando resultados de{' '}
      <Link to={searchHref(note.searched)} className={linkClass}>
        «{note.searched}»
      </Link>
      , sinónimo de «{term}».
    </p>
  );
}

/** 'Sin resultados para «…»': never unrelated products; the categories, the quick order and a person instead. */
export function NoResults({ term }: { term: string }) {
  const groups = useGroups().data ?? [];
  return (
    <div className="text-left sm:text-center" data-testid="no-results">
      <p className="text-lg [overflow-wrap:anywhere]">Sin resultados para «{term}».</p>
      <p className="mt-2 text-sm font-normal text-slate-600">
        Revise la ortografía, busque por código, número CAS o fórmula, o use menos palabras.
      </p>
      {groups.length > 0 && (
        <nav aria-label="Categorías" className="mt-5">
          <p className="text-sm font-medium text-slate-700">Categorías más buscadas</p>
          <ul className="mt-2 flex flex-wrap justify-start gap-2 sm:justify-center">
            {groups.slice(0, 8).map((g) => (
              <li key={g.clas}>
                <Link
                  to={`/grupos/${encodeURIComponent(g.clas)}`}
                  className="inline-block rounded-full border border-slate-300 bg-white px-3 py-1 text-sm font-normal text-slate-800 hover:border-brand-500"
                >
                  {g.name}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <p className="mt-5 text-sm font-normal text-slate-700">
        ¿Ya tiene los códigos?{' '}
        <Link to="/pedido_rapido" className={linkClass}>
          Haga un pedido rápido
        </Link>
        . ¿No lo encuentra?{' '}
        <Link to="/contacto" className={linkClass}>
          Escríbanos
        </Link>{' '}
        y se lo conseguimos.
      </p>
    </div>
  );
}
