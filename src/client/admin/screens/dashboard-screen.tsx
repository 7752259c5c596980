import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { formatMoney, groupThousands } from '@/shared/money.ts';
import { DASHBOARD_PERIODS, type Dashboard } from '@/shared/schemas/dashboard.ts';
import { useDashboard } from '../api/get-dashboard.ts';
import { formatDateTime, formatDay, Panel } from '../components/admin-ui.tsx';
import { BarList, LineChart } from '../components/charts.tsx';
import {
  OrdersByStatusPanel,
  QuotationsPanel,
  RankingsPanels,
  SearchMissesPanel,
} from './dashboard-panels.tsx';

const shortDay = new Intl.DateTimeFormat('es-MX', { timeZone: 'UTC', day: 'numeric', month: 'short' });
const formatShortDay = (ymd: string) => shortDay.format(new Date(`${ymd}T00:00:00Z`)).replace('.', '');

/** '+12.5 %' against last year's figure; null when last year had nothing to compare with. */
function change(current: number, before: number): { text: string; up: boolean } | null {
  if (before <= 0) return null;
  const pct = ((current - before) / before) * 100;
  const rounded = Math.round(pct * 10) / 10;
  return { text: `${rounded > 0 ? '+' : ''}${rounded.toFixed(1)} %`, up: rounded >= 0 };
}

function SalesCard({ p, lastYear }: { p: Dashboard['sales']['periods'][number]; lastYear: string }) {
  const delta = change(p.current.netCents, p.lastYear.netCents);
  return (
    <section
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
      aria-label={`Ventas: ${DASHBOARD_PERIODS[p.period]}`}
      data-testid={`ventas-${p.period}`}
    >
      <h2 className="text-sm font-medium text-slate-500">{DASHBOARD_PERIODS[p.period]}</h2>
      <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">
        {formatMoney(p.current.netCents)}
      </p>
      <p className="text-xs text-slate-500">
        ventas netas · {groupThousands(p.current.orders)} {p.current.orders === 1 ? 'pedido' : 'pedidos'}
      </p>
      <dl className="mt-3 grid grid-cols-2 gap-x-3 gap-y-1 text-xs">
        <dt className="text-slate-500">Vendido</dt>
        <dd className="text-right tabular-nums text-slate-700">{formatMoney(p.current.grossCents)}</dd>
        <dt className="text-slate-500">Devuelto</dt>
        <dd className="text-right tabular-nums text-slate-700">{formatMoney(p.current.givenBackCents)}</dd>
      </dl>
      <p className="mt-3 border-t border-slate-100 pt-2 text-xs text-slate-600">
        {delta ? (
          <span className={`mr-1 font-semibold ${delta.up ? 'text-green-700' : 'text-red-700'}`}>
            {delta.text}
          </span>
        ) : null}
        {lastYear}: {formatMoney(p.lastYear.netCents)}
      </p>
    </section>
  );
}

