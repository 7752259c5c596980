import { useState } from 'react';
import { useSingleFlight } from '@/client/lib/use-single-flight.ts';
import { Alert } from '@/client/ui/alert.tsx';
import { useAbandonOrder } from '../api/cancel-order.ts';

/**
 * Under the payment instructions of an unpaid SPEI/store order: the buyer who will not pay says so, and the units
 * the order holds go back to the shop at once instead of at the deadline (issue 37). Asks before it acts.
 */
export function AbandonOrder({ number }: { number: number }) {
  const abandon = useAbandonOrder();
  const flight = useSingleFlight();
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <p className="text-sm text-slate-600">
        ¿Ya no va a pagar este pedido?{' '}
        <button
          type="button"
          className="font-medium text-brand-700 underline hover:text-brand-800"
          onClick={() => setAsking(true)}
        >
          Cancelar el pedido
        </button>
      </p>
    );
  }
  return (
    <section
      aria-label="Cancelar el pedido sin pagar"
      className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900"
    >
      <p>
        La referencia de pago dejará de valer y las piezas apartadas volverán a estar disponibles. No haga la
        transferencia ni el pago después de cancelar.
      </p>
      {abandon.error ? (
        <div className="mt-3">
          <Alert tone="danger">{abandon.error.message}</Alert>
        </div>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        <button
          type="button"
          className="rounded-lg bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800 disabled:opacity-60"
          disabled={flight.busy}
          onClick={() => flight.run(() => abandon.mutateAsync(number))}
        >
          {flight.busy ? 'Cancelando…' : 'Sí, cancelar el pedido'}
        </button>
        <button
          type="button"
          className="rounded-lg border border-slate-300 bg-white px-4 py-2 font-medium text-slate-700 hover:bg-slate-50"
          onClick={() => setAsking(false)}
        >
          No, lo voy a pagar
        </button>
      </div>
    </section>
  );
}
