import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { formatMoney } from '@/shared/money.ts';
import { ORDER_STATUS_LABELS } from '@/shared/schemas/orders.ts';
import { useAdminOrders } from '../api/get-orders.ts';
import {
  Badge,
  buttonClass,
  DataTable,
  fieldClass,
  formatDateTime,
  Pager,
  ScreenTitle,
  td,
  th,
} from '../components/admin-ui.tsx';

const INVOICE_LABELS = { none: '—', issued: 'Facturado', cancelled: 'Factura cancelada' } as const;

export function OrdersScreen() {
  useDocumentTitle('Pedidos — Administración');
  const [params, setParams] = useSearchParams();
  const query = {
    status: (params.get('status') ?? '') as '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    q: params.get('q') ?? '',
    page: Number(params.get('page') ?? 1) || 1,
  };
  const [form, setForm] = useState(query);
  const { data, isPending, error } = useAdminOrders(query);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const key of ['status', 'from', 'to', 'q'] as const) if (form[key]) next.set(key, String(form[key]));
    setParams(next);
  };

  return (
    <>
      <ScreenTitle title="Pedidos" subtitle="Prepare, envíe y entregue los pedidos pagados." />
      <form
        onSubmit={apply}
        className="mb-5 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-[1.4fr_1fr_0.8fr_0.8fr_auto]"
        aria-label="Filtros de pedidos"
      >
        <label className="text-sm font-medium text-slate-700">
          Buscar
          <input
            className={`${fieldClass} mt-1`}
            placeholder="Número, correo o RFC"
            value={form.q}
            onChange={(e) => setForm({ ...form, q: e.target.value })}
          />
        </label>
        <label className="text-sm font-medium text-slate-700">
          Estado
          <select
            className={`${fieldClass} mt-1`}
            value={form.status}
            onChange={(e) => setForm({ ...form, status: e.target.value as '' })}
          >
            <option value="">Todos</option>
            {Object.entries(ORDER_STATUS_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm font-medium text-slate-700">
          Desde
          <input
            type="date"
            className={`${fieldClass} mt-1`}
            value={form.from}
            onChange={(e) => setForm({ ...form, from: e.target.value })}
          />
        </label>
        <label className="text-sm font-medium text-slate-700">
          Hasta
          <input
            type="date"
            className={`${fieldClass} mt-1`}
            value={form.to}
            onChange={(e) => setForm({ ...form, to: e.target.value })}
          />
        </label>
        <div className="flex items-end gap-2">
          <button type="submit" className={buttonClass.primary}>
            Filtrar
          </button>
          <button
            type="button"
            className={buttonClass.secondary}
            onClick={() => {
              setForm({ status: '', from: '', to: '', q: '', page: 1 });
              setParams(new URLSearchParams());
            }}
          >
            Limpiar
          </button>
        </div>
      </form>
      {error ? <Alert tone="danger">{error.message}</Alert> : null}
      {isPending ? (
        <Spinner />
      ) : data ? (
        <>
          <DataTable
            empty={data.items.length === 0 ? 'No hay pedidos con estos filtros.' : null}
            head={
              <tr>
                <th className={th}>Pedido</th>
                <th className={th}>Fecha</th>
                <th className={th}>Cliente</th>
                <th className={th}>Estado</th>
                <th className={`${th} text-right`}>Total</th>
                <th className={th}>Guía</th>
                <th className={th}>Factura</th>
              </tr>
            }
          >
            {data.items.map((o) => (
              <tr key={o.number} className="hover:bg-slate-50">
                <td className={td}>
                  <Link
                    to={`/admin/pedidos/${o.number}`}
                    className="font-semibold text-brand-700 hover:underline"
                  >
                    #{o.number}
                  </Link>
                </td>
                <td className={td}>{formatDateTime(o.date)}</td>
                <td className={td}>
                  <span className="block font-medium text-slate-900">{o.customerName}</span>
                  <span className="block text-xs text-slate-500">{o.email}</span>
                </td>
                <td className={td}>
                  <Badge tone={o.status}>{o.statusLabel}</Badge>
                </td>
                <td className={`${td} text-right font-medium tabular-nums`}>{formatMoney(o.totalCents)}</td>
                <td className={td}>{o.trackingGuide}</td>
                <td className={td}>
                  {INVOICE_LABELS[o.invoiceState]}
                  {o.rfc ? <span className="block text-xs text-slate-500">{o.rfc}</span> : null}
                </td>
              </tr>
            ))}
          </DataTable>
          <Pager page={data.page} pages={data.pages} total={data.total} />
        </>
      ) : null}
    </>
  );
}
