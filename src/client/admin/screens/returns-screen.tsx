import { Link, useSearchParams } from 'react-router';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { formatMoney } from '@/shared/money.ts';
import { RETURN_STATE_LABELS, RETURN_STATES, type ReturnState } from '@/shared/returns.ts';
import { useAdminReturns } from '../api/returns.ts';
import {
  Badge,
  DataTable,
  fieldClass,
  formatDateTime,
  ScreenTitle,
  td,
  th,
} from '../components/admin-ui.tsx';
import { RETURN_TONES } from './return-detail.tsx';

/** /admin/devoluciones — the returns (RMA) to act on, newest first, by state. */
export function ReturnsScreen() {
  useDocumentTitle('Devoluciones — Administración');
  const [params, setParams] = useSearchParams();
  const state = (params.get('estado') ?? 'requested') as ReturnState | '';
  const query = useAdminReturns(state);
  return (
    <>
      <ScreenTitle
        title="Devoluciones"
        subtitle="Autorice o rechace, registre la llegada y, revisada la mercancía, reembolse y regrese al almacén."
        actions={
          <select
            className={`${fieldClass} w-auto`}
            value={state}
            onChange={(e) => setParams(e.target.value ? { estado: e.target.value } : { estado: '' })}
            aria-label="Estado"
          >
            <option value="">Todas</option>
            {RETURN_STATES.map((s) => (
              <option key={s} value={s}>
                {RETURN_STATE_LABELS[s]}
              </option>
            ))}
          </select>
        }
      />
      {query.isPending ? (
        <Spinner />
      ) : query.isError ? (
        <Alert tone="danger">{query.error.message}</Alert>
      ) : (
        <DataTable
          head={
            <tr>
              <th className={th}>Devolución</th>
              <th className={th}>Pedido</th>
              <th className={th}>Cliente</th>
              <th className={th}>Motivo</th>
              <th className={th}>Importe</th>
              <th className={th}>Estado</th>
              <th className={th}>Solicitada</th>
            </tr>
          }
          empty={query.data.items.length === 0 ? 'No hay devoluciones en este estado.' : null}
        >
          {query.data.items.map((r) => (
            <tr key={r.id} data-testid="return-row">
              <td className={td}>
                <Link
                  to={`/admin/devoluciones/${r.id}`}
                  className="font-medium text-brand-700 hover:underline"
                >
                  #{r.id}
                </Link>
              </td>
              <td className={td}>
                <Link to={`/admin/pedidos/${r.orderNumber}`} className="hover:underline">
                  #{r.orderNumber}
                </Link>
              </td>
              <td className={td}>{r.buyerEmail}</td>
              <td className={td}>{r.reasonLabel}</td>
              <td className={td}>{formatMoney(r.valueCents)}</td>
              <td className={td}>
                <Badge tone={RETURN_TONES[r.state]}>{r.stateLabel}</Badge>
              </td>
              <td className={td}>{formatDateTime(r.createdAt)}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}
