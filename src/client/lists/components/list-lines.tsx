import { Link } from 'react-router';
import { formatMoney } from '@/shared/money.ts';
import type { ListLine } from '@/shared/schemas/lists.ts';

/**
 * A list's lines as a table on wide screens and as cards on a phone: product (link), code, today's unit price,
 * quantity and what stands in the way of buying it as saved. `quantity` and `actions` are the owner's controls;
 * the shared view shows the quantity as text.
 */
export function ListLines({
  lines,
  quantity,
  actions,
}: {
  lines: readonly ListLine[];
  quantity?: (line: ListLine) => React.ReactNode;
  actions?: (line: ListLine) => React.ReactNode;
}) {
  return (
    <ul className="divide-y divide-slate-200 rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
      {lines.map((line) => (
        <li
          key={line.code}
          data-testid="list-line"
          className="grid grid-cols-[3.5rem_1fr] gap-x-3 gap-y-2 p-3 sm:grid-cols-[3.5rem_minmax(0,1fr)_auto_auto_auto] sm:items-center sm:gap-x-6 sm:p-4"
        >
          <div className="row-span-2 flex size-14 items-center justify-center overflow-hidden rounded-md bg-slate-50 ring-1 ring-slate-200 sm:row-span-1">
            {line.product?.imageUrl ? (
              <img
                src={line.product.imageUrl}
                alt=""
                width={56}
                height={56}
                className="size-14 object-contain"
              />
            ) : (
              <span aria-hidden="true" className="text-xs text-slate-400">
                —
              </span>
            )}
          </div>
          <div className="min-w-0">
            {line.product ? (
              <Link
                to={`/productos/${encodeURIComponent(line.code)}`}
                className="font-medium text-slate-900 hover:text-brand-700 hover:underline"
              >
                {line.product.name}
              </Link>
            ) : (
              <span className="font-medium text-slate-500">Producto {line.code}</span>
            )}
            <p className="text-xs text-slate-500">Código {line.code}</p>
            {line.note && (
              <p
                className={`mt-1 text-sm ${line.product ? 'text-amber-800' : 'text-red-700'}`}
                data-testid="list-line-note"
              >
                {line.note}
              </p>
            )}
          </div>
          <div className="col-start-2 whitespace-nowrap text-sm text-slate-700 sm:col-start-auto sm:text-right">
            {line.product ? (
              <>
                <span className="font-semibold text-slate-900">{formatMoney(line.product.priceCents)}</span>
                <span className="text-slate-500"> c/u</span>
              </>
            ) : (
              <span className="text-slate-500">No disponible</span>
            )}
          </div>
          <div className="col-start-2 flex flex-wrap items-center gap-3 sm:col-start-auto sm:justify-end">
            {quantity ? (
              quantity(line)
            ) : (
              <span className="text-sm text-slate-700">
                Cantidad: <span className="font-semibold text-slate-900">{line.quantity}</span>
              </span>
            )}
          </div>
          {actions && <div className="col-start-2 sm:col-start-auto sm:text-right">{actions(line)}</div>}
        </li>
      ))}
    </ul>
  );
}
