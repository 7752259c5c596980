import { type FormEvent, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { formatMoney } from '@/shared/money.ts';
import { useCustomer, useCustomers, useSetPurchaseOrderRequired } from '../api/get-customers.ts';
import {
  Badge,
  buttonClass,
  DataTable,
  fieldClass,
  formatDateTime,
  Pager,
  Panel,
  ScreenTitle,
  td,
  th,
} from '../components/admin-ui.tsx';

export function CustomersScreen() {
  useDocumentTitle('Clientes — Administración');
  const [params, setParams] = useSearchParams();
  const query = { q: params.get('q') ?? '', page: Number(params.get('page') ?? 1) || 1 };
  const [q, setQ] = useState(query.q);
  const { data, isPending, error } = useCustomers(query);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setParams(q.trim() ? { q: q.trim() } : {});
  };
  return (
    <>
      <ScreenTitle
        title="Clientes"
        subtitle="Solo consulta: los datos los cambia cada cliente desde su cuenta."
      />
      <form
        onSubmit={apply}
        className="mb-5 flex flex-wrap gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
        aria-label="Buscar"
      >
        <input
          className={`${fieldClass} min-w-0 flex-1 basis-56`}
          placeholder="Nombre, correo o teléfono"
          aria-label="Buscar clientes"
          value={q}
          onChange={(e) => setQ(e.target.value)}
        />
        <button type="submit" className={buttonClass.primary}>
          Buscar
        </button>
      </form>
      {error ? <Alert tone="danger">{error.message}</Alert> : null}
      {isPending ? (
        <Spinner />
      ) : data ? (
        <>
          <DataTable
            empty={data.items.length === 0 ? 'Ningún cliente coincide con la búsqueda.' : null}
            head={
              <tr>
                <th className={th}>Nombre</th>
                <th className={th}>Correo</th>
                <th className={th}>Teléfono</th>
                <th className={`${th} text-right`}>Pedidos</th>
                <th className={th}>Alta</th>
              </tr>
            }
          >
            {data.items.map((c) => (
              <tr key={c.id} className="hover:bg-slate-50">
                <td className={td}>
                  <Link
                    to={`/admin/clientes/${c.id}`}
                    className="font-semibold text-brand-700 hover:underline"
                  >
                    {c.name}
                  </Link>
                  {c.role === 'staff' ? (
                    <span className="ml-2">
                      <Badge tone="preparing">Personal</Badge>
                    </span>
                  ) : null}
                </td>
                <td className={td}>{c.email}</td>
                <td className={td}>{c.phone}</td>
                <td className={`${td} text-right tabular-nums`}>{c.ordersCount}</td>
                <td className={td}>{formatDateTime(c.createdAt)}</td>
              </tr>
            ))}
          </DataTable>
          <Pager page={data.page} pages={data.pages} total={data.total} />
        </>
      ) : null}
    </>
  );
}

function PurchaseOrderToggle({ id, required }: { id: number; required: boolean }) {
  const set = useSetPurchaseOrderRequired(id);
  return (
    <label className="mt-3 flex items-start gap-2 border-t border-slate-100 pt-3 text-sm text-slate-800">
      <input
        type="checkbox"
        className="mt-0.5 size-4 accent-brand-700"
        checked={required}
        disabled={set.isPending}
        onChange={(e) => set.mutate(e.target.checked)}
      />
      <span>
        Orden de compra obligatoria
        <span className="block text-xs text-slate-500">Sus pedidos requieren número de orden de compra.</span>
      </span>
    </label>
  );
}

export function CustomerDetailScreen() {
  const id = Number(useParams().id);
  const { data: c, isPending, error } = useCustomer(id);
  useDocumentTitle(c ? `${c.name} — Administración` : 'Cliente — Administración');
  if (isPending) return <Spinner />;
  if (error || !c) return <Alert tone="danger">{error?.message ?? 'Cliente no encontrado'}</Alert>;
  const a = c.address;
  return (
    <>
      <Link to="/admin/clientes" className="text-sm text-brand-700 hover:underline">
        ← Clientes
      </Link>
      <ScreenTitle title={c.name} subtitle={`Cliente desde ${formatDateTime(c.createdAt)}`} />
      <div className="grid gap-5 md:grid-cols-3">
        <Panel title="Contacto">
          <p className="break-words text-sm text-slate-800">{c.email}</p>
          <p className="text-sm text-slate-800">{c.phone}</p>
          <PurchaseOrderToggle id={c.id} required={c.requiresPurchaseOrder} />
        </Panel>
        <Panel title="Dirección de envío">
          {a ? (
            <address className="text-sm not-italic leading-6 text-slate-800">
              {a.nombreEnvio}
              <br />
              {a.calleEnvio} {a.numExtEnvio}
              {a.numIntEnvio ? ` Int. ${a.numIntEnvio}` : ''}, {a.coloniaEnvio}
              <br />
              {a.cpEnvio} {a.municipioEnvio}, {a.estadoEnvio}
            </address>
          ) : (
            <p className="text-sm text-slate-500">Sin dirección guardada.</p>
          )}
        </Panel>
        <Panel title="Compras">
          <p className="text-2xl font-semibold tabular-nums text-slate-900">{c.ordersCount}</p>
          <p className="text-sm text-slate-500">
            pedidos · {formatMoney(c.totalSpentCents)} en compras vigentes
          </p>
        </Panel>
      </div>
      <h2 className="mb-3 mt-6 text-base font-semibold text-slate-900">Pedidos</h2>
      <DataTable
        empty={c.orders.length === 0 ? 'Este cliente no tiene pedidos.' : null}
        head={
          <tr>
            <th className={th}>Pedido</th>
            <th className={th}>Fecha</th>
            <th className={th}>Estado</th>
            <th className={`${th} text-right`}>Total</th>
            <th className={th}>Guía</th>
          </tr>
        }
      >
        {c.orders.map((o) => (
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
              <Badge tone={o.status}>{o.statusLabel}</Badge>
            </td>
            <td className={`${td} text-right tabular-nums`}>{formatMoney(o.totalCents)}</td>
            <td className={td}>{o.trackingGuide}</td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}
