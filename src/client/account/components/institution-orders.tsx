import { Spinner } from '@/client/ui/spinner.tsx';
import { formatMoney } from '@/shared/money.ts';
import { useInstitutionOrders } from '../api/institutions.ts';

const day = (iso: string) =>
  new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium', timeZone: 'America/Mexico_City' }).format(
    new Date(iso),
  );

/** «Pedidos de la institución»: every member's orders for it ('orders.read_all'), newest first. */
export function InstitutionOrders({ institutionId }: { institutionId: number }) {
  const orders = useInstitutionOrders(institutionId, true);
  if (orders.isPending) return <Spinner />;
  if (orders.error) return <p className="text-sm text-red-700">{orders.error.message}</p>;
  if (orders.data.length === 0)
    return <p className="text-sm text-slate-600">Aún no hay pedidos a nombre de la institución.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-left text-sm">
        <thead className="text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th className="py-2 pr-4 font-semibold">Pedido</th>
            <th className="py-2 pr-4 font-semibold">Fecha</th>
            <th className="py-2 pr-4 font-semibold">Comprador</th>
            <th className="py-2 pr-4 font-semibold">Orden de compra</th>
            <th className="py-2 pr-4 font-semibold">Estado</th>
            <th className="py-2 text-right font-semibold">Total</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {orders.data.map((o) => (
            <tr key={o.number}>
              <td className="whitespace-nowrap py-2 pr-4 font-medium text-slate-900">{o.number}</td>
              <td className="whitespace-nowrap py-2 pr-4 text-slate-700">{day(o.date)}</td>
              <td className="whitespace-nowrap py-2 pr-4 text-slate-700">{o.buyer}</td>
              <td className="whitespace-nowrap py-2 pr-4 text-slate-700">{o.purchaseOrder ?? '—'}</td>
              <td className="whitespace-nowrap py-2 pr-4 text-slate-700">{o.status}</td>
              <td className="whitespace-nowrap py-2 text-right text-slate-900">
                {formatMoney(o.totalCents)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
