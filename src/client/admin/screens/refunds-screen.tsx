import { Link } from 'react-router';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { formatMoney } from '@/shared/money.ts';
import { useOpenRefunds } from '../api/get-refunds.ts';
import { DataTable, formatAgeHours, ScreenTitle, td, th } from '../components/admin-ui.tsx';
import { RefundStateBadge, refundRouteLabel } from './order-money-panel.tsx';

/** From three days on, a refund's age is shown in red so the oldest debts to buyers stand out (our choice). */
const LATE_HOURS = 72;

/**
 * 'Reembolsos pendientes' (decision 045): money owed to buyers (SPEI and cash cancellations, partial refunds) and
 * payouts Openpay has not executed yet, the oldest first. Staff pay them from the order's screen.
 */
export function RefundsScreen() {
  useDocumentTitle('Reembolsos pendientes — Administración');
  const { data, isPending, error } = useOpenRefunds();
  return (
    <>
      <ScreenTitle
        title="Reembolsos pendientes"
        subtitle="Dinero que debemos a clientes que pagaron por transferencia SPEI o en efectivo, y pagos a CLABE que Openpay aún no ejecuta. El más antiguo primero; ábralo en su pedido para pagarlo."
      />
      {isPending && <Spinner />}
      {error && <Alert tone="danger">No se pudieron cargar los reembolsos pendientes.</Alert>}
      {data && (
        <DataTable
          empty={data.refunds.length === 0 ? 'No hay reembolsos pendientes.' : null}
          head={
            <tr>
              <th className={th}>Pedido</th>
              <th className={th}>Cliente</th>
              <th className={`${th} text-right`}>Importe</th>
              <th className={th}>Estado y vía</th>
              <th className={th}>Antigüedad</th>
              <th className={th}>Cuenta</th>
            </tr>
          }
        >
          {data.refunds.map((r) => (
            <tr key={r.id} data-testid="refund-row">
              <td className={td}>
                <Link
                  to={`/admin/pedidos/${r.orderNumber}`}
                  className="font-medium text-brand-700 hover:underline"
                >
                  #{r.orderNumber}
                </Link>
              </td>
              <td className={td}>
                <span className="block max-w-64 truncate" title={r.buyerEmail}>
                  {r.buyerEmail}
                </span>
              </td>
              <td className={`${td} text-right font-medium tabular-nums text-slate-900`}>
                {formatMoney(r.amountCents)}
              </td>
              <td className={td}>
                <RefundStateBadge state={r.state} />
                <span className="mt-1 block text-xs text-slate-500">{refundRouteLabel(r)}</span>
                {r.errorMessage ? (
                  <span className="mt-1 block max-w-56 whitespace-normal text-xs text-red-700">
                    {r.errorMessage}
                  </span>
                ) : null}
              </td>
              <td className={`${td} ${r.ageHours >= LATE_HOURS ? 'font-medium text-red-700' : ''}`}>
                {formatAgeHours(r.ageHours)}
              </td>
              <td className={td}>
                {r.clabeLast4 ? (
                  `CLABE …${r.clabeLast4}`
                ) : (
                  <span className="font-medium text-amber-800">sin CLABE</span>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}
