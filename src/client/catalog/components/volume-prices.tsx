import { formatMoney } from '@/shared/money.ts';
import type { ProductDetail } from '@/shared/schemas/catalog.ts';
import { priceTable } from '@/shared/volume-prices.ts';

/** 'Precios por volumen': the unit price per quantity range of this presentation (decision 021). */
export function VolumePrices({ product: p }: { product: ProductDetail }) {
  if (p.priceBreaks.length === 0) return null;
  const rows = priceTable(p.priceCents, p.priceBreaks);
  return (
    <div className="mt-6" data-testid="volume-prices">
      <h2 className="text-sm font-semibold text-slate-900">Precios por volumen</h2>
      <table className="mt-2 w-full max-w-sm border-collapse text-sm">
        <thead>
          <tr className="bg-slate-50 text-left">
            <th scope="col" className="border border-slate-200 px-3 py-1.5 font-medium text-slate-700">
              Piezas
            </th>
            <th scope="col" className="border border-slate-200 px-3 py-1.5 font-medium text-slate-700">
              Precio unitario
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.range}>
              <td className="border border-slate-200 px-3 py-1.5 text-slate-800">{r.range}</td>
              <td className="border border-slate-200 px-3 py-1.5 font-medium text-slate-900">
                {formatMoney(r.priceCents)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-1 text-xs text-slate-600">Precios con IVA incluido; se aplican en el carrito.</p>
    </div>
  );
}
