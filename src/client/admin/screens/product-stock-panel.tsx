import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { Alert } from '@/client/ui/alert.tsx';
import {
  type AdminProduct,
  type StockAdjustmentInput,
  stockAdjustmentSchema,
} from '@/shared/schemas/admin.ts';
import { adjustStock } from '../api/adjust-stock.ts';
import { useMovements } from '../api/get-movements.ts';
import { useProductMutation } from '../api/save-product.ts';
import {
  buttonClass,
  FieldMessage,
  fieldClass,
  formatDateTime,
  Panel,
  serverFields,
} from '../components/admin-ui.tsx';

export function ProductStockPanel({ product }: { product: AdminProduct }) {
  const movements = useMovements(product.code);
  const adjust = useProductMutation((body: StockAdjustmentInput) => adjustStock(product.code, body));
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<StockAdjustmentInput>({
    resolver: zodResolver(stockAdjustmentSchema, undefined, { raw: true }),
    defaultValues: { delta: '', reason: '' },
  });
  const fields = serverFields(adjust.error);
  const deltaError = errors.delta?.message ?? fields.delta;
  const reasonError = errors.reason?.message ?? fields.reason;
  const submit = handleSubmit((body) =>
    adjust.mutate(body, {
      onSuccess: (d) => {
        toast.success(d.message);
        reset();
      },
    }),
  );
  return (
    <Panel title={`Existencia: ${product.stock}`}>
      <form onSubmit={submit} className="grid gap-3" aria-label="Ajuste de existencia" noValidate>
        <div className="grid grid-cols-[7rem_1fr] gap-3">
          <label className="text-sm font-medium text-slate-700">
            Cantidad
            <input
              className={`${fieldClass} mt-1`}
              inputMode="numeric"
              placeholder="+10 o -2"
              aria-invalid={Boolean(deltaError)}
              {...register('delta', {
                onChange: (e) => {
                  e.target.value = e.target.value.replace(/[^\d+-]/g, '');
                },
              })}
            />
          </label>
          <label className="text-sm font-medium text-slate-700">
            Motivo
            <input
              className={`${fieldClass} mt-1`}
              placeholder="Recepción, merma, conteo…"
              aria-invalid={Boolean(reasonError)}
              {...register('reason')}
            />
          </label>
        </div>
        <FieldMessage message={deltaError ?? reasonError} />
        {adjust.error && !fields.delta && !fields.reason ? (
          <Alert tone="danger">{adjust.error.message}</Alert>
        ) : null}
        <button type="submit" className={buttonClass.secondary} disabled={adjust.isPending}>
          Ajustar existencia
        </button>
      </form>
      <h3 className="mt-5 text-sm font-semibold text-slate-900">Movimientos</h3>
      {movements.data ? (
        movements.data.movements.length === 0 ? (
          <p className="mt-2 text-sm text-slate-500">Sin movimientos.</p>
        ) : (
          <ul className="mt-2 max-h-80 divide-y divide-slate-100 overflow-y-auto text-sm">
            {movements.data.movements.map((m) => (
              <li key={m.id} className="flex items-start justify-between gap-3 py-2">
                <span className="min-w-0">
                  <span className="block font-medium text-slate-800">
                    {m.reasonLabel}
                    {m.orderNumber ? ` #${m.orderNumber}` : ''}
                  </span>
                  <span className="block text-xs text-slate-500">
                    {formatDateTime(m.createdAt)}
                    {m.actor ? ` · ${m.actor}` : ''}
                  </span>
                  {m.note ? <span className="block break-words text-xs text-slate-600">{m.note}</span> : null}
                </span>
                <span
                  className={`shrink-0 font-semibold tabular-nums ${m.delta > 0 ? 'text-green-700' : 'text-red-700'}`}
                >
                  {m.delta > 0 ? `+${m.delta}` : m.delta}
                </span>
              </li>
            ))}
          </ul>
        )
      ) : (
        <p className="mt-2 text-sm text-slate-500">Cargando…</p>
      )}
    </Panel>
  );
}
