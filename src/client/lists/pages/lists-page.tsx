import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Link, Route, Routes, useNavigate, useParams } from 'react-router';
import { AddAtTodaysPricesButton } from '@/client/lib/add-at-todays-prices-button.tsx';
import { RequireSignedIn } from '@/client/lib/auth/require-signed-in.tsx';
import {
  createList,
  deleteList,
  listQueryOptions,
  listsQueryOptions,
  removeFromList,
  renameList,
  setListQuantity,
  shareList,
  unshareList,
} from '@/client/lib/lists/api.ts';
import { useListChange } from '@/client/lib/lists/use-list-change.ts';
import { Alert } from '@/client/ui/alert.tsx';
import { shopTitle, useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { PageError, PageLoading } from '@/client/ui/page-state.tsx';
import { MAX_LINE_QUANTITY } from '@/shared/limits.ts';
import { type ListDetail, type ListLine, MAX_LIST_NAME, MAX_LISTS } from '@/shared/schemas/lists.ts';
import { ListLines } from '../components/list-lines.tsx';
import { linesToAdd } from '../lines-to-add.ts';

const primaryButton =
  'inline-flex items-center justify-center rounded-md bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800 disabled:cursor-wait disabled:opacity-70';
const secondaryButton =
  'inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:cursor-wait disabled:opacity-70';
const dangerButton =
  'inline-flex items-center justify-center rounded-md border border-red-300 bg-white px-4 py-2 text-sm font-medium text-red-700 hover:bg-red-50 disabled:cursor-wait disabled:opacity-70';
const input =
  'w-full rounded-md border border-slate-300 px-3 py-2 text-base outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-100';

const dateOf = (iso: string) =>
  new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium', timeZone: 'America/Mexico_City' }).format(
    new Date(iso),
  );
const products = (n: number) => (n === 1 ? '1 producto' : `${n} productos`);

function NewListForm() {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const change = useListChange(setError);
  const navigate = useNavigate();
  const id = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setError('Escriba el nombre de la lista');
      return;
    }
    setError(null);
    change.save(
      () => createList(name),
      (list) => navigate(`/listas/${list.id}`),
    );
  };
  return (
    <form
      onSubmit={submit}
      noValidate
      className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5"
    >
      <label htmlFor={id} className="block font-medium text-slate-900">
        Nueva lista
      </label>
      <div className="mt-2 flex flex-col gap-2 sm:flex-row">
        <input
          id={id}
          value={name}
          maxLength={MAX_LIST_NAME}
          placeholder="Consumibles mensuales"
          onChange={(e) => setName(e.target.value)}
          aria-invalid={error ? true : undefined}
          className={input}
        />
        <button type="submit" disabled={change.busy} className={`${primaryButton} shrink-0`}>
          {change.busy ? 'Creando…' : 'Crear lista'}
        </button>
      </div>
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </form>
  );
}

