import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { MAX_LINE_QUANTITY } from '@/shared/limits.ts';
import { MAX_LIST_NAME } from '@/shared/schemas/lists.ts';
import { addToList, createList, listsQueryOptions } from './api.ts';
import { useListChange } from './use-list-change.ts';

const secondaryButton =
  'inline-flex items-center justify-center rounded-md border border-brand-700 bg-white px-5 py-2.5 font-semibold text-brand-700 hover:bg-brand-50 disabled:cursor-wait disabled:opacity-70';
const primaryButton =
  'inline-flex items-center justify-center rounded-md bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800 disabled:cursor-wait disabled:opacity-70';
const closeButton =
  'rounded-md border border-slate-300 bg-white px-4 py-2.5 text-sm font-medium text-slate-700 hover:bg-slate-50';
const input =
  'w-full rounded-md border border-slate-300 px-3 py-2 text-base outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-100';

const NEW = 'nueva';

type Done = { listId: number; listName: string; message: string };

function Saved({ done }: { done: Done }) {
  return (
    <p role="status" className="mt-2 text-sm text-emerald-800" data-testid="list-saved">
      {done.message}{' '}
      <Link to={`/listas/${done.listId}`} className="font-semibold text-brand-700 hover:underline">
        Ver «{done.listName}»
      </Link>
    </p>
  );
}

/**
 * 'Agregar a una lista' on the product page (signed-in shoppers): into one of 'Mis listas' or a new one, with a
 * quantity. The server checks the product, the caps and that the list is the shopper's.
 */
export function AddToListButton({ code }: { code: string }) {
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState<Done | null>(null);
  if (!open)
    return (
      <div>
        <button
          type="button"
          className={secondaryButton}
          onClick={() => {
            setOpen(true);
            setDone(null);
          }}
          data-testid="add-to-list"
        >
          Agregar a una lista
        </button>
        {done && <Saved done={done} />}
      </div>
    );
  return (
    <AddToListForm
      code={code}
      onClose={(d) => {
        setDone(d);
        setOpen(false);
      }}
    />
  );
}

function AddToListForm({ code, onClose }: { code: string; onClose: (done: Done | null) => void }) {
  const lists = useQuery(listsQueryOptions);
  const [choice, setChoice] = useState<string>('');
  const [name, setName] = useState('');
  const [quantity, setQuantity] = useState('1');
  const [error, setError] = useState<string | null>(null);
  const change = useListChange(setError);
  const id = useId();
  const selected = choice || (lists.data && lists.data.length > 0 ? String(lists.data[0]!.id) : NEW);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const units = Number(quantity);
    if (!/^\d+$/.test(quantity) || units < 1 || units > MAX_LINE_QUANTITY) {
      setError(`La cantidad debe ser un número entero de 1 a ${MAX_LINE_QUANTITY}`);
      return;
    }
    if (selected === NEW && !name.trim()) {
      setError('Escriba el nombre de la lista');
      return;
    }
    setError(null);
    change.save(
      () =>
        selected === NEW
          ? createList(name, [{ code, quantity: units }])
          : addToList(Number(selected), code, units),
      (list) => onClose({ listId: list.id, listName: list.name, message: 'Se guardó en la lista.' }),
    );
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="Agregar a una lista"
      className="max-w-md space-y-3 rounded-lg border border-brand-200 bg-white p-4"
      data-testid="add-to-list-form"
    >
      <p className="text-sm font-semibold text-slate-900">Agregar a una lista</p>
      {lists.isPending ? (
        <p className="text-sm text-slate-600">Cargando sus listas…</p>
      ) : (
        <div>
          <label htmlFor={`${id}-list`} className="mb-1.5 block text-sm font-medium text-slate-700">
            Lista
          </label>
          <select
            id={`${id}-list`}
            value={selected}
            onChange={(e) => setChoice(e.target.value)}
            className={input}
          >
            {lists.data?.map((l) => (
              <option key={l.id} value={String(l.id)}>
                {l.name} ({l.lineCount} {l.lineCount === 1 ? 'producto' : 'productos'})
              </option>
            ))}
            <option value={NEW}>Nueva lista…</option>
          </select>
        </div>
      )}
      {selected === NEW && (
        <div>
          <label htmlFor={`${id}-name`} className="mb-1.5 block text-sm font-medium text-slate-700">
            Nombre de la nueva lista
          </label>
          <input
            id={`${id}-name`}
            value={name}
            maxLength={MAX_LIST_NAME}
            placeholder="Consumibles mensuales"
            onChange={(e) => setName(e.target.value)}
            className={input}
          />
        </div>
      )}
      <div>
        <label htmlFor={`${id}-qty`} className="mb-1.5 block text-sm font-medium text-slate-700">
          Cantidad
        </label>
        <input
          id={`${id}-qty`}
          value={quantity}
          inputMode="numeric"
          onChange={(e) => setQuantity(e.target.value.replace(/\D/g, '').slice(0, 6))}
          className={`${input} max-w-28`}
        />
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        <button type="submit" disabled={change.busy} className={`${primaryButton} flex-1`}>
          {change.busy ? 'Guardando…' : 'Guardar en la lista'}
        </button>
        <button type="button" onClick={() => onClose(null)} className={closeButton}>
          Cerrar
        </button>
      </div>
    </form>
  );
}

/** 'Guardar como lista' on the cart: the cart's codes and quantities become a new list with the name given. */
export function SaveCartAsList({ items }: { items: { code: string; quantity: number }[] }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<Done | null>(null);
  const change = useListChange(setError);
  const id = useId();

  if (!open)
    return (
      <div>
        <button
          type="button"
          className={`${secondaryButton} w-full py-3`}
          onClick={() => {
            setOpen(true);
            setDone(null);
          }}
          data-testid="save-cart-as-list"
        >
          Guardar como lista
        </button>
        {done && <Saved done={done} />}
      </div>
    );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setError('Escriba el nombre de la lista');
      return;
    }
    setError(null);
    change.save(
      () => createList(name, items),
      (list) => {
        setDone({
          listId: list.id,
          listName: list.name,
          message:
            list.lines.length === 1
              ? 'Se guardó 1 producto en una lista nueva.'
              : `Se guardaron ${list.lines.length} productos en una lista nueva.`,
        });
        setOpen(false);
        setName('');
      },
    );
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="Guardar como lista"
      className="space-y-3 rounded-lg border border-brand-200 bg-white p-4"
    >
      <label htmlFor={id} className="block text-sm font-semibold text-slate-900">
        Nombre de la lista
      </label>
      <p className="text-xs text-slate-600">
        Guarde estos productos y cantidades para pedirlos otra vez en un paso desde «Mis listas».
      </p>
      <input
        id={id}
        value={name}
        maxLength={MAX_LIST_NAME}
        placeholder="Consumibles mensuales"
        onChange={(e) => setName(e.target.value)}
        className={input}
      />
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        <button type="submit" disabled={change.busy} className={`${primaryButton} flex-1`}>
          {change.busy ? 'Guardando…' : 'Guardar lista'}
        </button>
        <button type="button" onClick={() => setOpen(false)} className={closeButton}>
          Cerrar
        </button>
      </div>
    </form>
  );
}
