import { formatPriceCard } from '@/shared/money.ts';
import type { SuggestResponse } from '@/shared/schemas/catalog.ts';
import type { Option } from './search-box.tsx';

const SECTIONS: { kind: Option['kind']; title: string }[] = [
  { kind: 'product', title: 'Productos' },
  { kind: 'brand', title: 'Marcas' },
  { kind: 'group', title: 'Categorías' },
  { kind: 'all', title: '' },
];

/** The header search's open list of suggestions (search-box.tsx keeps the combobox, its keys and its data). */
export function SuggestionList({
  id,
  data,
  options,
  active,
  onChoose,
  onHover,
}: {
  id: string;
  data: SuggestResponse;
  options: Option[];
  active: number;
  onChoose: (href: string) => void;
  onHover: (index: number) => void;
}) {
  return (
    <>
      {data.searchNote?.kind === 'corrected' && (
        <div role="presentation" className="px-3 py-1.5 text-xs text-slate-600">
          Mostrando resultados de «{data.searchNote.searched}»
        </div>
      )}
      {SECTIONS.flatMap((section) => {
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
            const product = o.kind === 'product' ? data.products[i] : undefined;
            return (
              // biome-ignore lint/a11y/useFocusableInteractive: focus stays in the input (aria-activedescendant)
              // biome-ignore lint/a11y/useKeyWithClickEvents: the input's keys (↑ ↓ Enter) choose options
              <div
                key={o.key}
                id={`${id}-op-${i}`}
                role="option"
                aria-selected={i === active}
                onPointerDown={(e) => e.preventDefault()}
                onClick={() => onChoose(o.href)}
                onPointerMove={() => onHover(i)}
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
                    {o.kind === 'all' ? ` de «${data.q}»` : ''}
                  </span>
                )}
              </div>
            );
          }),
        ];
      })}
    </>
  );
}
