import { formatMoney } from '@/shared/money.ts';
import type { RequisitionDetail } from '@/shared/schemas/requisitions.ts';

/** The requisition's lines at the quoted prices, and its totals (the server's figures). */
export function RequisitionLines({ r }: { r: RequisitionDetail }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 className="mb-2 font-semibold text-slate-900">
        Productos <span className="font-normal text-slate-500">({r.lineCount})</span>
      </h2>
      <div className="overflow-x-auto">
        <table className="w-full text-sm">
          <thead>
            <tr className="text-left text-xs uppercase tracking-wide text-slate-500">
              <th className="py-1.5 pr-3 font-medium">Producto</th>
              <th className="hidden py-1.5 pr-3 text-right font-medium sm:table-cell">Precio</th>
              <th className="hidden py-1.5 pr-3 text-right font-medium sm:table-cell">Cant.</th>
              <th className="py-1.5 text-right font-medium">Importe</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {r.lines.map((l) => (
              <tr key={l.code}>
                <td className="py-2 pr-3">
                  <span className="text-slate-900">{l.description}</span>
                  <span className="block text-xs text-slate-500">
                    {l.code}
                    <span className="sm:hidden">
                      {' '}
                      · {l.quantity} × {formatMoney(l.unitPriceCents)}
                    </span>
                  </span>
                </td>
                <td className="hidden py-2 pr-3 text-right sm:table-cell">{formatMoney(l.unitPriceCents)}</td>
                <td className="hidden py-2 pr-3 text-right sm:table-cell">{l.quantity}</td>
                <td className="py-2 text-right">{formatMoney(l.amountCents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl className="ml-auto mt-3 max-w-xs space-y-1 text-sm">
        <div className="flex justify-between">
          <dt className="text-slate-600">Productos</dt>
          <dd>{formatMoney(r.subtotalCents)}</dd>
        </div>
        <div className="flex justify-between">
          <dt className="text-slate-600">Envío</dt>
          <dd>{formatMoney(r.shippingCents)}</dd>
        </div>
        <div className="flex justify-between border-t border-slate-200 pt-1 font-bold">
          <dt>Total</dt>
          <dd data-testid="requisition-total">{formatMoney(r.totalCents)}</dd>
        </div>
        <p className="text-right text-xs text-slate-500">Incluye IVA por {formatMoney(r.ivaCents)}</p>
      </dl>
    </section>
  );
}
