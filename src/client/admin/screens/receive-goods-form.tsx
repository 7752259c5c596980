import { useState } from 'react';
import { useSingleFlight } from '@/client/lib/use-single-flight.ts';
import { useReceiveGoods } from '../api/shipments.ts';
import { buttonClass, FieldMessage, fieldClass, serverFields } from '../components/admin-ui.tsx';

/**
 * 'Recibir mercancía' (issue 35) for one product: quantity, lot and expiry (a reagent needs both). The server fills
 * the oldest backorders first and says what went where; the rest goes to stock.
 */
export function ReceiveGoodsForm({ code, awaited }: { code: string; awaited: number }) {
  const receive = useReceiveGoods();
  const flight = useSingleFlight();
  const [quantity, setQuantity] = useState(String(awaited));
  const [lot, setLot] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const fields = serverFields(receive.error);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    void flight.run(() =>
      receive.mutateAsync({
        code,
        quantity: Number(quantity),
        ...(lot.trim() ? { lot: lot.trim() } : {}),
        ...(expiresOn ? { expiresOn } : {}),
      }),
    );
  };
  return (
    <form
      onSubmit={submit}
      className="mt-2 grid grid-cols-2 gap-2 rounded-lg bg-slate-50 p-3 sm:grid-cols-[6rem_minmax(0,1fr)_10rem_auto] sm:items-end"
      aria-label={`Recibir mercancía de ${code}`}
      noValidate
    >
      <label className="text-xs font-medium text-slate-600">
        Cantidad
        <input
          className={`${fieldClass} mt-1`}
          inputMode="numeric"
          value={quantity}
          onChange={(e) => setQuantity(e.target.value)}
          aria-invalid={Boolean(fields.quantity)}
        />
        <FieldMessage message={fields.quantity} />
      </label>
      <label className="text-xs font-medium text-slate-600">
        Lote
        <input
          className={`${fieldClass} mt-1`}
          value={lot}
          onChange={(e) => setLot(e.target.value)}
          aria-invalid={Boolean(fields.lot)}
        />
        <FieldMessage message={fields.lot} />
      </label>
      <label className="col-span-2 text-xs font-medium text-slate-600 sm:col-span-1">
        Caducidad
        <input
          type="date"
          className={`${fieldClass} mt-1`}
          value={expiresOn}
          onChange={(e) => setExpiresOn(e.target.value)}
          aria-invalid={Boolean(fields.expiresOn)}
        />
        <FieldMessage message={fields.expiresOn} />
      </label>
      <button
        type="submit"
        className={`${buttonClass.secondary} col-span-2 sm:col-span-1`}
        disabled={flight.busy}
      >
        {flight.busy ? 'Registrando…' : 'Registrar recepción'}
      </button>
      {receive.error && Object.keys(fields).length === 0 ? (
        <p className="col-span-full text-xs text-red-600">{receive.error.message}</p>
      ) : null}
    </form>
  );
}
