import { Link } from 'react-router';
import { formatMoney, groupThousands } from '@/shared/money.ts';
import type { Dashboard } from '@/shared/schemas/dashboard.ts';
import { formatDateTime, Panel } from '../components/admin-ui.tsx';
import { BarList } from '../components/charts.tsx';

/** The dashboard's lower panels: orders by state, quotations, what sells, what is searched in vain. */

/** A panel's link to the screen behind it ('Ver pedidos'). */
const more = (to: string, label: string) => (
  <Link to={to} className="text-sm font-medium text-brand-700 hover:underline">
    {label}
  </Link>
);

const orderLink = (n: number) => (
  <Link to={`/admin/pedidos/${n}`} className="font-medium text-brand-700 hover:underline">
    #{n}
  </Link>
);

export function OrdersByStatusPanel({ orders }: { orders: Dashboard['orders'] }) {
  const waiting = orders.filter((o) => o.waiting);
  return (
    <Panel title="Pedidos por estado" actions={more('/admin/pedidos', 'Ver pedidos')}>
      <p className="mb-3 text-xs text-slate-500">
        Pedidos creados en los últimos 30 días, por su estado actual.
      </p>
      <BarList
        bars={orders
          .filter((o) => o.last30 > 0)
          .map((o) => ({
            key: o.status,
            label: o.label,
            value: o.last30,
            display: groupThousands(o.last30),
          }))}
        empty="No hay pedidos en los últimos 30 días."
      />
      <h3 className="mt-5 text-sm font-semibold text-slate-900">En espera · el más antiguo</h3>
      {waiting.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">Ningún pedido en espera.</p>
      ) : (
        <table className="mt-2 w-full text-sm">
          <tbody className="divide-y divide-slate-100">
            {waiting.map((o) => (
              <tr key={o.status}>
                <td className="py-1.5 pr-2 text-slate-700">{o.label}</td>
                <td className="py-1.5 pr-2 text-right tabular-nums text-slate-900">
                  {groupThousands(o.total)}
                </td>
                <td className="whitespace-nowrap py-1.5 pr-2 text-xs text-slate-500">
                  desde {formatDateTime(o.waiting!.since)}
                </td>
                <td className="py-1.5 text-right">{orderLink(o.waiting!.number)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Panel>
  );
}

export function QuotationsPanel({ q }: { q: Dashboard['quotations'] }) {
  return (
    <Panel title="Cotizaciones · 30 días" actions={more('/admin/cotizaciones', 'Ver cotizaciones')}>
      <div className="flex items-baseline gap-3">
        <p className="text-3xl font-semibold tabular-nums text-slate-900">
          {q.ratePercent.toFixed(1).replace(/\.0$/, '')} %
        </p>
        <p className="text-sm text-slate-500">
          convertidas: {groupThousands(q.converted)} de {groupThousands(q.issued)} emitidas
        </p>
      </div>
      <div className="mt-5 space-y-5">
        <div>
          <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">Número</h3>
          <BarList
            bars={[
              { key: 'issued', label: 'Emitidas', value: q.issued, display: groupThousands(q.issued) },
              {
                key: 'converted',
                label: 'Convertidas',
                value: q.converted,
                display: groupThousands(q.converted),
              },
            ]}
          />
        </div>
        <div>
          <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">Valor</h3>
          <BarList
            bars={[
              { key: 'issued', label: 'Cotizado', value: q.issuedCents, display: formatMoney(q.issuedCents) },
              {
                key: 'converted',
                label: 'Convertido en pedido',
                value: q.convertedCents,
                display: formatMoney(q.convertedCents),
              },
            ]}
          />
        </div>
      </div>
      <p className="mt-4 text-xs text-slate-500">
        Cotizaciones emitidas en los últimos 30 días; convertida = su pedido está pagado o en curso.
      </p>
    </Panel>
  );
}

const th = 'px-2 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500';
const td = 'px-2 py-2 text-slate-700';

export function RankingsPanels({
  products,
  institutions,
}: {
  products: Dashboard['topProducts'];
  institutions: Dashboard['topInstitutions'];
}) {
  const maxProduct = Math.max(1, ...products.map((p) => p.cents));
  return (
    <div className="grid gap-6 lg:grid-cols-5">
      <div className="lg:col-span-3">
        <Panel title="Productos más vendidos · 30 días">
          {products.length === 0 ? (
            <p className="py-6 text-center text-sm text-slate-500">Sin ventas en el periodo.</p>
          ) : (
            <table className="w-full text-sm">
              <thead>
                <tr>
                  <th className={th}>Producto</th>
                  <th className={`${th} text-right`}>Unidades</th>
                  <th className={`${th} text-right`}>Importe</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {products.map((p) => (
                  <tr key={p.code}>
                    <td className={`${td} max-w-0 w-full`}>
                      <Link
                        to={`/admin/productos/${encodeURIComponent(p.code)}`}
                        className="block truncate font-medium text-slate-900 hover:text-brand-700"
                        title={p.description}
                      >
                        {p.description}
                      </Link>
                      <span className="font-mono text-xs text-slate-500">{p.code}</span>
                      <div className="mt-1 h-1.5 rounded-full bg-slate-100">
                        <div
                          className="h-1.5 rounded-full bg-brand-500"
                          style={{ width: `${((p.cents / maxProduct) * 100).toFixed(1)}%` }}
                        />
                      </div>
                    </td>
                    <td className={`${td} text-right tabular-nums`}>{groupThousands(p.units)}</td>
                    <td className={`${td} whitespace-nowrap text-right tabular-nums`}>
                      {formatMoney(p.cents)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Panel>
      </div>
      <div className="lg:col-span-2">
        <Panel title="Instituciones · 30 días">
          <BarList
            bars={institutions.map((i) => ({
              key: String(i.id),
              label: (
                <Link to={`/admin/instituciones/${i.id}`} className="hover:text-brand-700" title={i.name}>
                  {i.name}
                </Link>
              ),
              value: i.cents,
              display: formatMoney(i.cents),
              detail: `${groupThousands(i.orders)} ${i.orders === 1 ? 'pedido' : 'pedidos'}`,
            }))}
            empty="Ninguna institución compró en el periodo."
          />
        </Panel>
      </div>
    </div>
  );
}

export function SearchMissesPanel({ misses }: { misses: Dashboard['searchMisses'] }) {
  return (
    <Panel
      title="Búsquedas sin resultados o con pocos · 30 días"
      actions={more('/admin/busqueda', 'Agregar sinónimos')}
    >
      {misses.length === 0 ? (
        <p className="py-4 text-center text-sm text-slate-500">Todas las búsquedas encontraron productos.</p>
      ) : (
        <table className="w-full text-sm">
          <thead>
            <tr>
              <th className={th}>Término buscado</th>
              <th className={`${th} text-right`}>Resultados</th>
              <th className={`${th} text-right`}>Veces</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {misses.map((m) => (
              <tr key={m.term}>
                <td className={`${td} font-medium text-slate-900`}>{m.term}</td>
                <td className={`${td} text-right tabular-nums`}>
                  {m.results === 0 ? <span className="font-semibold text-red-700">0</span> : m.results}
                </td>
                <td className={`${td} text-right tabular-nums`}>{groupThousands(m.searches)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Panel>
  );
}
