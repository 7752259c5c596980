import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { ApiError, apiFetch } from '@/client/lib/api-client.ts';
import { formatMoney } from '@/shared/money.ts';
import { buttonClass, fieldClass, formatDateTime } from '../components/admin-ui.tsx';

type GlobalInvoice = {
  id: number;
  year: number;
  month: number;
  period: string;
  status: string;
  uuid: string | null;
  test: boolean;
  formaPago: string;
  totalCents: number;
  orders: number[];
  issuedAt: string | null;
};

const MONTHS = [
  'Enero',
  'Febrero',
  'Marzo',
  'Abril',
  'Mayo',
  'Junio',
  'Julio',
  'Agosto',
  'Septiembre',
  'Octubre',
  'Noviembre',
  'Diciembre',
];

/**
 * 'Factura global' (issue 21, decision 023): the month's paid sales without an individual CFDI, in one CFDI to the
 * público en general. The server issues it for a closed month only, once; a job does it within 72 h of the close.
 */
export function GlobalInvoicePanel() {
  const client = useQueryClient();
  const list = useQuery({
    queryKey: ['admin', 'global-invoices'],
    queryFn: () => apiFetch<{ items: GlobalInvoice[] }>('/api/admin/invoices/global'),
  });
  const now = new Date();
  const last =
    now.getMonth() === 0 ? { y: now.getFullYear() - 1, m: 12 } : { y: now.getFullYear(), m: now.getMonth() };
  const [year, setYear] = useState(last.y);
  const [month, setMonth] = useState(last.m);
  // Past the SAT's 72 hours the server asks for an explicit, audited confirmation (decision 045).
  const [late, setLate] = useState<string | null>(null);
  const issue = useMutation({
    mutationFn: (confirmLate: boolean) =>
      apiFetch<GlobalInvoice>('/api/admin/invoices/global', {
        method: 'POST',
        body: confirmLate ? { year, month, confirmLate } : { year, month },
      }),
    onSuccess: (g) => {
      setLate(null);
      toast.success(`Factura global de ${g.period} emitida con ${g.orders.length} pedidos`);
      void client.invalidateQueries({ queryKey: ['admin', 'global-invoices'] });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'global_late') setLate(error.message);
      else toast.error(error instanceof ApiError ? error.message : 'Error de red');
    },
  });
  return (
    <section
      aria-labelledby="factura-global"
      className="mb-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h2 id="factura-global" className="font-semibold text-slate-900">
        Factura global al público en general
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Un CFDI por mes con las ventas pagadas que no se facturaron a nombre del cliente (RFC XAXX010101000).
        Se emite sola en las 72 horas siguientes al cierre del mes; aquí puede emitirla a mano.
      </p>
      <div className="mt-3 grid gap-3 sm:grid-cols-[minmax(0,14rem)_7rem_auto] sm:items-center sm:justify-start">
        <select
          className={fieldClass}
          aria-label="Mes"
          value={month}
          onChange={(e) => {
            setLate(null);
            setMonth(Number(e.target.value));
          }}
        >
          {MONTHS.map((name, i) => (
            <option key={name} value={i + 1}>
              {name}
            </option>
          ))}
        </select>
        <input
          className={fieldClass}
          aria-label="Año"
          inputMode="numeric"
          value={year}
          onChange={(e) => {
            setLate(null);
            setYear(Number(e.target.value.replace(/\D/g, '').slice(0, 4)));
          }}
        />
        <button
          type="button"
          className={buttonClass.primary}
          disabled={issue.isPending}
          onClick={() => issue.mutate(false)}
        >
          {issue.isPending ? 'Emitiendo...' : 'Emitir factura global'}
        </button>
      </div>
      {late && (
        <div
          role="alert"
          className="mt-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
        >
          <p>{late}</p>
          <button
            type="button"
            className={`${buttonClass.secondary} mt-2`}
            disabled={issue.isPending}
            onClick={() => issue.mutate(true)}
          >
            Emitir de todos modos (extemporánea)
          </button>
        </div>
      )}
      {list.data && list.data.items.length > 0 && (
        <ul className="mt-4 divide-y divide-slate-100 text-sm">
          {list.data.items.map((g) => (
            <li key={g.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span>
                <strong className="capitalize">{g.period}</strong> ·{' '}
                {g.status === 'cancelled'
                  ? 'Cancelada (motivo 04: un pedido se facturó a su comprador; la sustituye la siguiente)'
                  : `${g.orders.length} pedidos`}{' '}
                · {formatMoney(g.totalCents)} · FormaPago {g.formaPago}
                {g.test ? ' · prueba' : ''}
                <span className="block text-xs text-slate-500">
                  {g.uuid ?? 'Timbrando…'} · {formatDateTime(g.issuedAt)}
                </span>
              </span>
              {(g.status === 'issued' || g.status === 'cancelled') && (
                <a
                  href={`/api/admin/invoices/global/${g.id}/xml`}
                  className="font-medium text-brand-700 hover:underline"
                >
                  Descargar XML
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
