import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { getSuggestions } from '@/client/catalog/api/get-suggestions.ts';
import { SearchIcon } from '@/client/ui/icons.tsx';
import { formatPriceCard } from '@/shared/money.ts';
import type { SuggestResponse } from '@/shared/schemas/catalog.ts';
import { SUGGEST_MIN_LENGTH } from '@/shared/suggest.ts';
import { searchable } from '@/shared/text.ts';

/** Typing pauses this long before suggestions are asked for; a request still running is aborted. */
const DEBOUNCE_MS = 150;

type Option = { key: string; href: string; kind: 'product' | 'brand' | 'group' | 'all'; label: string };

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
  const sections: { kind: Option['kind']; title: string }[] = [
    { kind: 'product', title: 'Productos' },
    { kind: 'brand', title: 'Marcas' },
    { kind: 'group', title: 'Categorías' },
    { kind: 'all', title: '' },
  ];

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
          {data?.searchNote?.kind === 'corrected' && (
            <div role="presentation" className="px-3 py-1.5 text-xs text-slate-600">
              Mostrando resultados de «{data.searchNote.searched}»
            </div>
          )}
          {sections.flatMap((section) => {
            const rows = options.map((o, i) => ({ o, i })).filter(({ o }) => o.kind === section.kind);
            if (rows.length === 0) return [];
            return [
              section.title ? (
                <div
                  key={`t:${section.kind}`}
                  role="presentation"
                  className="px-3 pb-1 pt-2 text-xs font-semibold uppercase tracking-wide text-slate-500"
                >
                  {section.title}
                </div>
              ) : null,
              ...rows.map(({ o, i }) => {
                const product = o.kind === 'product' ? data?.products[i] : undefined;
                return (
                  // biome-ignore lint/a11y/useFocusableInteractive: focus stays in the input (aria-activedescendant)
                  // biome-ignore lint/a11y/useKeyWithClickEvents: the input's keys (↑ ↓ Enter) choose options
                  <div
                    key={o.key}
                    id={`${id}-op-${i}`}
                    role="option"
                    aria-selected={i === active}
                    onPointerDown={(e) => e.preventDefault()}
                    onClick={() => go(o.href)}
                    onPointerMove={() => setActive(i)}
                    className={`flex cursor-pointer items-center gap-3 px-3 py-2 text-sm ${
                      i === active ? 'bg-brand-50 text-brand-900' : 'text-slate-800'
                    } ${o.kind === 'all' ? 'border-t border-slate-100 font-medium text-brand-700' : ''}`}
                  >
                    {product ? (
                      <>
                        {product.imageUrl ? (
                          <img
                            src={`${product.imageUrl}&w=160`}
                            alt=""
                            loading="lazy"
                            width={40}
                            height={40}
                            className="size-10 shrink-0 rounded border border-slate-100 object-contain"
                          />
                        ) : (
                          <span className="size-10 shrink-0 rounded bg-slate-100" aria-hidden="true" />
                        )}
                        <span className="min-w-0 flex-1">
                          <span className="line-clamp-2">{product.name}</span>
                          <span className="text-xs text-slate-500">{product.code}</span>
                        </span>
                        <span className="shrink-0 font-semibold text-slate-900">
                          {formatPriceCard(product.priceCents)}
                        </span>
                      </>
                    ) : (
                      <span>
                        {o.label}
                        {o.kind === 'all' ? ` de «${data?.q}»` : ''}
                      </span>
                    )}
                  </div>
                );
              }),
            ];
          })}
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
