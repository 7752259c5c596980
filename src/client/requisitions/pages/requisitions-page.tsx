import { Link } from 'react-router';
import { ApiError } from '@/client/lib/api-client.ts';
import { RequireSignedIn } from '@/client/lib/auth/require-signed-in.tsx';
import { Alert } from '@/client/ui/alert.tsx';
import { shopTitle, useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { formatMoney } from '@/shared/money.ts';
import { useRequisitions } from '../api/requisitions.ts';
import { InstitutionTrail } from '../components/institution-trail.tsx';
import { formatDay, StateBadge } from '../components/state-badge.tsx';

/** «Requisiciones» (issue 34): the solicitante's own, or the institution's for those who approve and buy. */
function RequisitionList() {
  const list = useRequisitions();
  if (list.isPending) return <Spinner />;
  if (list.isError)
    return (
      <Alert tone={list.error instanceof ApiError && list.error.status === 403 ? 'warning' : 'danger'}>
        {list.error instanceof ApiError && list.error.status !== 0 ? list.error.message : 'Error de conexión'}
      </Alert>
    );
  const { institution, requisitions } = list.data;
  return (
    <>
      <p className="-mt-4 mb-6 text-slate-600">{institution.razonSocial}</p>
      {requisitions.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 px-6 py-10 text-center text-slate-600">
          Aún no hay requisiciones. Desde el carrito, elija «Enviar a aprobación».
        </div>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {requisitions.map((r) => (
            <li key={r.id}>
              <Link
                to={`/requisiciones/${r.id}`}
                className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 hover:bg-slate-50"
              >
                <span className="font-semibold text-brand-800">{r.folio}</span>
                <StateBadge state={r.state} label={r.stateLabel} />
                <span className="text-sm text-slate-600">
                  {r.requesterName} · {formatDay(r.createdAt)}
                </span>
                <span className="text-sm text-slate-500">
                  {[r.costCentre, r.project].filter(Boolean).join(' · ')}
                </span>
                <span className="ml-auto text-right">
                  <span className="block font-semibold text-slate-900">{formatMoney(r.totalCents)}</span>
                  <span className="block text-xs text-slate-500">
                    {r.lineCount} {r.lineCount === 1 ? 'producto' : 'productos'}
                    {r.orderNumber ? ` · pedido #${r.orderNumber}` : ''}
                  </span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {list.data.canReadTrail && <InstitutionTrail />}
    </>
  );
}

export function Component() {
  useDocumentTitle(shopTitle('Requisiciones'));
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="mb-6 text-2xl font-semibold text-slate-900 sm:text-3xl">Requisiciones</h1>
      <RequireSignedIn>
        <RequisitionList />
      </RequireSignedIn>
    </div>
  );
}
