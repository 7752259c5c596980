import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { apiFetch } from '@/client/lib/api-client.ts';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { mexicoCityToday } from '@/shared/mexico-time.ts';
import type { ControlledSales } from '@/shared/schemas/admin.ts';
import { buttonClass, DataTable, fieldClass, ScreenTitle, td, th } from '../components/admin-ui.tsx';

const wrap = 'px-4 py-3 text-slate-700';

/**
 * 'Ventas controladas' (decision 030): the sales of controlled chemicals of a period with the buyer's RFC and
 * declared use, and the CSV for Excel (each download is written to the Bitácora).
 */
export function ControlledSalesScreen() {
  useDocumentTitle('Ventas controladas — Administración');
  const [params, setParams] = useSearchParams();
  const today = mexicoCityToday();
  const from = params.get('desde') ?? `${today.slice(0, 8)}01`;
  const to = params.get('hasta') ?? today;
  const query = new URLSearchParams({ from, to }).toString();
  const sales = useQuery({
    queryKey: ['admin', 'controlled-sales', from, to],
    queryFn: () => apiFetch<ControlledSales>(`/api/admin/controlled-sales?${query}`),
  });
  return (
    <>
      <ScreenTitle
        title="Ventas controladas"
        subtitle="Productos sujetos a la Ley Federal para el Control de Precursores Químicos vendidos en el periodo (días de la Ciudad de México), con el RFC y el uso final que declaró el comprador."
      />
      <form
        className="mb-5 flex flex-wrap items-end gap-3"
        aria-label="Periodo"
        onSubmit={(e) => {
          e.preventDefault();
          const data = new FormData(e.currentTarget);
          setParams({ desde: String(data.get('desde')), hasta: String(data.get('hasta')) });
        }}
      >
        <label className="text-sm font-medium text-slate-700">
          Desde
          <input type="date" name="desde" defaultValue={from} className={`mt-1 ${fieldClass}`} />
        </label>
        <label className="text-sm font-medium text-slate-700">
          Hasta
          <input type="date" name="hasta" defaultValue={to} className={`mt-1 ${fieldClass}`} />
        </label>
        <button type="submit" className={buttonClass.secondary}>
          Consultar
        </button>
        <a
          href={`/api/admin/controlled-sales.csv?${query}`}
          className={buttonClass.primary}
          data-testid="controlled-sales-csv"
        >
          Descargar CSV
        </a>
      </form>
      {sales.isPending && <Spinner />}
      {sales.error && <Alert tone="danger">{sales.error.message}</Alert>}
      {sales.data && (
        <>
          <p className="mb-2 text-sm text-slate-600">
            {sales.data.orders} {sales.data.orders === 1 ? 'pedido' : 'pedidos'}, {sales.data.rows.length}{' '}
            {sales.data.rows.length === 1 ? 'renglón' : 'renglones'}
          </p>
          <DataTable
            empty={
              sales.data.rows.length === 0 ? 'No hubo ventas de productos controlados en el periodo.' : null
            }
            head={
              <tr>
                <th className={th}>Fecha</th>
                <th className={th}>Pedido</th>
                <th className={th}>Producto</th>
                <th className={`${th} text-right`}>Cant.</th>
                <th className={th}>Comprador y RFC</th>
                <th className={th}>Uso final declarado</th>
              </tr>
            }
          >
            {sales.data.rows.map((r) => (
              <tr key={`${r.orderNumber}-${r.code}`} data-testid="controlled-sale-row" className="align-top">
                <td className={td}>{r.date}</td>
                <td className={td}>
                  <Link
                    to={`/admin/pedidos/${r.orderNumber}`}
                    className="font-medium text-brand-700 hover:underline"
                  >
                    #{r.orderNumber}
                  </Link>
                  <span className="block text-xs text-slate-500">{r.status}</span>
                </td>
                <td className={`${wrap} min-w-48`}>
                  {r.name}
                  <span className="block text-xs text-slate-500">{r.code}</span>
                </td>
                <td className={`${td} text-right`}>{r.quantity}</td>
                <td className={`${wrap} min-w-44`}>
                  {r.buyer}
                  <span className="block font-mono text-xs text-slate-700">{r.rfc}</span>
                  <span className="block text-xs text-slate-500">{r.razonSocial}</span>
                </td>
                <td className={`${wrap} min-w-56`}>{r.declaredUse}</td>
              </tr>
            ))}
          </DataTable>
        </>
      )}
    </>
  );
}
