import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '@/client/lib/api-client.ts';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { formatMoney, parsePriceToCents } from '@/shared/money.ts';
import type { AdminQuotationDetail } from '@/shared/schemas/quotations.ts';
import {
  adminQuotationPdfUrl,
  useAdminQuotation,
  useAdminQuotations,
  useExtendQuotation,
  useReviseQuotation,
} from '../api/quotations.ts';
import {
  Badge,
  buttonClass,
  DataTable,
  FieldMessage,
  fieldClass,
  formatDateTime,
  Panel,
  ScreenTitle,
  serverFields,
  td,
  th,
} from '../components/admin-ui.tsx';

const dateOnly = (iso: string) =>
  new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium', timeZone: 'America/Mexico_City' }).format(
    new Date(iso),
  );

const TONE = { vigente: 'issued', vencida: 'paid', convertida: 'delivered', cancelada: 'cancelled' } as const;
const REASONS: Record<string, string> = {
  created: 'Solicitada por el cliente',
  adjusted: 'Precios o nota ajustados',
  extended: 'Vigencia extendida',
  renewed: 'Renovada a precios del día',
};

/** Back office: quotations issued, their state and the conversion rate (issue 20). */
export function QuotationsScreen() {
  useDocumentTitle('Cotizaciones — Administración');
  const { data, isPending, error } = useAdminQuotations();
  return (
    <>
      <ScreenTitle
        title="Cotizaciones"
        subtitle="Cotizaciones solicitadas desde el carrito. Ajuste precios o la vigencia y se reenvían al cliente."
      />
      {error ? <Alert tone="danger">{error.message}</Alert> : null}
      {isPending ? (
        <Spinner />
      ) : data ? (
        <>
          <dl className="mb-5 grid gap-3 sm:grid-cols-3">
            {[
              ['Emitidas', String(data.stats.issued)],
              ['Convertidas en pedido', String(data.stats.converted)],
              ['Tasa de conversión', `${data.stats.ratePercent.toFixed(1)} %`],
            ].map(([label, value]) => (
              <div key={label} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
                <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</dt>
                <dd className="mt-1 text-2xl font-semibold text-slate-900" data-testid={`stat-${label}`}>
                  {value}
                </dd>
              </div>
            ))}
          </dl>
          <DataTable
            empty={data.items.length === 0 ? 'Aún no hay cotizaciones.' : null}
            head={
              <tr>
                <th className={th}>Folio</th>
                <th className={th}>Cliente</th>
                <th className={th}>Emitida</th>
                <th className={th}>Vigente hasta</th>
                <th className={`${th} text-right`}>Total</th>
                <th className={th}>Estado</th>
              </tr>
            }
          >
            {data.items.map((q) => (
              <tr key={q.folio} className="hover:bg-slate-50">
                <td className={td}>
                  <Link
                    to={`/admin/cotizaciones/${q.folio}`}
                    className="font-semibold text-brand-700 hover:underline"
                  >
                    {q.folio}
                  </Link>
                  {q.revision > 1 ? (
                    <span className="ml-1 text-xs text-slate-500">rev. {q.revision}</span>
                  ) : null}
                </td>
                <td className={td}>
                  <span className="block font-medium text-slate-900">{q.customerName}</span>
                  <span className="block max-w-56 truncate text-xs text-slate-500">
                    {q.institution || q.email}
                  </span>
                </td>
                <td className={td}>{dateOnly(q.createdAt)}</td>
                <td className={td}>{dateOnly(q.validUntil)}</td>
                <td className={`${td} text-right tabular-nums`}>{formatMoney(q.totalCents)}</td>
                <td className={td}>
                  <Badge tone={TONE[q.state]}>{q.stateLabel}</Badge>
                  {q.orderNumber ? (
                    <Link to={`/admin/pedidos/${q.orderNumber}`} className="ml-2 text-xs text-brand-700">
                      #{q.orderNumber}
                    </Link>
                  ) : null}
                </td>
              </tr>
            ))}
          </DataTable>
        </>
      ) : null}
    </>
  );
}

