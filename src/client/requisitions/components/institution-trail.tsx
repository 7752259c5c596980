import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { apiFetch } from '@/client/lib/api-client.ts';
import { Spinner } from '@/client/ui/spinner.tsx';
import { formatMoney } from '@/shared/money.ts';
import type { RequisitionTrail } from '@/shared/schemas/requisitions.ts';
import { formatMoment } from './state-badge.tsx';

/** The administrador's trail of every requisition of the institution, newest first. */
export function InstitutionTrail() {
  const trail = useQuery({
    queryKey: ['requisitions', 'trail'],
    queryFn: () => apiFetch<RequisitionTrail>('/api/requisitions/trail', { timeoutMs: 8000 }),
  });
  if (trail.isPending) return <Spinner />;
  if (trail.isError) return null;
  return (
    <section className="mt-10">
      <h2 className="mb-3 text-lg font-semibold text-slate-900">Bitácora de la institución</h2>
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <table className="w-full text-sm">
          <thead>
            <tr className="text-left text-xs uppercase tracking-wide text-slate-500">
              <th className="px-3 py-2 font-medium">Cuándo</th>
              <th className="px-3 py-2 font-medium">Requisición</th>
              <th className="px-3 py-2 font-medium">Qué</th>
              <th className="px-3 py-2 font-medium">Quién</th>
              <th className="px-3 py-2 font-medium">Motivo</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {trail.data.events.map((e) => (
              <tr key={`${e.requisitionId}-${e.at}-${e.event}`}>
                <td className="whitespace-nowrap px-3 py-2 text-slate-600">{formatMoment(e.at)}</td>
                <td className="whitespace-nowrap px-3 py-2">
                  <Link
                    className="font-medium text-brand-800 hover:underline"
                    to={`/requisiciones/${e.requisitionId}`}
                  >
                    {e.folio}
                  </Link>
                  <span className="block text-xs text-slate-500">{formatMoney(e.totalCents)}</span>
                </td>
                <td className="px-3 py-2">
                  {e.label}
                  {e.orderNumber ? ` · pedido #${e.orderNumber}` : ''}
                </td>
                <td className="px-3 py-2">{e.actor}</td>
                <td className="px-3 py-2 text-slate-600">{e.reason ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