function WaitingCard({
  title,
  to,
  count,
  children,
}: {
  title: string;
  to: string;
  count: number;
  children: ReactNode;
}) {
  return (
    <Link
      to={to}
      className="block rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-brand-500"
    >
      <div className="flex items-baseline justify-between gap-2">
        <h2 className="text-sm font-medium text-slate-500">{title}</h2>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-semibold ${count > 0 ? 'bg-amber-100 text-amber-800' : 'bg-slate-100 text-slate-600'}`}
        >
          {groupThousands(count)}
        </span>
      </div>
      <div className="mt-2 text-sm text-slate-700">{children}</div>
    </Link>
  );
}

function Waiting({ w }: { w: Dashboard['waiting'] }) {
  return (
    <div className="grid gap-4 md:grid-cols-3">
      <WaitingCard
        title="Pagos diferidos por recibir"
        to="/admin/pagos-diferidos"
        count={w.delayedPayments.n}
      >
        <p className="text-lg font-semibold tabular-nums text-slate-900">
          {formatMoney(w.delayedPayments.cents)}
        </p>
        <p className="text-xs text-slate-500">
          {w.delayedPayments.firstDue
            ? `Primer vencimiento: ${formatDateTime(w.delayedPayments.firstDue)}`
            : 'Ningún pago SPEI o en efectivo en espera'}
        </p>
      </WaitingCard>
      <WaitingCard title="Reembolsos por pagar" to="/admin/reembolsos" count={w.refundsOwed.n}>
        <p className="text-lg font-semibold tabular-nums text-slate-900">
          {formatMoney(w.refundsOwed.cents)}
        </p>
        <p className="text-xs text-slate-500">
          {w.refundsOwed.oldest
            ? `El más antiguo desde ${formatDateTime(w.refundsOwed.oldest)}`
            : 'No se debe dinero a ningún cliente'}
        </p>
      </WaitingCard>
      <WaitingCard title="Facturas pendientes en el PAC" to="/admin/facturas" count={w.invoicesAtPac.n}>
        <p className="text-sm text-slate-700">
          {w.invoicesAtPac.stamping} timbrando · {w.invoicesAtPac.atPurchase} solicitadas al comprar ·{' '}
          {w.invoicesAtPac.cancellation} cancelaciones en proceso
        </p>
        <p className="text-xs text-slate-500">
          {w.invoicesAtPac.oldest
            ? `Desde ${formatDateTime(w.invoicesAtPac.oldest)}`
            : 'Nada en espera del PAC'}
        </p>
      </WaitingCard>
    </div>
  );
}

function SalesPanels({ sales, lastYear }: { sales: Dashboard['sales']; lastYear: string }) {
  return (
    <>
      <Panel title="Ventas netas por día · últimos 30 días">
        <LineChart
          label={`Ventas netas por día de los últimos 30 días y de los mismos días de ${lastYear}`}
          labels={sales.daily.map((d) => formatShortDay(d.day))}
          series={[
            { name: 'Este año', values: sales.daily.map((d) => d.netCents), tone: 'brand' },
            {
              name: `Mismos días de ${lastYear}`,
              values: sales.daily.map((d) => d.lastYearNetCents),
              tone: 'muted',
            },
          ]}
        />
      </Panel>
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Por forma de pago · 30 días">
          <BarList
            compareLabel={lastYear}
            bars={sales.byMethod.map((m) => ({
              key: m.method,
              label: m.label,
              value: m.grossCents,
              compare: m.lastYearGrossCents,
              display: formatMoney(m.grossCents),
            }))}
          />
          <p className="mt-4 text-xs text-slate-500">
            Barra gris: los mismos 30 días de {lastYear}. Importes vendidos, antes de devoluciones.
          </p>
        </Panel>
        <Panel title="Por categoría · 30 días">
          <BarList
            bars={sales.byCategory.map((c) => ({
              key: c.clas ?? '—',
              label: c.name,
              value: c.cents,
              display: formatMoney(c.cents),
            }))}
          />
          <p className="mt-4 text-xs text-slate-500">
            Importe de los productos vendidos (con IVA, sin envío).
          </p>
        </Panel>
      </div>
    </>
  );
}

/** /admin: the dashboard («Tablero»), the admin's home (issue 36, decision 065). */
export function DashboardScreen() {
  useDocumentTitle('Tablero — Administración');
  const { data, isPending, error } = useDashboard();
  if (isPending) return <Spinner />;
  if (error) return <Alert tone="danger">No se pudo cargar el tablero. Recargue la página.</Alert>;
  const lastYear = String(Number(data.today.slice(0, 4)) - 1);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-xl font-semibold text-slate-900 sm:text-2xl">Tablero</h1>
          <p className="mt-1 text-sm text-slate-500">
            {formatDay(data.today)} · cifras al {formatDateTime(data.generatedAt)}, hora de la Ciudad de
            México. Ventas netas = vendido menos lo devuelto o por devolver.
          </p>
        </div>
      </div>
      <div className="grid gap-4 md:grid-cols-3">
        {data.sales.periods.map((p) => (
          <SalesCard key={p.period} p={p} lastYear={`Mismo periodo de ${lastYear}`} />
        ))}
      </div>
      <Waiting w={data.waiting} />
      <SalesPanels sales={data.sales} lastYear={lastYear} />
      <div className="grid gap-6 lg:grid-cols-2">
        <OrdersByStatusPanel orders={data.orders} />
        <QuotationsPanel q={data.quotations} />
      </div>
      <RankingsPanels products={data.topProducts} institutions={data.topInstitutions} />
      <SearchMissesPanel misses={data.searchMisses} />
    </div>
  );
}
