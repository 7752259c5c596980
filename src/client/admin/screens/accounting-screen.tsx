import { useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { AGING_BUCKETS } from '@/shared/credit.ts';
import { mexicoCityToday, periodName, previousMexicoMonth } from '@/shared/mexico-time.ts';
import { formatMoney, groupThousands } from '@/shared/money.ts';
import {
  type AccountingSummary,
  CFDI_TYPES,
  type CfdiType,
  SAT_STATE_LABELS,
  type SatState,
} from '@/shared/schemas/accounting.ts';
import { type PeriodChoice, periodQuery, useAccountingSummary } from '../api/accounting.ts';
import {
  buttonClass,
  DataTable,
  fieldClass,
  formatDateTime,
  formatDay,
  Panel,
  ScreenTitle,
  td,
  th,
} from '../components/admin-ui.tsx';

const SAT_TONES: Record<SatState, string> = {
  vigente: 'bg-green-50 text-green-800 ring-green-300',
  cancelado: 'bg-red-50 text-red-700 ring-red-200',
  en_proceso: 'bg-amber-50 text-amber-800 ring-amber-300',
};

function Pill({ tone, children }: { tone: string; children: React.ReactNode }) {
  return (
    <span
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tone}`}
    >
      {children}
    </span>
  );
}

const SHORT_TYPE: Record<CfdiType, string> = {
  ingreso: 'Ingreso',
  egreso: 'Egreso',
  pago: 'Pago',
  global: 'Global',
};

const ym = (p: { year: number; month: number }) => `${p.year}-${String(p.month).padStart(2, '0')}`;
const lastMonth = () => ym(previousMexicoMonth(new Date()));

/** The current month and the 35 before it, newest first, as «octubre de 2026». */
function recentMonths(): { value: string; label: string }[] {
  const today = mexicoCityToday();
  let p = { year: Number(today.slice(0, 4)), month: Number(today.slice(5, 7)) };
  const list: { value: string; label: string }[] = [];
  for (let i = 0; i < 36; i++) {
    list.push({ value: ym(p), label: periodName(p.year, p.month) });
    p = p.month === 1 ? { year: p.year - 1, month: 12 } : { year: p.year, month: p.month - 1 };
  }
  return list;
}

/** «octubre de 2026» → «Octubre de 2026». */
const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const CARD_LABELS: Record<CfdiType, string> = {
  ingreso: 'Ingresos (facturas)',
  egreso: 'Notas de crédito',
  pago: 'Complementos de pago',
  global: 'Factura global',
};

/** Month or range, and the types; the downloads and the figures follow what is chosen. */
function PeriodPicker({
  period,
  onPeriod,
  types,
  onTypes,
}: {
  period: PeriodChoice;
  onPeriod: (p: PeriodChoice) => void;
  types: CfdiType[];
  onTypes: (t: CfdiType[]) => void;
}) {
  const byMonth = 'month' in period;
  return (
    <div className="flex flex-wrap items-end gap-4">
      <fieldset className="flex gap-1 rounded-lg bg-slate-100 p-1 text-sm" aria-label="Tipo de periodo">
        {(
          [
            [true, 'Mes'],
            [false, 'Rango de fechas'],
          ] as const
        ).map(([month, label]) => (
          <button
            key={label}
            type="button"
            aria-pressed={byMonth === month}
            className={`rounded-md px-3 py-1.5 font-medium ${byMonth === month ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900'}`}
            onClick={() =>
              onPeriod(month ? { month: lastMonth() } : { from: `${lastMonth()}-01`, to: mexicoCityToday() })
            }
          >
            {label}
          </button>
        ))}
      </fieldset>
      {'month' in period ? (
        <label className="text-sm">
          <span className="mb-1 block font-medium text-slate-800">Mes (Ciudad de México)</span>
          <select
            className={`${fieldClass} w-48`}
            value={period.month}
            onChange={(e) => onPeriod({ month: e.target.value })}
          >
            {recentMonths().map((m) => (
              <option key={m.value} value={m.value}>
                {capitalized(m.label)}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <>
          <label className="text-sm">
            <span className="mb-1 block font-medium text-slate-800">Desde</span>
            <input
              type="date"
              className={`${fieldClass} w-44`}
              value={period.from}
              onChange={(e) => onPeriod({ ...period, from: e.target.value })}
            />
          </label>
          <label className="text-sm">
            <span className="mb-1 block font-medium text-slate-800">Hasta (incluido)</span>
            <input
              type="date"
              className={`${fieldClass} w-44`}
              value={period.to}
              onChange={(e) => onPeriod({ ...period, to: e.target.value })}
            />
          </label>
        </>
      )}
      <fieldset className="text-sm">
        <legend className="mb-1 block font-medium text-slate-800">Tipos de CFDI</legend>
        <div className="flex flex-wrap gap-3 py-2">
          {CFDI_TYPES.map((type) => (
            <label key={type} className="inline-flex items-center gap-1.5 text-slate-700">
              <input
                type="checkbox"
                className="h-4 w-4 rounded border-slate-300 text-brand-700"
                checked={types.includes(type)}
                onChange={(e) =>
                  onTypes(e.target.checked ? [...types, type] : types.filter((t) => t !== type))
                }
              />
              {SHORT_TYPE[type]}
            </label>
          ))}
        </div>
      </fieldset>
    </div>
  );
}

function TypeCards({ summary }: { summary: AccountingSummary }) {
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="accounting-by-type">
      {summary.byType.map((b) => (
        <div key={b.type} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
          <p className="text-xs font-semibold text-slate-500">{CARD_LABELS[b.type]}</p>
          <p className="mt-1 text-lg font-semibold tabular-nums text-slate-900">
            {formatMoney(b.totalCents)}
          </p>
          <p className="text-xs text-slate-500">
            {groupThousands(b.count)} CFDI · IVA {formatMoney(b.ivaCents)}
            {b.cancelled > 0 ? ` · ${b.cancelled} cancelado${b.cancelled === 1 ? '' : 's'}` : ''}
          </p>
        </div>
      ))}
    </div>
  );
}