function ReviseForm({ q }: { q: AdminQuotationDetail }) {
  const revise = useReviseQuotation(q.folio);
  const [prices, setPrices] = useState<Record<string, string>>({});
  const [discount, setDiscount] = useState(String(q.discountPercent));
  const [note, setNote] = useState(q.note);
  const [problem, setProblem] = useState<string | null>(null);
  const fields = serverFields(revise.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const changed: { code: string; unitPriceCents: number }[] = [];
    for (const [code, text] of Object.entries(prices)) {
      if (!text.trim()) continue;
      const cents = parsePriceToCents(text);
      if (cents === null || cents <= 0) {
        setProblem(`El precio de ${code} no es válido`);
        return;
      }
      changed.push({ code, unitPriceCents: cents });
    }
    const pct = Number(discount.replace(',', '.'));
    if (!Number.isFinite(pct)) {
      setProblem('El descuento debe ser un número');
      return;
    }
    revise.mutate({ prices: changed, discountPercent: pct, note });
  };
  return (
    <form onSubmit={submit} className="grid gap-4" aria-label="Ajustar cotización">
      <div className="overflow-x-auto">
        <table className="min-w-full text-sm">
          <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th className="py-2 pr-3">Producto</th>
              <th className="py-2 pr-3 text-right">Cant.</th>
              <th className="py-2 pr-3 text-right">Lista</th>
              <th className="py-2 pr-3 text-right">Cotizado</th>
              <th className="py-2">Nuevo precio unitario (antes de descuento)</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {q.lines.map((l) => (
              <tr key={l.code}>
                <td className="py-2 pr-3">
                  <span className="block text-slate-900">{l.description}</span>
                  <span className="text-xs text-slate-500">{l.code}</span>
                </td>
                <td className="py-2 pr-3 text-right">{l.quantity}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{formatMoney(l.listPriceCents)}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{formatMoney(l.unitPriceCents)}</td>
                <td className="py-2">
                  <input
                    className={`${fieldClass} w-36`}
                    inputMode="decimal"
                    aria-label={`Nuevo precio de ${l.code}`}
                    placeholder="Sin cambio"
                    value={prices[l.code] ?? ''}
                    onChange={(e) => setPrices((p) => ({ ...p, [l.code]: e.target.value }))}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="grid gap-4 sm:grid-cols-[160px_1fr]">
        <label className="text-sm font-medium text-slate-700">
          Descuento (%)
          <input
            className={`${fieldClass} mt-1`}
            inputMode="decimal"
            value={discount}
            onChange={(e) => setDiscount(e.target.value)}
          />
          <FieldMessage message={fields.discountPercent} />
        </label>
        <label className="text-sm font-medium text-slate-700">
          Nota para el cliente
          <textarea
            className={`${fieldClass} mt-1`}
            rows={2}
            maxLength={1000}
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
          <FieldMessage message={fields.note} />
        </label>
      </div>
      {problem ? <Alert tone="danger">{problem}</Alert> : null}
      {revise.error && !problem ? (
        <Alert tone="danger">
          {revise.error instanceof ApiError ? revise.error.message : 'Error de conexión'}
        </Alert>
      ) : null}
      <div>
        <button type="submit" className={buttonClass.primary} disabled={revise.isPending}>
          {revise.isPending ? 'Guardando...' : 'Guardar y reenviar al cliente'}
        </button>
      </div>
    </form>
  );
}

function ExtendForm({ folio }: { folio: string }) {
  const extend = useExtendQuotation(folio);
  const [days, setDays] = useState('15');
  return (
    <form
      className="flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        extend.mutate({ days: Number(days) });
      }}
    >
      <label className="text-sm font-medium text-slate-700">
        Días adicionales
        <input
          className={`${fieldClass} mt-1 w-28`}
          inputMode="numeric"
          value={days}
          onChange={(e) => setDays(e.target.value.replace(/\D/g, ''))}
        />
      </label>
      <button type="submit" className={buttonClass.secondary} disabled={extend.isPending}>
        Extender vigencia
      </button>
      {extend.error ? <FieldMessage message={extend.error.message} /> : null}
    </form>
  );
}

export function QuotationDetailScreen() {
  const { folio = '' } = useParams();
  useDocumentTitle(`Cotización ${folio} — Administración`);
  const { data: q, isPending, error } = useAdminQuotation(folio);
  if (isPending) return <Spinner />;
  if (error || !q) return <Alert tone="danger">{error?.message ?? 'Cotización no encontrada'}</Alert>;
  const open = q.state === 'vigente' || q.state === 'vencida';
  return (
    <>
      <ScreenTitle
        title={`Cotización ${q.folio}`}
        subtitle={`${q.buyerName}${q.institution ? ` · ${q.institution}` : ''} · ${q.email}`}
        actions={
          <a href={adminQuotationPdfUrl(q.folio)} className={buttonClass.secondary}>
            Descargar PDF
          </a>
        }
      />
      <div className="grid gap-5">
        <Panel title="Resumen">
          <dl className="grid gap-3 text-sm sm:grid-cols-4">
            <div>
              <dt className="text-xs uppercase text-slate-500">Estado</dt>
              <dd>
                <Badge tone={TONE[q.state]}>{q.stateLabel}</Badge>
                {q.orderNumber ? (
                  <Link to={`/admin/pedidos/${q.orderNumber}`} className="ml-2 text-brand-700">
                    Pedido #{q.orderNumber}
                  </Link>
                ) : null}
              </dd>
            </div>
            <div>
              <dt className="text-xs uppercase text-slate-500">Vigente hasta</dt>
              <dd>{formatDateTime(q.validUntil)}</dd>
            </div>
            <div>
              <dt className="text-xs uppercase text-slate-500">Total (IVA incluido)</dt>
              <dd className="font-semibold">{formatMoney(q.totalCents)}</dd>
            </div>
            <div>
              <dt className="text-xs uppercase text-slate-500">Orden de compra / RFC</dt>
              <dd>
                {q.purchaseOrder ?? '—'} · {q.rfc || '—'}
              </dd>
            </div>
          </dl>
        </Panel>
        {open ? (
          <>
            <Panel title={`Ajustar precios, descuento y nota (revisión ${q.revision + 1})`}>
              <ReviseForm key={q.revision} q={q} />
            </Panel>
            <Panel title="Vigencia">
              <ExtendForm folio={q.folio} />
            </Panel>
          </>
        ) : null}
        <Panel title="Revisiones">
          <ul className="divide-y divide-slate-100 text-sm">
            {q.revisions.map((r) => (
              <li key={r.revision} className="flex flex-wrap justify-between gap-2 py-2">
                <span>
                  <span className="font-medium text-slate-900">Revisión {r.revision}</span> ·{' '}
                  {REASONS[r.reason] ?? r.reason} · {r.by}
                </span>
                <span className="text-slate-600">
                  {formatDateTime(r.createdAt)} · {formatMoney(r.totalCents)} · vigente hasta{' '}
                  {formatDateTime(r.validUntil)}
                </span>
              </li>
            ))}
          </ul>
        </Panel>
      </div>
    </>
  );
}
