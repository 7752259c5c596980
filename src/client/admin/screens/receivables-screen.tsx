import { useState } from 'react';
import { toast } from 'sonner';
import { ApiError } from '@/client/lib/api-client.ts';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { AGING_BUCKETS } from '@/shared/credit.ts';
import { formatMoney } from '@/shared/money.ts';
import type { Receivables } from '@/shared/schemas/credit.ts';
import { useReceivables, useRecordPayment } from '../api/credit.ts';
import {
  Badge,
  buttonClass,
  DataTable,
  fieldClass,
  formatDateTime,
  Panel,
  ScreenTitle,
  td,
  th,
} from '../components/admin-ui.tsx';

type Row = Receivables['rows'][number];

/** Pesos typed by a person ('1,234.50') to centavos; null when it is not an amount. */
const toCents = (text: string) => {
  const clean = text.replace(/[$,\s]/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(clean)) return null;
  const [whole, frac = ''] = clean.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
};

/** «Registrar pago»: a transfer of one institution and how much of it goes to each open invoice. */
function PaymentForm({ row }: { row: Row }) {
  const record = useRecordPayment();
  const [receivedOn, setReceivedOn] = useState(new Date().toISOString().slice(0, 10));
  const [reference, setReference] = useState('');
  const [amounts, setAmounts] = useState<Record<number, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const allocations = row.openInvoices
    .map((i) => ({ invoiceId: i.invoiceId, amountCents: toCents(amounts[i.invoiceId] ?? '') ?? 0 }))
    .filter((a) => a.amountCents > 0);
  const total = allocations.reduce((s, a) => s + a.amountCents, 0);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setFailure(null);
    try {
      const answer = await record.mutateAsync({
        institutionId: row.institutionId,
        receivedOn,
        amountCents: total,
        bankReference: reference,
        allocations,
      });
      toast.success(answer.message);
      setAmounts({});
      setReference('');
    } catch (error) {
      setFailure(error instanceof ApiError ? error.message : 'No se pudo registrar el pago');
    }
  };
  return (
    <form onSubmit={submit} className="space-y-3" aria-label={`Registrar pago de ${row.razonSocial}`}>
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="text-sm">
          <span className="mb-1 block font-medium text-slate-800">Fecha en que llegó el pago</span>
          <input
            type="date"
            className={fieldClass}
            value={receivedOn}
            onChange={(e) => setReceivedOn(e.target.value)}
            required
          />
        </label>
        <label className="text-sm">
          <span className="mb-1 block font-medium text-slate-800">
            Referencia bancaria o clave de rastreo SPEI
          </span>
          <input
            className={fieldClass}
            value={reference}
            onChange={(e) => setReference(e.target.value)}
            required
            minLength={4}
            maxLength={100}
          />
        </label>
      </div>
      <DataTable
        empty={row.openInvoices.length === 0 ? 'Sin facturas con saldo.' : null}
        head={
          <tr>
            <th className={th}>Factura</th>
            <th className={th}>Vence</th>
            <th className={`${th} text-right`}>Saldo</th>
            <th className={`${th} text-right`}>Aplicar</th>
          </tr>
        }
      >
        {row.openInvoices.map((i) => (
          <tr key={i.invoiceId}>
            <td className={td}>
              {i.serieFolio} <span className="text-xs text-slate-500">pedido #{i.orderNumber}</span>
            </td>
            <td className={td}>
              {formatDateTime(i.dueAt).split(',')[0]}
              {i.daysPastDue > 0 && (
                <span className="ml-2 text-xs font-semibold text-red-700">{i.daysPastDue} días vencida</span>
              )}
            </td>
            <td className={`${td} text-right`}>{formatMoney(i.balanceCents)}</td>
            <td className={`${td} text-right`}>
              <input
                aria-label={`Importe aplicado a ${i.serieFolio}`}
                inputMode="decimal"
                placeholder="0.00"
                className={`${fieldClass} w-32 text-right`}
                value={amounts[i.invoiceId] ?? ''}
                onChange={(e) => setAmounts({ ...amounts, [i.invoiceId]: e.target.value })}
              />
              <button
                type="button"
                className="mt-1 block w-full text-right text-xs text-brand-700 hover:underline"
                onClick={() => setAmounts({ ...amounts, [i.invoiceId]: (i.balanceCents / 100).toFixed(2) })}
              >
                Saldo completo
              </button>
            </td>
          </tr>
        ))}
      </DataTable>
      {failure && <Alert tone="danger">{failure}</Alert>}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-700">
          Importe del pago: <strong>{formatMoney(total)}</strong>
        </p>
        <button type="submit" className={buttonClass.primary} disabled={record.isPending || total === 0}>
          {record.isPending ? 'Registrando…' : 'Registrar pago y emitir CFDI de pago'}
        </button>
      </div>
    </form>
  );
}

