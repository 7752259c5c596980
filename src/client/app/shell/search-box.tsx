import {
  type FormEvent,
  type KeyboardEvent,
  lazy,
  Suspense,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { useNavigate } from 'react-router';
import { SearchIcon } from '@/client/ui/icons.tsx';
import type { SuggestResponse } from '@/shared/schemas/catalog.ts';
import { SUGGEST_MIN_LENGTH } from '@/shared/suggest.ts';
import { searchable } from '@/shared/text.ts';

/** Typing pauses this long before suggestions are asked for; a request still running is aborted. */
const DEBOUNCE_MS = 150;

export type Option = {
  key: string;
  href: string;
  kind: 'product' | 'brand' | 'group' | 'all';
  label: string;
};

/**
 * The open list and the request for it load on first use (the shopper types): the header is on every page,
 * the suggestions' code only where someone searches — it keeps the catalogue's initial JavaScript in budget.
 */
const SuggestionList = lazy(() =>
  import('./suggestion-list.tsx').then((m) => ({ default: m.SuggestionList })),
);
const getSuggestions = (q: string, signal: AbortSignal) =>
  import('@/client/catalog/api/get-suggestions.ts').then((m) => m.getSuggestions(q, signal));

function optionsOf(s: SuggestResponse): Option[] {
  const all: Option[] = [
    ...s.products.map((p) => ({
      key: `p:${p.code}`,
      href: `/productos/${encodeURIComponent(p.code)}`,
      kind: 'product' as const,
      label: p.name,
    })),
    ...s.brands.map((b) => ({
      key: `b:${b.name}`,
      href: `/marcas/${encodeURIComponent(b.name)}`,
      kind: 'brand' as const,
      label: b.name,
    })),
    ...s.groups.map((g) => ({
      key: `g:${g.clas}`,
      href: `/grupos/${encodeURIComponent(g.clas)}`,
      kind: 'group' as const,
      label: g.name,
    })),
  ];
  if (s.total > 0) {
    all.push({
      key: 'all',
      href: `/busqueda/${encodeURIComponent(s.q)}`,
      kind: 'all',
      label: `Ver ${s.total === 1 ? 'el resultado' : `los ${s.total.toLocaleString('en-US')} resultados`}`,
    });
  }
  return all;
}

const countText = (n: number) =>
  n === 0 ? 'Sin sugerencias' : n === 1 ? '1 sugerencia disponible' : `${n} sugerencias disponibles`;

/**
 * The header's search: an ARIA combobox (WAI-ARIA APG 'combobox with listbox popup'). From 2 characters it
 * suggests products (name, code, price, picture), brands and categories; ↑/↓ move, Enter opens the active
 * suggestion (or searches the text), Escape closes the list (a second Escape clears the box). A live region
 * tells screen readers how many suggestions there are. Submitting goes to /busqueda/{text}.
 */
export function SearchBox({ id, onDone }: { id: string; onDone?: () => void }) {
  const [text, setText] = useState('');
  const [hint, setHint] = useState(false);
  const [data, setData] = useState<SuggestResponse | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const navigate = useNavigate();
  const listId = `${id}-sugerencias`;
  const statusId = useId();
  const boxRef = useRef<HTMLDivElement>(null);

  const term = text.trim();
  const options = data && open ? optionsOf(data) : [];

  // Debounced fetch; a newer keystroke aborts the older request so a slow answer never replaces a newer one.
  useEffect(() => {
    if (term.length < SUGGEST_MIN_LENGTH || !searchable(term)) {
      setData(null);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      getSuggestions(term, controller.signal).then(
        (s) => {
          setData(s);
          setActive(-1);
        },
        () => {
          // Aborted or failed: suggestions are a help, the search button still works.
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [term]);

  // A click outside closes the list.
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!boxRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open]);

  const go = (href: string) => {
    setOpen(false);
    setActive(-1);
    navigate(href);
    onDone?.();
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const chosen = active >= 0 ? options[active] : undefined;
    if (chosen) return go(chosen.href);
    if (!term) return;
    // '..' or '#' has nothing to search for (and '..' in an address would mean the home page).
    if (!searchable(term)) {
      setHint(true);
      return;
    }
    setHint(false);
    go(`/busqueda/${encodeURIComponent(term)}`);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (!data) return;
      e.preventDefault();
      const list = optionsOf(data);
      if (list.length === 0) return;
      setOpen(true);
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((a) => {
        const n = a + step;
        if (n >= list.length) return -1;
        if (n < -1) return list.length - 1;
        return n;
      });
    } else if (e.key === 'Escape') {
      if (open && options.length > 0) {
        e.preventDefault();
        setOpen(false);
        setActive(-1);
      } else if (text) {
        e.preventDefault();
        setText('');
      }
    }
  };

  const activeId = active >= 0 && options[active] ? `${id}-op-${active}` : undefined;
  const expanded = open && options.length > 0;

  return (
    <search className="w-full">
      <div ref={boxRef} className="relative w-full">
        <form onSubmit={submit} className="flex w-full">
          <label htmlFor={id} className="sr-only">
            Buscar productos
          </label>
          <input
            id={id}
            type="search"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={expanded}
            aria-controls={listId}
            aria-activedescendant={activeId}
            autoComplete="off"
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setHint(false);
              setOpen(true);
              setActive(-1);
            }}
            onFocus={() => setOpen(true)}
            onKeyDown={onKeyDown}
            aria-invalid={hint || undefined}
            aria-describedby={hint ? `${id}-hint` : undefined}
            placeholder="Buscar por nombre, código o CAS…"
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
        <div id={statusId} role="status" aria-live="polite" className="sr-only">
          {open && data && term.length >= SUGGEST_MIN_LENGTH ? countText(optionsOf(data).length) : ''}
        </div>
        <div
          id={listId}
          role="listbox"
          aria-label="Sugerencias de búsqueda"
          hidden={!expanded}
          className="absolute inset-x-0 top-full z-40 mt-1 max-h-[70vh] overflow-y-auto rounded-md border border-slate-200 bg-white py-1 text-left shadow-lg"
        >
          {expanded && data && (
            <Suspense fallback={null}>
              <SuggestionList
                id={id}
                data={data}
                options={options}
                active={active}
                onChoose={go}
                onHover={setActive}
              />
            </Suspense>
          )}
        </div>
      </div>
      {hint && (
        <p id={`${id}-hint`} role="alert" className="mt-1 text-sm text-red-700">
          Escriba letras o números para buscar.
        </p>
      )}
    </search>
  );
}