function Overview() {
  useDocumentTitle(shopTitle('Mis listas'));
  const lists = useQuery(listsQueryOptions);
  return (
    <>
      <p className="mt-1 text-sm text-slate-600">
        Guarde los productos que pide seguido y agréguelos al carrito en un paso. Hasta {MAX_LISTS} listas.
        Para llenarlas use «Agregar a una lista» en la página de cada producto o «Guardar como lista» en el
        carrito.
      </p>
      <div className="mt-6 space-y-6">
        <NewListForm />
        {lists.isPending ? (
          <PageLoading label="Cargando sus listas…" />
        ) : lists.isError ? (
          <PageError message={lists.error.message} />
        ) : lists.data.length === 0 ? (
          <p className="rounded-xl bg-white p-6 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">
            Aún no tiene listas.
          </p>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2" data-testid="lists">
            {lists.data.map((l) => (
              <li key={l.id}>
                <Link
                  to={`/listas/${l.id}`}
                  className="block h-full rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 hover:ring-brand-400"
                >
                  <span className="flex items-start justify-between gap-2">
                    <span className="font-semibold text-slate-900">{l.name}</span>
                    {l.shared && (
                      <span className="shrink-0 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-800 ring-1 ring-brand-200">
                        Compartida
                      </span>
                    )}
                  </span>
                  <span className="mt-1 block text-sm text-slate-600">
                    {products(l.lineCount)} · actualizada el {dateOf(l.updatedAt)}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
    </>
  );
}

function QuantityInput({ line, onSave }: { line: ListLine; onSave: (quantity: number) => void }) {
  const [value, setValue] = useState(String(line.quantity));
  useEffect(() => setValue(String(line.quantity)), [line.quantity]);
  const commit = () => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < 1 || n > MAX_LINE_QUANTITY) {
      setValue(String(line.quantity));
      return;
    }
    if (n !== line.quantity) onSave(n);
  };
  return (
    <label className="flex items-center gap-2 text-sm text-slate-700">
      Cantidad
      <input
        value={value}
        inputMode="numeric"
        aria-label={`Cantidad de ${line.product?.name ?? line.code}`}
        onChange={(e) => setValue(e.target.value.replace(/\D/g, '').slice(0, 6))}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            commit();
          }
        }}
        className="w-20 rounded-md border border-slate-300 px-2 py-1.5 text-right text-base outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-100"
      />
    </label>
  );
}

function SharePanel({ list, onChange }: { list: ListDetail; onChange: (next: Promise<ListDetail>) => void }) {
  const [copied, setCopied] = useState(false);
  const url = list.sharePath ? `${window.location.origin}${list.sharePath}` : null;
  return (
    <section
      aria-labelledby="compartir"
      className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5"
    >
      <h2 id="compartir" className="font-semibold text-slate-900">
        Compartir
      </h2>
      {url ? (
        <>
          <p className="mt-1 text-sm text-slate-600">
            Quien tenga este enlace puede ver la lista y agregarla a su propio carrito, sin iniciar sesión; no
            puede cambiarla.
          </p>
          <div className="mt-3 flex flex-col gap-2 sm:flex-row">
            <input
              readOnly
              value={url}
              aria-label="Enlace para compartir"
              data-testid="share-url"
              onFocus={(e) => e.target.select()}
              className={`${input} font-mono text-sm`}
            />
            <button
              type="button"
              className={`${secondaryButton} shrink-0`}
              onClick={() =>
                void navigator.clipboard?.writeText(url).then(
                  () => setCopied(true),
                  () => setCopied(false),
                )
              }
            >
              {copied ? 'Copiado' : 'Copiar enlace'}
            </button>
            <button
              type="button"
              className={`${dangerButton} shrink-0`}
              onClick={() => onChange(unshareList(list.id))}
              data-testid="unshare"
            >
              Dejar de compartir
            </button>
          </div>
        </>
      ) : (
        <div className="mt-1 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-slate-600">
            Cree un enlace de solo lectura para que un colega vea la lista y la agregue a su carrito.
          </p>
          <button
            type="button"
            className={`${secondaryButton} shrink-0`}
            onClick={() => onChange(shareList(list.id))}
            data-testid="share"
          >
            Compartir
          </button>
        </div>
      )}
    </section>
  );
}

