import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { useSaveSynonym, useSearchMisses, useSynonyms } from '../api/search-vocabulary.ts';
import {
  buttonClass,
  DataTable,
  fieldClass,
  formatDay,
  Panel,
  ScreenTitle,
  td,
  th,
} from '../components/admin-ui.tsx';

/**
 * 'Búsqueda': the lab's vocabulary the search uses (what shoppers type → the catalogue's words) and the searches
 * that found nothing or little, so purchasing sees what people look for and do not find.
 */
export function SearchScreen() {
  useDocumentTitle('Búsqueda — Administración');
  const [days, setDays] = useState(30);
  const misses = useSearchMisses(days);
  const synonyms = useSynonyms();
  const save = useSaveSynonym();
  const [term, setTerm] = useState('');
  const [canonical, setCanonical] = useState('');

  function add(e: FormEvent) {
    e.preventDefault();
    save.mutate(
      { id: null, input: { term, canonical } },
      {
        onSuccess: () => {
          setTerm('');
          setCanonical('');
        },
      },
    );
  }

  return (
    <div className="grid gap-6">
      <ScreenTitle
        title="Búsqueda"
        subtitle="Sinónimos que usa el buscador y lo que los clientes buscan sin encontrar."
      />
      <Panel
        title="Búsquedas sin resultados o con pocos"
        actions={
          <label className="flex items-center gap-2 text-sm text-slate-600">
            Últimos
            <select
              className={`${fieldClass} w-auto py-1`}
              value={days}
              onChange={(e) => setDays(Number(e.target.value))}
            >
              {[7, 30, 90, 365].map((d) => (
                <option key={d} value={d}>
                  {d} días
                </option>
              ))}
            </select>
          </label>
        }
      >
        {misses.isPending ? (
          <Spinner />
        ) : misses.isError ? (
          <Alert tone="danger">{misses.error.message}</Alert>
        ) : (
          <DataTable
            head={
              <tr>
                <th className={th}>Término</th>
                <th className={`${th} text-right`}>Veces</th>
                <th className={`${th} text-right`}>Resultados</th>
                <th className={`${th} text-right`}>Días</th>
                <th className={th}>Última vez</th>
              </tr>
            }
            empty={misses.data.items.length === 0 ? 'Nadie buscó sin encontrar en este periodo.' : null}
          >
            {misses.data.items.map((m) => (
              <tr key={m.term} data-testid="search-miss">
                <td className={td}>
                  <Link
                    to={`/busqueda/${encodeURIComponent(m.term)}`}
                    className="text-brand-700 hover:underline"
                  >
                    {m.term}
                  </Link>
                </td>
                <td className={`${td} text-right`}>{m.searches}</td>
                <td className={`${td} text-right`}>{m.results}</td>
                <td className={`${td} text-right`}>{m.days}</td>
                <td className={td}>{formatDay(m.lastDay)}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </Panel>

      <Panel title="Sinónimos">
        <form onSubmit={add} className="mb-4 grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
          <label className="grid gap-1 text-sm font-medium text-slate-700">
            Lo que escriben
            <input
              className={fieldClass}
              value={term}
              onChange={(e) => setTerm(e.target.value)}
              placeholder="ácido muriático"
            />
          </label>
          <label className="grid gap-1 text-sm font-medium text-slate-700">
            Cómo se llama en el catálogo
            <input
              className={fieldClass}
              value={canonical}
              onChange={(e) => setCanonical(e.target.value)}
              placeholder="ácido clorhídrico"
            />
          </label>
          <button type="submit" className={buttonClass.primary} disabled={save.isPending}>
            Agregar
          </button>
        </form>
        {save.isError && (
          <div className="mb-4">
            <Alert tone="danger">{save.error.message}</Alert>
          </div>
        )}
        {synonyms.isPending ? (
          <Spinner />
        ) : synonyms.isError ? (
          <Alert tone="danger">{synonyms.error.message}</Alert>
        ) : (
          <DataTable
            head={
              <tr>
                <th className={th}>Lo que escriben</th>
                <th className={th}>En el catálogo</th>
                <th className={th}>
                  <span className="sr-only">Acciones</span>
                </th>
              </tr>
            }
            empty={synonyms.data.items.length === 0 ? 'Sin sinónimos.' : null}
          >
            {synonyms.data.items.map((s) => (
              <tr key={s.id}>
                <td className={td}>{s.term}</td>
                <td className={td}>{s.canonical}</td>
                <td className={`${td} text-right`}>
                  <button
                    type="button"
                    className={buttonClass.danger}
                    disabled={save.isPending}
                    onClick={() => save.mutate({ id: s.id, input: null })}
                    aria-label={`Eliminar el sinónimo ${s.term}`}
                  >
                    Eliminar
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </Panel>
    </div>
  );
}
