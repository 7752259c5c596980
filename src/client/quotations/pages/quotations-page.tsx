import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { ApiError } from '@/client/lib/api-client.ts';
import { RequireSignedIn } from '@/client/lib/auth/require-signed-in.tsx';
import { useSingleFlight } from '@/client/lib/use-single-flight.ts';
import { Alert } from '@/client/ui/alert.tsx';
import { shopTitle, useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { formatMoney } from '@/shared/money.ts';
import type { QuotationState, QuotationSummary, RenewalPreview } from '@/shared/schemas/quotations.ts';
import {
  prepareConversion,
  quotationPdfUrl,
  renewalPreview,
  useCancelQuotation,
  useQuotation,
  useQuotations,
  useRenewQuotation,
} from '../api/quotations.ts';

const badge: Record<QuotationState, string> = {
  vigente: 'bg-green-100 text-green-800',
  vencida: 'bg-amber-100 text-amber-900',
  convertida: 'bg-brand-100 text-brand-800',
  cancelada: 'bg-slate-200 text-slate-700',
};

const button =
  'inline-flex items-center justify-center rounded-md border px-3 py-1.5 text-sm font-medium transition disabled:cursor-wait disabled:opacity-70';
const primary = `${button} border-brand-700 bg-brand-700 text-white hover:bg-brand-800`;
const secondary = `${button} border-slate-300 bg-white text-slate-700 hover:bg-slate-50`;

export const formatDay = (iso: string) =>
  new Intl.DateTimeFormat('es-MX', { dateStyle: 'long', timeZone: 'America/Mexico_City' }).format(
    new Date(iso),
  );

const errorText = (error: unknown) =>
  error instanceof ApiError && error.status !== 0 ? error.message : 'Error de conexión. Intente de nuevo.';

function Lines({ folio }: { folio: string }) {
  const detail = useQuotation(folio);
  if (detail.isPending) return <Spinner />;
  if (detail.isError) return <Alert tone="danger">{errorText(detail.error)}</Alert>;
  const q = detail.data;
  return (
    <div className="mt-4 overflow-x-auto border-t border-slate-100 pt-4">
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
          {q.lines.map((l) => (
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
      <dl className="ml-auto mt-3 max-w-xs space-y-1 text-sm">
        {(q.discountCents !== 0 || q.agreedDiscountCents !== 0) && (
          <>
            <div className="flex justify-between">
              <dt className="text-slate-600">A precio de lista</dt>
              <dd>{formatMoney(q.listAmountCents)}</dd>
            </div>
            {(
              [
                ['Descuento por volumen', q.volumeDiscountCents],
                ['Precios acordados', q.agreedDiscountCents],
                [`Descuento (${q.discountPercent} %)`, q.percentDiscountCents],
              ] as const
            )
              .filter(([, cents]) => cents !== 0)
              .map(([label, cents]) => (
                <div key={label} className="flex justify-between text-green-700">
                  <dt>{label}</dt>
                  <dd>
                    {cents > 0 ? '-' : '+'}
                    {formatMoney(Math.abs(cents))}
                  </dd>
                </div>
              ))}
          </>
        )}
        <div className="flex justify-between">
          <dt className="text-slate-600">Productos</dt>
          <dd>{formatMoney(q.subtotalCents)}</dd>
        </div>
        <div className="flex justify-between">
          <dt className="text-slate-600">Envío</dt>
          <dd>{formatMoney(q.shippingCents)}</dd>
        </div>
        <div className="flex justify-between border-t border-slate-200 pt-1 font-bold">
          <dt>Total</dt>
          <dd>{formatMoney(q.totalCents)}</dd>
        </div>
        <p className="text-right text-xs text-slate-500">Incluye IVA por {formatMoney(q.ivaCents)}</p>
      </dl>
      {q.paymentNote && (
        <p className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900">
          {q.paymentNote}
        </p>
      )}
      {q.note && (
        <p className="mt-3 rounded-md bg-brand-50 px-3 py-2 text-sm text-slate-700">
          <span className="font-medium">Observaciones:</span> {q.note}
        </p>
      )}
    </div>
  );
}

function QuotationCard({ q, highlighted }: { q: QuotationSummary; highlighted: boolean }) {
  const [open, setOpen] = useState(highlighted);
  const [confirming, setConfirming] = useState(false);
  const navigate = useNavigate();
  const flight = useSingleFlight();
  const renew = useRenewQuotation();
  const cancel = useCancelQuotation();

  const convert = () =>
    flight.run(async () => {
      try {
        await prepareConversion(q.folio);
        navigate(`/orden?cotizacion=${encodeURIComponent(q.folio)}`);
      } catch (error) {
        toast.error(errorText(error));
      }
    });
  const act = (mutation: typeof renew, done: string, after?: () => void) => () =>
    flight.run(async () => {
      try {
        await mutation.mutateAsync(q.folio);
        toast.success(done);
        after?.();
      } catch (error) {
        toast.error(errorText(error));
      }
    });
  // 'Renovar' first shows what changes (decision 053), then asks.
  const [renewal, setRenewal] = useState<RenewalPreview | null>(null);
  const askRenewal = () =>
    flight.run(async () => {
      try {
        setRenewal(await renewalPreview(q.folio));
      } catch (error) {
        toast.error(errorText(error));
      }
    });

  return (
    <li
      className={`rounded-xl border bg-white p-4 shadow-sm sm:p-5 ${highlighted ? 'border-brand-300 ring-2 ring-brand-100' : 'border-slate-200'}`}
      data-testid="quotation-card"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="font-semibold text-slate-900">
            Cotización <span data-testid="quotation-folio">{q.folio}</span>
            {q.revision > 1 && (
              <span className="ml-2 text-xs font-normal text-slate-500">revisión {q.revision}</span>
            )}
          </p>
          <p className="text-sm text-slate-600">Emitida el {formatDay(q.createdAt)}</p>
        </div>
        <span
          className={`rounded-full px-2.5 py-1 text-xs font-semibold ${badge[q.state]}`}
          data-testid="quotation-state"
        >
          {q.stateLabel}
        </span>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-xs uppercase tracking-wide text-slate-500">Vigente hasta</dt>
          <dd className="text-slate-900">{formatDay(q.validUntil)}</dd>
        </div>
        <div>
          <dt className="text-xs uppercase tracking-wide text-slate-500">Productos</dt>
          <dd className="text-slate-900">{q.lineCount}</dd>
        </div>
        <div>
          <dt className="text-xs uppercase tracking-wide text-slate-500">Total</dt>
          <dd className="font-semibold text-slate-900" data-testid="quotation-total">
            {formatMoney(q.totalCents)}
          </dd>
        </div>
        <div>
          <dt className="text-xs uppercase tracking-wide text-slate-500">
            {q.orderNumber ? 'Pedido' : 'Orden de compra'}
          </dt>
          <dd className="text-slate-900">
            {q.orderNumber ? (
              <Link to={`/resumen/${q.orderNumber}`} className="text-brand-700 hover:underline">
                #{q.orderNumber}
              </Link>
            ) : (
              (q.purchaseOrder ?? '—')
            )}
          </dd>
        </div>
      </dl>
      {open && <Lines folio={q.folio} />}
      <div className="mt-4 flex flex-wrap gap-2">
        {q.canConvert && (
          <button type="button" className={primary} onClick={convert} disabled={flight.busy}>
            Convertir en pedido
          </button>
        )}
        {q.canRenew && !renewal && (
          <button type="button" className={primary} onClick={askRenewal} disabled={flight.busy}>
            Renovar
          </button>
        )}
        <a href={quotationPdfUrl(q.folio)} download className={secondary}>
          Descargar PDF
        </a>
        <button type="button" className={secondary} onClick={() => setOpen((v) => !v)} aria-expanded={open}>
          {open ? 'Ocultar detalle' : 'Ver detalle'}
        </button>
        {q.canCancel && !confirming && (
          <button
            type="button"
            className={`${button} border-red-300 bg-white text-red-700 hover:bg-red-50`}
            onClick={() => setConfirming(true)}
          >
            Cancelar cotización
          </button>
        )}
      </div>
      {q.canRenew && renewal && (
        <section
          className="mt-3 rounded-md border border-brand-200 bg-brand-50 px-3 py-3 text-sm text-slate-800"
          aria-label={`Renovar la cotización ${q.folio}`}
        >
          <p className="font-medium">Al renovar la cotización {q.folio} a los precios de hoy:</p>
          <ul className="mt-1 list-disc pl-5">
            {renewal.changes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <table className="mt-2 w-full text-xs">
            <thead>
              <tr className="text-left text-slate-500">
                <th className="py-1 pr-2 font-medium">Producto</th>
                <th className="py-1 pr-2 text-right font-medium">Precio cotizado</th>
                <th className="py-1 text-right font-medium">Precio de hoy</th>
              </tr>
            </thead>
            <tbody>
              {renewal.lines.map((l) => (
                <tr key={l.code}>
                  <td className="py-1 pr-2">
                    {l.description} <span className="text-slate-500">({l.code})</span>
                  </td>
                  <td className="py-1 pr-2 text-right">{formatMoney(l.quotedUnitPriceCents)}</td>
                  <td className="py-1 text-right">{formatMoney(l.todayUnitPriceCents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="mt-2">
            Total: {formatMoney(renewal.currentTotalCents)} →{' '}
            <strong>{formatMoney(renewal.renewedTotalCents)}</strong>
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            <button
              type="button"
              className={primary}
              onClick={act(
                renew,
                `Cotización ${q.folio} renovada a los precios de hoy. Se la enviamos por correo.`,
                () => setRenewal(null),
              )}
              disabled={flight.busy}
            >
              Sí, renovar
            </button>
            <button type="button" className={secondary} onClick={() => setRenewal(null)}>
              No
            </button>
          </div>
        </section>
      )}
      {q.canCancel && confirming && (
        <div className="mt-3 flex flex-wrap items-center gap-2 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          <span>¿Cancelar la cotización {q.folio}? Sus precios dejarán de estar apartados.</span>
          <button
            type="button"
            className={`${button} border-red-600 bg-red-600 text-white hover:bg-red-700`}
            onClick={act(cancel, `Cotización ${q.folio} cancelada`)}
            disabled={flight.busy}
          >
            Sí, cancelar
          </button>
          <button type="button" className={secondary} onClick={() => setConfirming(false)}>
            No
          </button>
        </div>
      )}
    </li>
  );
}

function Quotations() {
  const list = useQuotations();
  const [params] = useSearchParams();
  const highlighted = params.get('folio');
  if (list.isPending) return <Spinner />;
  if (list.isError) return <Alert tone="danger">{errorText(list.error)}</Alert>;
  const quotations = list.data.quotations;
  if (quotations.length === 0)
    return (
      <div className="rounded-lg border border-dashed border-slate-300 px-6 py-12 text-center">
        <p className="font-medium text-slate-800">Aún no tiene cotizaciones</p>
        <p className="mt-2 text-sm text-slate-600">
          Agregue productos a su carrito y elija «Solicitar cotización» para recibir un documento formal con
          precios firmes por 30 días.
        </p>
        <Link to="/carrito" className="mt-4 inline-block font-medium text-brand-700 hover:underline">
          Ir al carrito
        </Link>
      </div>
    );
  return (
    <ul className="space-y-4">
      {quotations.map((q) => (
        <QuotationCard key={q.folio} q={q} highlighted={q.folio === highlighted} />
      ))}
    </ul>
  );
}

/** /cotizaciones — 'Mis cotizaciones' (issue 20). */
export function Component() {
  useDocumentTitle(shopTitle('Mis cotizaciones'));
  return (
    <div className="mx-auto max-w-4xl px-4 py-8">
      <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Mis cotizaciones</h1>
      <p className="mb-6 mt-1 text-sm text-slate-600">
        Precios firmes durante la vigencia de cada cotización, en MXN con IVA incluido.
      </p>
      <RequireSignedIn>
        <Quotations />
      </RequireSignedIn>
    </div>
  );
}
