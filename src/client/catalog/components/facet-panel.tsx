import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import type { FacetCount } from '@/shared/schemas/catalog.ts';
import type { FacetKey } from '../lib/list-url.ts';

export type RelatedLinks = {
  title: string;
  items: { label: string; count: number; to: string }[];
};

export type FacetGroup = {
  key: FacetKey;
  title: string;
  options: FacetCount[];
  selected: string[];
};

const SHOWN = 8;

/** Values selected in the URL but absent from the counts still show (count 0) so they can be unticked. */
function withSelected(options: FacetCount[], selected: string[]): FacetCount[] {
  const missing = selected
    .filter((v) => !options.some((o) => o.value === v))
    .map((v) => ({ value: v, label: v, count: 0 }));
  return [...options, ...missing];
}

function LinkSection({ related }: { related: RelatedLinks }) {
  const [all, setAll] = useState(false);
  const items = all ? related.items : related.items.slice(0, SHOWN);
  return (
    <section className="border-b border-slate-200 pb-5">
      <h2 className="text-sm font-semibold uppercase tracking-wide text-slate-800">{related.title}</h2>
      <ul className="mt-3 space-y-1">
        {items.map((item) => (
          <li key={item.to}>
            <Link
              to={item.to}
              className="flex items-baseline justify-between gap-3 rounded px-2 py-1.5 text-sm text-slate-700 hover:bg-brand-50 hover:text-brand-800"
            >
              <span>{item.label}</span>
              <span className="shrink-0 text-xs text-slate-600">{item.count}</span>
            </Link>
          </li>
        ))}
      </ul>
      {related.items.length > SHOWN && (
        <button
          type="button"
          onClick={() => setAll((a) => !a)}
          className="mt-2 px-2 text-sm font-medium text-brand-700 hover:underline"
        >
          {all ? 'Ver menos' : `Ver todas (${related.items.length})`}
        </button>
      )}
    </section>
  );
}

function CheckboxSection({
  group,
  onToggle,
  linkFor,
}: {
  group: FacetGroup;
  onToggle: (key: FacetKey, value: string) => void;
  linkFor?: (value: string) => string;
}) {
  const id = useId();
  const [all, setAll] = useState(false);
  // The tick shows at once; the URL (the source of truth) catches up a moment later and replaces it.
  const [optimistic, setOptimistic] = useState<Record<string, boolean>>({});
  const selectedKey = group.selected.join('\u0000');
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset whenever the URL's selection changes
  useEffect(() => {
    setOptimistic({});
  }, [selectedKey]);
  const options = withSelected(group.options, group.selected);
  if (options.length === 0) return null;
  const shown = all ? options : options.slice(0, SHOWN);
  return (
    <fieldset className="border-b border-slate-200 pb-5">
      <legend className="text-sm font-semibold uppercase tracking-wide text-slate-800">{group.title}</legend>
      <ul className="mt-3 space-y-0.5">
        {shown.map((o, i) => {
          const inputId = `${id}-${i}`;
          const checked = optimistic[o.value] ?? group.selected.includes(o.value);
          return (
            <li key={o.value} className="flex items-center gap-1 rounded hover:bg-slate-50">
              <input
                id={inputId}
                type="checkbox"
                checked={checked}
                onChange={() => {
                  setOptimistic((m) => ({ ...m, [o.value]: !checked }));
                  onToggle(group.key, o.value);
                }}
                className="ml-2 size-4 shrink-0 rounded border-slate-400 accent-brand-700"
              />
              <label
                htmlFor={inputId}
                className="flex min-w-0 flex-1 cursor-pointer items-baseline justify-between gap-3 py-1.5 pl-2 pr-1 text-sm text-slate-700"
              >
                <span className={checked ? 'font-semibold text-slate-900' : ''}>{o.label}</span>
                <span className="shrink-0 text-xs text-slate-600">{o.count}</span>
              </label>
              {linkFor && (
                <Link
                  to={linkFor(o.value)}
                  className="shrink-0 rounded p-1.5 text-slate-500 hover:bg-brand-50 hover:text-brand-700"
                  aria-label={`Ver todos los productos de ${o.label}`}
                  title={`Ver todos los productos de ${o.label}`}
                >
                  <svg viewBox="0 0 20 20" className="size-4" fill="currentColor" aria-hidden="true">
                    <path d="M7.3 4.3a1 1 0 0 1 1.4 0l5 5a1 1 0 0 1 0 1.4l-5 5a1 1 0 1 1-1.4-1.4L11.6 10 7.3 5.7a1 1 0 0 1 0-1.4z" />
                  </svg>
                </Link>
              )}
            </li>
          );
        })}
      </ul>
      {options.length > SHOWN && (
        <button
          type="button"
          onClick={() => setAll((a) => !a)}
          className="mt-2 px-2 text-sm font-medium text-brand-700 hover:underline"
        >
          {all ? 'Ver menos' : `Ver todos (${options.length})`}
        </button>
      )}
    </fieldset>
  );
}

/**
 * The filters of a list: related pages as links (brand → its categories, group → its brands, search →
 * both) and the brand/line/type checkboxes with counts (OR within one facet, AND across facets).
 */
export function FacetPanel({
  related,
  groups,
  onToggle,
  brandLink,
}: {
  related: RelatedLinks[];
  groups: FacetGroup[];
  onToggle: (key: FacetKey, value: string) => void;
  /** When set, each brand option also links to that brand's page. */
  brandLink?: (brand: string) => string;
}) {
  return (
    <div className="space-y-5">
      {related
        .filter((r) => r.items.length > 0)
        .map((r) => (
          <LinkSection key={r.title} related={r} />
        ))}
      {groups.map((g) => (
        <CheckboxSection
          key={g.key}
          group={g}
          onToggle={onToggle}
          linkFor={g.key === 'brand' ? brandLink : undefined}
        />
      ))}
    </div>
  );
}
