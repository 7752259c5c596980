import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { formatMoney } from '@/shared/money.ts';
import { useAdminInvoices } from '../api/get-invoices.ts';
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
import { GlobalInvoicePanel } from './global-invoice-panel.tsx';

export function InvoicesScreen() {
  useDocumentTitle('Facturas — Administración');
  const [params, setParams] = useSearchParams();
  const query = {
    status: (params.get('status') ?? '') as '' | 'issued' | 'cancelled',
    q: params.get('q') ?? '',
    page: Number(params.get('page') ?? 1) || 1,
  };
  const [q, setQ] = useState(query.q);
  const { data, isPending, error } = useAdminInvoices(query);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams();
    if (q.trim()) next.set('q', q.trim());
    if (query.status) next.set('status', query.status);
    setParams(next);
  };
  return (
    <>
      <ScreenTitle
        title="Facturas"
        subtitle="CFDI 4.0 emitidos para los pedidos; descargue el XML o el PDF, cancele una factura o emita una nota de crédito desde su pedido."
      />
      <form
        onSubmit={apply}
        className="mb-5 flex flex-wrap gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
        aria-label="Buscar"
      >
        <input
          className={`${fieldClass} min-w-0 flex-1 basis-56`}
          placeholder="Pedido, RFC, UUID, razón social o correo"
          aria-label="Buscar facturas"
          value={q}
          onChange={(e) => setQ(e.target.value)}
        />
        <select
          className={`${fieldClass} w-auto`}
          aria-label="Estado"
          value={query.status}
          onChange={(e) => {
            const next = new URLSearchParams(params);
            next.delete('page');
            if (e.target.value) next.set('status', e.target.value);
            else next.delete('status');
            setParams(next);
          }}
        >
          <option value="">Todas</option>
          <option value="issued">Vigentes</option>
          <option value="cancelled">Canceladas</option>
        </select>
        <button type="submit" className={buttonClass.primary}>
          Buscar
        </button>
      </form>
      <GlobalInvoicePanel />
      {error ? <Alert tone="danger">{error.message}</Alert> : null}
      {isPending ? (
        <Spinner />
      ) : data ? (
        <>
          <DataTable
            empty={data.items.length === 0 ? 'No hay facturas con estos filtros.' : null}
            head={
              <tr>
                <th className={th}>Pedido</th>
                <th className={th}>Receptor</th>
                <th className={th}>UUID</th>
                <th className={`${th} text-right`}>Total</th>
                <th className={th}>Estado</th>
                <th className={th}>Archivos</th>
                <th className={th}>
                  <span className="sr-only">Acciones</span>
                </th>
              </tr>
            }
          >
            {data.items.map((i) => (
              <tr key={i.id} className="hover:bg-slate-50">
                <td className={td}>
                  <Link
                    to={`/admin/pedidos/${i.orderNumber}`}
                    className="font-semibold text-brand-700 hover:underline"
                  >
                    #{i.orderNumber}
                  </Link>
                </td>
                <td className={td}>
                  <span className="block font-medium text-slate-900">{i.rfc}</span>
                  <span className="block max-w-56 truncate text-xs text-slate-500" title={i.nombreFiscal}>
                    {i.nombreFiscal}
                  </span>
                </td>
                <td className={`${td} font-mono text-xs`}>{i.uuid ?? '—'}</td>
                <td className={`${td} text-right tabular-nums`}>{formatMoney(i.totalCents)}</td>
                <td className={td}>
                  <Badge tone={i.status}>{i.statusLabel}</Badge>
                  {i.test ? <span className="ml-1 text-xs text-amber-700">prueba</span> : null}
                  <span className="block text-xs text-slate-500">
                    {formatDateTime(i.cancelledAt ?? i.issuedAt)}
                  </span>
                </td>
                <td className={td}>
                  {i.uuid ? (
                    <span className="flex gap-3">
                      <a
                        className="text-brand-700 hover:underline"
                        href={`/api/admin/invoices/${i.orderNumber}/invoice.xml`}
                      >
                        XML
                      </a>
                      <a
                        className="text-brand-700 hover:underline"
                        href={`/api/admin/invoices/${i.orderNumber}/invoice.pdf`}
                      >
                        PDF
                      </a>
                    </span>
                  ) : (
                    '—'
                  )}
                </td>
                <td className={td}>
                  {i.status === 'issued' ? (
                    <Link
                      to={`/admin/pedidos/${i.orderNumber}`}
                      className="text-sm font-medium text-red-700 hover:underline"
                    >
                      Cancelar o acreditar
                    </Link>
                  ) : null}
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