function ListView({ id }: { id: number }) {
  const query = useQuery(listQueryOptions(id));
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const change = useListChange(setError);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  useDocumentTitle(shopTitle(query.data ? query.data.name : 'Mis listas'));

  if (query.isPending) return <PageLoading label="Cargando la lista…" />;
  if (query.isError)
    return (
      <div className="mt-6 space-y-4">
        <Alert tone="danger">{query.error.message}</Alert>
        <Link to="/listas" className="font-medium text-brand-700 hover:underline">
          Volver a Mis listas
        </Link>
      </div>
    );
  const list = query.data;

  const apply = (next: Promise<ListDetail>) =>
    change.save(
      () => next,
      () => setError(null),
    );

  const submitRename = (e: FormEvent) => {
    e.preventDefault();
    if (renaming === null) return;
    if (!renaming.trim()) {
      setError('Escriba el nombre de la lista');
      return;
    }
    apply(renameList(id, renaming).then((r) => (setRenaming(null), r)));
  };

  const remove = () =>
    change.attempt(async () => {
      await deleteList(id);
      change.client.removeQueries({ queryKey: ['lists', id] });
      void change.client.invalidateQueries({ queryKey: ['lists'], exact: true });
      navigate('/listas');
    });

  return (
    <div className="mt-4 space-y-5">
      <Link to="/listas" className="text-sm font-medium text-brand-700 hover:underline">
        ← Mis listas
      </Link>
      {renaming === null ? (
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <h2 className="text-xl font-semibold text-slate-900 sm:text-2xl" data-testid="list-name">
            {list.name}
          </h2>
          <button
            type="button"
            className="text-sm font-medium text-brand-700 hover:underline"
            onClick={() => setRenaming(list.name)}
          >
            Cambiar nombre
          </button>
        </div>
      ) : (
        <form onSubmit={submitRename} className="flex flex-col gap-2 sm:flex-row" noValidate>
          <input
            value={renaming}
            maxLength={MAX_LIST_NAME}
            aria-label="Nombre de la lista"
            onChange={(e) => setRenaming(e.target.value)}
            className={input}
          />
          <button type="submit" className={`${primaryButton} shrink-0`} disabled={change.busy}>
            Guardar
          </button>
          <button type="button" className={`${secondaryButton} shrink-0`} onClick={() => setRenaming(null)}>
            Cancelar
          </button>
        </form>
      )}
      <p className="text-sm text-slate-600">
        {products(list.lines.length)} · actualizada el {dateOf(list.updatedAt)}. Precios de hoy con IVA
        incluido; el carrito aplica los precios por volumen.
      </p>

      {error && <Alert tone="danger">{error}</Alert>}

      {list.lines.length === 0 ? (
        <p className="rounded-xl bg-white p-6 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">
          Esta lista está vacía. Agregue productos con «Agregar a una lista» en la página de cada producto.
        </p>
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-3 rounded-xl bg-brand-50 p-4 ring-1 ring-brand-100">
            <AddAtTodaysPricesButton
              label="Agregar todo al carrito"
              testId="list-to-cart"
              className={primaryButton}
              load={async () => linesToAdd(list.lines)}
            />
          </div>
          <ListLines
            lines={list.lines}
            quantity={(line) => (
              <QuantityInput line={line} onSave={(q) => apply(setListQuantity(id, line.code, q))} />
            )}
            actions={(line) => (
              <button
                type="button"
                className="text-sm font-medium text-red-700 hover:underline"
                onClick={() => apply(removeFromList(id, line.code))}
                aria-label={`Quitar ${line.product?.name ?? line.code} de la lista`}
              >
                Quitar
              </button>
            )}
          />
        </>
      )}

      <SharePanel list={list} onChange={apply} />

      <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-4">
        {confirmDelete ? (
          <>
            <span className="text-sm text-slate-800">¿Eliminar «{list.name}»? No se puede deshacer.</span>
            <button type="button" className={dangerButton} onClick={remove} disabled={change.busy}>
              Sí, eliminar
            </button>
            <button type="button" className={secondaryButton} onClick={() => setConfirmDelete(false)}>
              No
            </button>
          </>
        ) : (
          <button type="button" className={dangerButton} onClick={() => setConfirmDelete(true)}>
            Eliminar lista
          </button>
        )}
      </div>
    </div>
  );
}

function ListRoute() {
  const raw = useParams().id ?? '';
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : null;
  if (id === null)
    return (
      <div className="mt-6">
        <Alert tone="danger">Lista no encontrada</Alert>
      </div>
    );
  return <ListView id={id} />;
}

/** /listas — 'Mis listas' (issue 18, decision 031): the index and /listas/:id, signed-in only. */
export function Component() {
  return (
    <div className="mx-auto max-w-4xl px-4 py-8">
      <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Mis listas</h1>
      <RequireSignedIn>
        <Routes>
          <Route index element={<Overview />} />
          <Route path=":id" element={<ListRoute />} />
        </Routes>
      </RequireSignedIn>
    </div>
  );
}
