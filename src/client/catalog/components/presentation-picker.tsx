import { Link } from 'react-router';
import type { LeadTime } from '@/shared/backorder.ts';
import { formatMoney, groupThousands } from '@/shared/money.ts';
import type { ProductDetail } from '@/shared/schemas/catalog.ts';

/** Short, so the choice reads apart from the page's own stock line: 'En existencia: 40' or 'Agotado'. */
const availability = (stock: number, lead: LeadTime | null) =>
  lead
    ? stock < 1
      ? `Sobre pedido (${lead.minDays === lead.maxDays ? lead.minDays : `${lead.minDays}–${lead.maxDays}`} días hábiles)`
      : `En existencia: ${groupThousands(stock)} · más sobre pedido`
    : stock < 1
      ? 'Agotado'
      : `En existencia: ${groupThousands(stock)}`;

/**
 * The family's presentations (decision 021): one choice per presentation with its price and availability; each
 * is its own address (/productos/{code}), so choosing one shows its code, price, stock and volume prices.
 */
export function PresentationPicker({ product: p }: { product: ProductDetail }) {
  if (p.presentations.length < 2) {
    return p.presentationLabel ? (
      <p className="mt-4 text-sm text-slate-700">
        Presentación: <span className="font-medium text-slate-900">{p.presentationLabel}</span>
      </p>
    ) : null;
  }
  return (
    <fieldset className="mt-6" data-testid="presentations">
      <legend className="text-sm font-semibold text-slate-900">Presentación</legend>
      <ul className="mt-2 grid gap-2 sm:grid-cols-2">
        {p.presentations.map((o) => {
          const chosen = o.code === p.code;
          return (
            <li key={o.code}>
              <Link
                to={`/productos/${encodeURIComponent(o.code)}`}
                replace
                preventScrollReset
                aria-current={chosen ? 'true' : undefined}
                data-testid="presentation-option"
                className={`flex h-full flex-col rounded-md border px-3 py-2 text-sm transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
                  chosen
                    ? 'border-brand-600 bg-brand-50 ring-1 ring-brand-600'
                    : 'border-slate-300 bg-white hover:border-brand-400'
                }`}
              >
                <span className="font-semibold text-slate-900">{o.label ?? o.code}</span>
                <span className="text-slate-800">{formatMoney(o.priceCents)}</span>
                <span className={o.stock < 1 ? 'text-amber-800' : 'text-green-800'}>
                  {availability(o.stock, o.leadTime)}
                </span>
                <span className="font-mono text-xs text-slate-600">{o.code}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
