import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { SearchIcon } from '@/client/ui/icons.tsx';
import { searchable } from '@/shared/text.ts';

/** Submitting goes to /busqueda/{text}. */
export function SearchBox({ id, onDone }: { id: string; onDone?: () => void }) {
  const [text, setText] = useState('');
  const [hint, setHint] = useState(false);
  const navigate = useNavigate();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const term = text.trim();
    if (!term) return;
    // '..' or '#' has nothing to search for (and '..' in an address would mean the home page).
    if (!searchable(term)) {
      setHint(true);
      return;
    }
    setHint(false);
    navigate(`/busqueda/${encodeURIComponent(term)}`);
    onDone?.();
  };
  return (
    <search className="w-full">
      <form onSubmit={submit} className="flex w-full">
        <label htmlFor={id} className="sr-only">
          Buscar productos
        </label>
        <input
          id={id}
          type="search"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setHint(false);
          }}
          aria-invalid={hint || undefined}
          aria-describedby={hint ? `${id}-hint` : undefined}
          placeholder="Buscar por nombre, código o marca…"
          maxLength={200}
          className="min-w-0 flex-1 rounded-l-md border border-slate-300 bg-white px-4 py-2.5 text-sm outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-100"
        />
        <button
          type="submit"
          className="flex items-center gap-2 rounded-r-md bg-brand-700 px-4 text-sm font-medium text-white hover:bg-brand-800"
        >
          <SearchIcon />
          <span className="sr-only sm:not-sr-only">Buscar</span>
        </button>
      </form>
      {hint && (
        <p id={`${id}-hint`} role="alert" className="mt-1 text-sm text-red-700">
          Escriba letras o números para buscar.
        </p>
      )}
    </search>
  );
}
