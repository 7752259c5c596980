import { Link } from 'react-router';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { formatMoney } from '@/shared/money.ts';
import { useDelayedPayments } from '../api/get-delayed-payments.ts';
import { useUnpaidHolds } from '../api/get-unpaid-holds.ts';
import { DataTable, formatDateTime, ScreenTitle, td, th } from '../components/admin-ui.tsx';

/** 'Pagos diferidos': SPEI and store payments awaited (with deadlines) and the late-payment queue (issue 21). */
export function DelayedPaymentsScreen() {
  useDocumentTitle('Pagos diferidos — Administración');
  const { data, isPending, error } = useDelayedPayments();
  const link = (n: number) => (
    <Link to={`/admin/pedidos/${n}`} className="font-medium text-brand-700 hover:underline">
      #{n}
    </Link>
  );
  return (
    <>
      <ScreenTitle
        title="Pagos diferidos"
        subtitle="Pedidos por transferencia SPEI o en efectivo en tienda: los que esperan su pago, con la fecha límite, y los pagos que llegaron cuando el pedido ya había vencido."
      />
      {isPending && <Spinner />}
      {error && <Alert tone="danger">No se pudieron cargar los pagos diferidos.</Alert>}
      {data && (
        <div className="space-y-8">
          <section aria-labelledby="fuera-de-plazo">
            <h2 id="fuera-de-plazo" className="mb-2 text-lg font-semibold text-slate-900">
              Pago recibido fuera de plazo{' '}
              <span className="text-sm font-normal text-slate-500">({data.late.length})</span>
            </h2>
            <p className="mb-3 text-sm text-slate-600">
              El pedido se canceló y sus existencias se liberaron antes de que llegara el pago. Confirme
              existencias y contacte al cliente para surtirlo con un pedido nuevo, o devuélvale el dinero.
            </p>
            <DataTable
              empty={data.late.length === 0 ? 'No hay pagos fuera de plazo.' : null}
              head={
                <tr>
                  <th className={th}>Pedido</th>
                  <th className={th}>Cliente</th>
                  <th className={th}>Forma de pago</th>
                  <th className={`${th} text-right`}>Importe</th>
                  <th className={th}>Vencido</th>
                  <th className={th}>Pago recibido</th>
                  <th className={th}>Cargo</th>
                </tr>
              }
            >
              {data.late.map((r) => (
                <tr key={r.number} data-testid="late-payment-row">
                  <td className={td}>{link(r.number)}</td>
                  <td className={td}>
                    {r.customerName}
                    <span className="block text-xs text-slate-500">{r.email}</span>
                  </td>
                  <td className={td}>{r.methodLabel}</td>
                  <td className={`${td} text-right`}>{formatMoney(r.totalCents)}</td>
                  <td className={td}>{formatDateTime(r.cancelledAt)}</td>
                  <td className={`${td} font-medium text-red-700`}>{formatDateTime(r.latePaymentAt)}</td>
                  <td className={`${td} font-mono text-xs`}>{r.chargeId ?? '—'}</td>
                </tr>
              ))}
            </DataTable>
          </section>
          <section aria-labelledby="pendientes">
            <h2 id="pendientes" className="mb-2 text-lg font-semibold text-slate-900">
              Pendientes de pago{' '}
              <span className="text-sm font-normal text-slate-500">({data.awaiting.length})</span>
            </h2>
            <DataTable
              empty={data.awaiting.length === 0 ? 'No hay pagos pendientes.' : null}
              head={
                <tr>
                  <th className={th}>Pedido</th>
                  <th className={th}>Cliente</th>
                  <th className={th}>Forma de pago</th>
                  <th className={`${th} text-right`}>Importe</th>
                  <th className={th}>Fecha límite</th>
                  <th className={th}>Pedido el</th>
                </tr>
              }
            >
              {data.awaiting.map((r) => (
                <tr key={r.number} data-testid="awaiting-payment-row">
                  <td className={td}>{link(r.number)}</td>
                  <td className={td}>
                    {r.customerName}
                    <span className="block text-xs text-slate-500">{r.email}</span>
                  </td>
                  <td className={td}>{r.methodLabel}</td>
                  <td className={`${td} text-right`}>{formatMoney(r.totalCents)}</td>
                  <td className={`${td} font-medium text-amber-800`}>{formatDateTime(r.deadline)}</td>
                  <td className={td}>{formatDateTime(r.date)}</td>
                </tr>
              ))}
            </DataTable>
          </section>
          <UnpaidHolds />
        </div>
      )}
    </>
  );
}

/**
 * Per product, the units unpaid SPEI/store orders hold out of stock (issue 37): what a stranger's unpaid order
 * keeps from other buyers, and the orders to open and release ('Liberar existencias' on the order).
 */
function UnpaidHolds() {
  const { data, isPending, error } = useUnpaidHolds();
  return (
    <section aria-labelledby="apartados">
      <h2 id="apartados" className="mb-2 text-lg font-semibold text-slate-900">
        Existencias apartadas sin pagar{' '}
        {data ? (
          <span className="text-sm font-normal text-slate-500">
            ({data.products.length} {data.products.length === 1 ? 'producto' : 'productos'})
          </span>
        ) : null}
      </h2>
      <p className="mb-3 text-sm text-slate-600">
        Piezas que los pedidos por SPEI o en tienda aún sin pagar sacan de la existencia hasta su fecha
        límite. Abra un pedido para liberar sus existencias.
      </p>
      {isPending && <Spinner />}
      {error && <Alert tone="danger">No se pudieron cargar las existencias apartadas.</Alert>}
      {data && (
        <DataTable
          empty={data.products.length === 0 ? 'Ningún pedido sin pagar aparta existencias.' : null}
          head={
            <tr>
              <th className={th}>Producto</th>
              <th className={`${th} text-right`}>Apartadas</th>
              <th className={`${th} text-right`}>Disponibles</th>
              <th className={th}>Pedidos (piezas, forma de pago, fecha límite)</th>
            </tr>
          }
        >
          {data.products.map((p) => (
            <tr key={p.code} data-testid="unpaid-hold-row">
              <td className={td}>
                {p.name}
                <span className="block font-mono text-xs text-slate-500">{p.code}</span>
              </td>
              <td className={`${td} text-right font-medium text-amber-800`}>{p.heldUnits}</td>
              <td className={`${td} text-right`}>{p.stock}</td>
              <td className={td}>
                <ul className="space-y-1">
                  {p.orders.map((o) => (
                    <li key={o.number}>
                      <Link
                        to={`/admin/pedidos/${o.number}`}
                        className="font-medium text-brand-700 hover:underline"
                      >
                        #{o.number}
                      </Link>{' '}
                      · {o.units} pzas · {o.paymentMethod === 'spei' ? 'SPEI' : 'Efectivo en tienda'}
                      {o.paymentDueAt ? ` · vence ${formatDateTime(o.paymentDueAt)}` : ''}
                      <span className="block text-xs text-slate-500">{o.email}</span>
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