/** «Cuentas por cobrar» (decision 060): balances and aging per institution, the payments form, CSV and statements. */
export function ReceivablesScreen() {
  useDocumentTitle('Cuentas por cobrar — Administración');
  const { data, isPending, error } = useReceivables();
  const [open, setOpen] = useState<number | null>(null);
  return (
    <>
      <ScreenTitle
        title="Cuentas por cobrar"
        subtitle="Instituciones con línea de crédito: saldo, antigüedad de saldos (días desde la emisión) y facturas vencidas. Registre aquí las transferencias recibidas; cada pago emite su CFDI de pago."
      />
      {isPending && <Spinner />}
      {error && <Alert tone="danger">No se pudieron cargar las cuentas por cobrar.</Alert>}
      {data && (
        <div className="space-y-6">
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-5" data-testid="aging-totals">
            {AGING_BUCKETS.map((b) => (
              <div key={b.key} className="rounded-xl border border-slate-200 bg-white p-3 shadow-sm">
                <p className="text-xs font-semibold text-slate-500">{b.label}</p>
                <p className="text-lg font-semibold text-slate-900">{formatMoney(data.totals[b.key])}</p>
              </div>
            ))}
            <div className="rounded-xl bg-brand-700 p-3 text-white shadow-sm">
              <p className="text-xs font-semibold">Saldo total</p>
              <p className="text-lg font-semibold">{formatMoney(data.totals.balanceCents)}</p>
            </div>
          </div>
          <div className="flex justify-end">
            <a className={buttonClass.secondary} href="/api/admin/credit/receivables.csv" download>
              Descargar CSV
            </a>
          </div>
          <DataTable
            empty={data.rows.length === 0 ? 'Ninguna institución tiene línea de crédito.' : null}
            head={
              <tr>
                <th className={th}>Institución</th>
                <th className={`${th} text-right`}>Saldo</th>
                <th className={th}>Antigüedad</th>
                <th className={th}>Acciones</th>
              </tr>
            }
          >
            {data.rows.map((r) => (
              <tr key={r.institutionId} data-testid="receivable-row">
                <td className="px-4 py-3 text-slate-700">
                  <span className="font-medium text-slate-900">{r.razonSocial}</span>
                  {r.onHold && (
                    <span className="ml-2">
                      <Badge tone="bg-red-100 text-red-800">Suspendida por vencidas</Badge>
                    </span>
                  )}
                  <span className="block text-xs text-slate-500">
                    {r.rfc} · línea {formatMoney(r.limitCents)} a {r.days} días
                  </span>
                </td>
                <td className={`${td} text-right font-semibold`}>{formatMoney(r.balanceCents)}</td>
                <td className="px-4 py-3 text-xs text-slate-600">
                  <dl className="grid grid-cols-2 gap-x-4 gap-y-0.5">
                    {AGING_BUCKETS.map((b) => (
                      <div key={b.key} className="flex justify-between gap-2">
                        <dt className="whitespace-nowrap">{b.label}</dt>
                        <dd className="font-medium text-slate-800">{formatMoney(r.aging[b.key])}</dd>
                      </div>
                    ))}
                  </dl>
                </td>
                <td className={td}>
                  <button
                    type="button"
                    className={buttonClass.secondary}
                    onClick={() => setOpen(open === r.institutionId ? null : r.institutionId)}
                  >
                    Registrar pago
                  </button>{' '}
                  <a
                    className="text-sm text-brand-700 hover:underline"
                    href={`/api/admin/credit/institutions/${r.institutionId}/statement.pdf`}
                  >
                    Estado de cuenta (PDF)
                  </a>
                </td>
              </tr>
            ))}
          </DataTable>
          {data.rows
            .filter((r) => r.institutionId === open)
            .map((r) => (
              <Panel key={r.institutionId} title={`Registrar pago · ${r.razonSocial}`}>
                <PaymentForm row={r} />
              </Panel>
            ))}
        </div>
      )}
    </>
  );
}
