import { Link, useParams } from 'react-router';
import { ApiError } from '@/client/lib/api-client.ts';
import { RequireSignedIn } from '@/client/lib/auth/require-signed-in.tsx';
import { Alert } from '@/client/ui/alert.tsx';
import { shopTitle, useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { formatMoney } from '@/shared/money.ts';
import type { RequisitionDetail } from '@/shared/schemas/requisitions.ts';
import { useRequisition } from '../api/requisitions.ts';
import { RequisitionActions } from '../components/requisition-actions.tsx';
import { RequisitionLines } from '../components/requisition-lines.tsx';
import { formatDay, formatMoment, StateBadge } from '../components/state-badge.tsx';

function Facts({ r }: { r: RequisitionDetail }) {
  const rows: [string, string][] = [
    ['Solicitante', r.requesterName],
    ['Enviada', formatMoment(r.createdAt)],
    [r.institution.costCentreLabel, r.costCentre || '—'],
    [r.institution.projectLabel, r.project || '—'],
    ['Cotización', `${r.quotationFolio} · precios vigentes hasta el ${formatDay(r.validUntil)}`],
    ...(r.orderNumber ? ([['Pedido', `#${r.orderNumber}`]] as [string, string][]) : []),
  ];
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4">
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt className="text-xs uppercase tracking-wide text-slate-500">{label}</dt>
            <dd className="text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      {r.note && (
        <div className="mt-3 border-t border-slate-100 pt-3 text-sm">
          <p className="text-xs uppercase tracking-wide text-slate-500">Nota del solicitante</p>
          <p className="whitespace-pre-line text-slate-900">{r.note}</p>
        </div>
      )}
    </section>
  );
}

function Trail({ r }: { r: RequisitionDetail }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 className="mb-3 font-semibold text-slate-900">Historial</h2>
      <ol className="space-y-3 border-l-2 border-slate-200 pl-4 text-sm">
        {r.trail.map((e, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the trail only grows, in order
          <li key={i} className="relative">
            <span className="absolute -left-[1.4rem] top-1.5 size-2.5 rounded-full bg-brand-600" />
            <p className="font-medium text-slate-900">
              {e.label}
              {e.orderNumber ? ` · pedido #${e.orderNumber}` : ''}
            </p>
            <p className="text-slate-600">
              {e.actor} · {formatMoment(e.at)}
            </p>
            {e.reason && <p className="mt-0.5 text-slate-700">«{e.reason}»</p>}
          </li>
        ))}
      </ol>
    </section>
  );
}

function Requisition({ id }: { id: number }) {
  const q = useRequisition(id);
  useDocumentTitle(q.data ? shopTitle(`Requisición ${q.data.folio}`) : undefined);
  if (q.isPending) return <Spinner />;
  if (q.isError)
    return (
      <Alert tone="danger">
        {q.error instanceof ApiError && q.error.status !== 0 ? q.error.message : 'Error de conexión'}
      </Alert>
    );
  const r = q.data;
  return (
    <>
      <div className="mb-6 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Requisición {r.folio}</h1>
        <StateBadge state={r.state} label={r.stateLabel} />
        <span className="ml-auto text-2xl font-bold text-slate-900">{formatMoney(r.totalCents)}</span>
      </div>
      <p className="-mt-4 mb-6 text-slate-600">
        {r.institution.razonSocial} · RFC {r.institution.rfc}
      </p>
      {r.reason && (r.state === 'rechazada' || r.state === 'devuelta') && (
        <div className="mb-4">
          <Alert tone="warning">
            {r.state === 'rechazada' ? 'Motivo del rechazo' : 'Qué cambiar'}: {r.reason}
          </Alert>
        </div>
      )}
      {/* On a phone the actions come right after the facts, before a long list of lines. */}
      <div className="grid gap-6 lg:grid-cols-3 lg:grid-rows-[auto_1fr]">
        <div className="lg:col-span-2">
          <Facts r={r} />
        </div>
        <div className="space-y-6 lg:row-span-2">
          <RequisitionActions r={r} />
          <Trail r={r} />
        </div>
        <div className="lg:col-span-2">
          <RequisitionLines r={r} />
        </div>
      </div>
    </>
  );
}

export function Component() {
  const { id } = useParams();
  const n = Number(id);
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <Link
        to="/requisiciones"
        className="mb-4 inline-block text-sm font-medium text-brand-700 hover:underline"
      >
        ← Requisiciones
      </Link>
      <RequireSignedIn>
        {Number.isInteger(n) && n > 0 ? (
          <Requisition id={n} />
        ) : (
          <Alert tone="danger">Requisición no encontrada</Alert>
        )}
      </RequireSignedIn>
    </div>
  );
}
