import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { ApiError } from '@/client/lib/api-client.ts';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { daysLeftLabel, RUN_OUT_HORIZON_DAYS, SALES_WINDOW_DAYS } from '@/shared/low-stock.ts';
import { groupThousands } from '@/shared/money.ts';
import type { LowStockItem } from '@/shared/schemas/low-stock.ts';
import { useLowStock, useSetReorderPoint } from '../api/low-stock.ts';
import { buttonClass, DataTable, fieldClass, ScreenTitle, td, th } from '../components/admin-ui.tsx';

/** How urgent the days left look: out or within a week in red, within the horizon in amber, no sales in grey. */
function DaysLeft({ days }: { days: number | null }) {
  const tone =
    days === null
      ? 'bg-slate-100 text-slate-600 ring-slate-300'
      : days <= 7
        ? 'bg-red-50 text-red-700 ring-red-200'
        : days < RUN_OUT_HORIZON_DAYS
          ? 'bg-amber-50 text-amber-800 ring-amber-300'
          : 'bg-sky-50 text-sky-800 ring-sky-200';
  return (
    <span
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${tone}`}
    >
      {daysLeftLabel(days)}
    </span>
  );
}

/** The reorder point of one presentation: its own, or the shop's default; saved on «Guardar». */
function ReorderPointEditor({ item, defaultPoint }: { item: LowStockItem; defaultPoint: number }) {
  const save = useSetReorderPoint();
  const [value, setValue] = useState(item.reorderPoint === null ? '' : String(item.reorderPoint));
  const submit = async (reorderPoint: number | null) => {
    try {
      toast.success((await save.mutateAsync({ code: item.code, reorderPoint })).message);
    } catch (error) {
      toast.error(error instanceof ApiError ? error.message : 'No se pudo guardar el punto de reorden');
    }
  };
  const text = value.trim();
  // Empty: back to the default. Anything but whole units is refused here as the server would (never sent as null).
  const typed = text === '' ? null : /^\d+$/.test(text) ? Number(text) : Number.NaN;
  return (
    <form
      className="flex items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (Number.isNaN(typed)) toast.error('Escriba el punto de reorden como un número entero de piezas');
        else void submit(typed);
      }}
    >
      <input
        aria-label={`Punto de reorden de ${item.code}`}
        inputMode="numeric"
        className={`${fieldClass} w-20 text-right`}
        placeholder={String(defaultPoint)}
        value={value}
        onChange={(e) => setValue(e.target.value)}
      />
      <button
        type="submit"
        className="text-sm font-semibold text-brand-700 hover:underline disabled:opacity-50"
        disabled={save.isPending || typed === item.reorderPoint}
      >
        Guardar
      </button>
    </form>
  );
}

/** 'Por agotarse' (issue 36, decision 066): what to reorder first, by days of stock left. */
export function LowStockScreen() {
  useDocumentTitle('Por agotarse — Administración');
  const { data, isPending, error } = useLowStock();
  return (
    <>
      <ScreenTitle
        title="Por agotarse"
        subtitle={`Presentaciones en su punto de reorden o que se agotan en menos de ${RUN_OUT_HORIZON_DAYS} días al ritmo de ventas de los últimos ${SALES_WINDOW_DAYS} días. Primero lo que se acaba antes. Almacén recibe este resumen por correo cada mañana.`}
      />
      {isPending && <Spinner />}
      {error && <Alert tone="danger">No se pudo cargar la lista.</Alert>}
      {data && (
        <div className="space-y-4">
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="low-stock-totals">
            <div className="rounded-xl border border-slate-200 bg-white p-3 shadow-sm">
              <p className="text-xs font-semibold text-slate-500">Por agotarse</p>
              <p className="text-lg font-semibold text-slate-900">{groupThousands(data.items.length)}</p>
            </div>
            <div className="rounded-xl border border-slate-200 bg-white p-3 shadow-sm">
              <p className="text-xs font-semibold text-slate-500">Agotadas</p>
              <p className="text-lg font-semibold text-red-700">
                {groupThousands(data.items.filter((i) => i.stock === 0).length)}
              </p>
            </div>
            <div className="rounded-xl border border-slate-200 bg-white p-3 shadow-sm">
              <p className="text-xs font-semibold text-slate-500">Sin ventas en {SALES_WINDOW_DAYS} días</p>
              <p className="text-lg font-semibold text-slate-900">
                {groupThousands(data.items.filter((i) => i.daysLeft === null).length)}
              </p>
            </div>
            <div className="rounded-xl border border-slate-200 bg-white p-3 shadow-sm">
              <p className="text-xs font-semibold text-slate-500">Punto de reorden predeterminado</p>
              <p className="text-lg font-semibold text-slate-900">{data.defaultReorderPoint} pzas.</p>
            </div>
          </div>
          <DataTable
            empty={
              data.items.length === 0
                ? 'Nada por agotarse: todas las presentaciones tienen existencia.'
                : null
            }
            head={
              <tr>
                <th className={th}>Producto</th>
                <th className={`${th} text-right`}>Existencia</th>
                <th className={`${th} text-right`}>Vendidas ({SALES_WINDOW_DAYS} días)</th>
                <th className={th}>Días de existencia</th>
                <th className={th}>Punto de reorden</th>
              </tr>
            }
          >
            {data.items.map((item) => (
              <tr key={item.code} data-testid="low-stock-row">
                <td className="px-4 py-3 text-slate-700">
                  <Link
                    to={`/admin/productos/${encodeURIComponent(item.code)}`}
                    className="font-medium text-slate-900 hover:text-brand-700 hover:underline"
                  >
                    {item.name}
                  </Link>
                  <span className="block text-xs text-slate-500">
                    {item.code}
                    {item.presentationLabel ? ` · ${item.presentationLabel}` : ''}
                    {item.backorderable ? ' · sobre pedido' : ''}
                  </span>
                </td>
                <td className={`${td} text-right font-semibold tabular-nums text-slate-900`}>
                  {groupThousands(item.stock)}
                </td>
                <td className={`${td} text-right tabular-nums`}>{groupThousands(item.soldLast90Days)}</td>
                <td className={td}>
                  <DaysLeft days={item.daysLeft} />
                  {item.reason === 'projected' && (
                    <span className="ml-2 text-xs text-slate-500">
                      arriba del punto, pero se agota pronto
                    </span>
                  )}
                </td>
                <td className={td}>
                  <ReorderPointEditor item={item} defaultPoint={data.defaultReorderPoint} />
                  <span className="mt-1 block text-xs text-slate-500">
                    {item.reorderPoint === null
                      ? `Predeterminado (${data.defaultReorderPoint})`
                      : 'Propio; vacío = predeterminado'}
                  </span>
                </td>
              </tr>
            ))}
          </DataTable>
          <div className="flex justify-end">
            <Link to="/admin/productos" className={buttonClass.secondary}>
              Ir a productos
            </Link>
          </div>
        </div>
      )}
    </>
  );
}