function GlobalPanel({ summary }: { summary: AccountingSummary }) {
  return (
    <Panel
      title="Factura global"
      actions={
        <Link to="/admin/facturas" className="text-sm font-medium text-brand-700 hover:underline">
          Ir a facturas
        </Link>
      }
    >
      {summary.globals.length === 0 ? (
        <p className="text-sm text-slate-600">
          No hay factura global de {summary.period.label}. Se emite en las 72 horas siguientes al cierre del
          mes con las ventas pagadas sin factura.
        </p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm">
          {summary.globals.map((g) => (
            <li key={g.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span>
                <strong>{capitalized(g.period)}</strong> · {groupThousands(g.orders)}{' '}
                {g.orders === 1 ? 'pedido' : 'pedidos'} · {formatMoney(g.totalCents)}
                <span className="block text-xs text-slate-500">
                  {g.uuid ?? 'Timbrando…'} · {formatDateTime(g.issuedAt)}
                </span>
              </span>
              <Pill
                tone={
                  g.status === 'issued'
                    ? SAT_TONES.vigente
                    : g.status === 'cancelled'
                      ? SAT_TONES.cancelado
                      : SAT_TONES.en_proceso
                }
              >
                {g.statusLabel}
              </Pill>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

function ReconciliationPanel({ summary }: { summary: AccountingSummary }) {
  const { rows, mismatches } = summary.reconciliation;
  const papersOwed = rows.filter((r) => r.taxDueCents > 0);
  return (
    <Panel title="Conciliación con el libro de cada pedido">
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">Sin facturas ni notas de crédito en el periodo.</p>
      ) : mismatches === 0 ? (
        <Alert tone="success">
          Los {groupThousands(rows.length)} pedidos con facturas o notas de crédito del periodo cuadran con su
          libro: ingresos vigentes menos egresos vigentes = lo facturado menos lo acreditado.
        </Alert>
      ) : (
        <Alert tone="danger">
          {mismatches} de {rows.length} pedidos no cuadran con su libro; revíselos abajo.
        </Alert>
      )}
      {papersOwed.length > 0 && (
        <p className="mt-3 text-sm text-amber-800">
          {papersOwed.length === 1 ? 'Un pedido devolvió' : `${papersOwed.length} pedidos devolvieron`} dinero
          sin nota de crédito todavía: {papersOwed.map((r) => `#${r.orderNumber}`).join(', ')}.
        </p>
      )}
      {mismatches > 0 && (
        <div className="mt-4">
          <DataTable
            head={
              <tr>
                <th className={th}>Pedido</th>
                <th className={`${th} text-right`}>CFDI (ingresos − egresos)</th>
                <th className={`${th} text-right`}>Libro (facturado − acreditado)</th>
                <th className={`${th} text-right`}>Cobrado neto</th>
              </tr>
            }
          >
            {rows
              .filter((r) => !r.matches)
              .map((r) => (
                <tr key={r.orderNumber} data-testid="reconciliation-mismatch">
                  <td className={td}>
                    <Link className="text-brand-700 hover:underline" to={`/admin/pedidos/${r.orderNumber}`}>
                      #{r.orderNumber}
                    </Link>
                  </td>
                  <td className={`${td} text-right font-semibold tabular-nums text-red-700`}>
                    {formatMoney(r.cfdiNetCents)}
                  </td>
                  <td className={`${td} text-right tabular-nums`}>{formatMoney(r.ledgerNetCents)}</td>
                  <td className={`${td} text-right tabular-nums`}>{formatMoney(r.keptCents)}</td>
                </tr>
              ))}
          </DataTable>
        </div>
      )}
    </Panel>
  );
}

function ReceivablesPanel({ summary }: { summary: AccountingSummary }) {
  const { totals, institutions, asOf } = summary.receivables;
  return (
    <Panel
      title="Cuentas por cobrar"
      actions={
        <Link to="/admin/cuentas-por-cobrar" className="text-sm font-medium text-brand-700 hover:underline">
          Ver detalle
        </Link>
      }
    >
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {AGING_BUCKETS.map((b) => (
          <div key={b.key} className="rounded-lg bg-slate-50 p-3">
            <p className="text-xs font-semibold text-slate-500">{b.label}</p>
            <p className="font-semibold tabular-nums text-slate-900">{formatMoney(totals[b.key])}</p>
          </div>
        ))}
        <div className="rounded-lg bg-brand-700 p-3 text-white">
          <p className="text-xs font-semibold">Saldo total</p>
          <p className="font-semibold tabular-nums">{formatMoney(totals.balanceCents)}</p>
        </div>
      </div>
      <p className="mt-2 text-xs text-slate-500">
        Antigüedad de saldos de {groupThousands(institutions)} instituciones con línea de crédito, al{' '}
        {formatDateTime(asOf)}
      </p>
    </Panel>
  );
}

function CfdiTable({ summary }: { summary: AccountingSummary }) {
  return (
    <DataTable
      empty={summary.rows.length === 0 ? 'No hay CFDI timbrados en el periodo.' : null}
      head={
        <tr>
          <th className={th}>Tipo</th>
          <th className={th}>Serie y folio</th>
          <th className={th}>Fecha</th>
          <th className={th}>Receptor</th>
          <th className={`${th} text-right`}>Total</th>
          <th className={th}>Estado SAT</th>
        </tr>
      }
    >
      {summary.rows.map((r) => (
        <tr key={r.uuid} data-testid="cfdi-row">
          <td className={td}>
            {SHORT_TYPE[r.type]}
            {r.relationType && r.relationType !== 'pago' && (
              <span className="block text-xs text-slate-500">relación {r.relationType}</span>
            )}
          </td>
          <td className={td}>
            <span className="font-medium text-slate-900">{r.serieFolio}</span>
            <span className="block font-mono text-[11px] text-slate-500">{r.uuid}</span>
          </td>
          <td className={td}>{formatDateTime(r.fecha)}</td>
          <td className="max-w-48 px-4 py-3 text-slate-700">
            <span className="block truncate" title={r.receptorNombre}>
              {r.receptorNombre}
            </span>
            <span className="block text-xs text-slate-500">{r.receptorRfc}</span>
          </td>
          <td className={`${td} text-right tabular-nums`}>{formatMoney(r.totalCents)}</td>
          <td className={td}>
            <Pill tone={SAT_TONES[r.estadoSat]}>{SAT_STATE_LABELS[r.estadoSat]}</Pill>
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

/** «Contabilidad» (issue 36, decision 066): the accountant's month — downloads, report, global, reconciliation, aging. */
export function AccountingScreen() {
  useDocumentTitle('Contabilidad — Administración');
  const [period, setPeriod] = useState<PeriodChoice>({ month: lastMonth() });
  const [types, setTypes] = useState<CfdiType[]>([...CFDI_TYPES]);
  const complete = 'month' in period ? Boolean(period.month) : Boolean(period.from && period.to);
  const query = periodQuery(period, types, CFDI_TYPES.length);
  const { data, isPending, error } = useAccountingSummary(query, complete && types.length > 0);
  const noTypes = types.length === 0;
  // A period the server refuses (the end before the start, more than a year) downloads nothing: the links wait.
  const off = noTypes || !complete || error ? 'pointer-events-none opacity-60' : '';
  return (
    <>
      <ScreenTitle
        title="Contabilidad"
        subtitle="Los CFDI timbrados en el periodo (hora de la Ciudad de México): descarga de XML y PDF, reporte para el contador, factura global, conciliación con el libro de cada pedido y cuentas por cobrar."
      />
      <div className="space-y-6">
        <Panel>
          <PeriodPicker period={period} onPeriod={setPeriod} types={types} onTypes={setTypes} />
          <div className="mt-4 flex flex-wrap gap-3 border-t border-slate-100 pt-4">
            <a
              className={`${buttonClass.primary} ${off}`}
              href={`/api/admin/accounting/cfdi.zip?${query}`}
              download
            >
              Descargar ZIP (XML y PDF)
            </a>
            <a
              className={`${buttonClass.secondary} ${off}`}
              href={`/api/admin/accounting/report.xlsx?${query}`}
              download
            >
              Reporte Excel
            </a>
            <a
              className={`${buttonClass.secondary} ${off}`}
              href={`/api/admin/accounting/report.csv?${query}`}
              download
            >
              Reporte CSV
            </a>
          </div>
          {data && (
            <p className="mt-3 text-xs text-slate-500">
              Periodo: <span className="font-medium text-slate-700">{data.period.label}</span> (
              {formatDay(data.period.from)} – {formatDay(data.period.to)}). El ZIP incluye el reporte; la
              factura global va solo en XML.
            </p>
          )}
        </Panel>
        {noTypes && <Alert tone="warning">Elija al menos un tipo de CFDI.</Alert>}
        {isPending && complete && !noTypes && <Spinner />}
        {error && <Alert tone="danger">{error.message || 'No se pudo cargar el periodo.'}</Alert>}
        {data && !noTypes && (
          <>
            <TypeCards summary={data} />
            <ReconciliationPanel summary={data} />
            <div className="grid gap-6 xl:grid-cols-2">
              <GlobalPanel summary={data} />
              <ReceivablesPanel summary={data} />
            </div>
            <section>
              <h2 className="mb-3 text-base font-semibold text-slate-900">
                CFDI del periodo ({groupThousands(data.rows.length)})
              </h2>
              <CfdiTable summary={data} />
            </section>
          </>
        )}
      </div>
    </>
  );
}
