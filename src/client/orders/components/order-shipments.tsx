import { toast } from 'sonner';
import { useSingleFlight } from '@/client/lib/use-single-flight.ts';
import { formatLongDate } from '@/shared/business-days.ts';
import { formatMoney } from '@/shared/money.ts';
import type { OrderDetail } from '@/shared/schemas/orders.ts';
import { useCancelBackorder } from '../api/cancel-backorder.ts';

/**
 * Issue 35: how the order reaches the buyer on the receipt — each shipment with what is in it, its carrier, guide
 * and tracking link and its dates; what is still awaited with its promised date; for a pickup, the branch, its hours
 * and the code to give at the counter.
 */
const dateTime = (iso: string) =>
  new Intl.DateTimeFormat('es-MX', { dateStyle: 'long', timeZone: 'America/Mexico_City' }).format(
    new Date(iso),
  );

export function OrderShipments({ order }: { order: OrderDetail }) {
  const d = order.delivery;
  const pending = d.lines.filter((l) => l.shipped + l.cancelled < l.quantity);
  const giveUp = useCancelBackorder(order.number);
  const flight = useSingleFlight();
  const priceOf = new Map(order.lines.map((l) => [l.code, l.unitPriceCents]));
  const pickup = d.method === 'pickup';
  if (d.shipments.length === 0 && !pickup && pending.every((l) => l.awaited === 0)) return null;
  return (
    <section aria-labelledby={`envios-${order.number}`} className="space-y-3" data-testid="receipt-shipments">
      <h3 id={`envios-${order.number}`} className="text-sm font-semibold text-slate-900">
        {pickup ? 'Recoger en sucursal' : `Envíos (${d.methodLabel.toLowerCase()})`}
      </h3>
      {pickup && d.branch ? (
        <div className="rounded-lg border border-brand-200 bg-brand-50 p-3 text-sm text-slate-800">
          <p className="font-semibold">{d.branch.name}</p>
          <p>{d.branch.address}</p>
          <p>Horario: {d.branch.hours}</p>
          {d.pickupCode ? (
            <p className="mt-2">
              Código de recolección:{' '}
              <span
                className="font-mono text-base font-bold tracking-widest text-brand-800"
                data-testid="pickup-code"
              >
                {d.pickupCode}
              </span>
            </p>
          ) : null}
          {d.collectedBy ? <p className="mt-2">Recogido por {d.collectedBy}.</p> : null}
        </div>
      ) : null}
      <ol className="grid gap-3">
        {d.shipments.map((s) => (
          <li
            key={s.seq}
            className="rounded-lg border border-slate-200 p-3 text-sm"
            data-testid="receipt-shipment"
          >
            <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
              <p className="font-semibold text-slate-900">
                {s.carrier === 'pickup'
                  ? `Parte ${s.seq} · en sucursal`
                  : `Envío ${s.seq} de ${d.shipments.length} · ${s.carrierName}`}
              </p>
              <p
                className={`rounded-full px-2 py-0.5 text-xs font-semibold ${s.deliveredAt ? 'bg-green-100 text-green-800' : 'bg-brand-100 text-brand-800'}`}
              >
                {s.deliveredAt
                  ? `${s.carrier === 'pickup' ? 'Recogido' : 'Entregado'} el ${dateTime(s.deliveredAt)}`
                  : s.carrier === 'pickup'
                    ? 'Listo para recoger'
                    : 'En camino'}
              </p>
            </div>
            {s.trackingNumber ? (
              <p className="mt-1 text-slate-700">
                Guía <span className="font-mono">{s.trackingNumber}</span>
                {s.trackingUrl ? (
                  <>
                    {' · '}
                    <a
                      href={s.trackingUrl}
                      target="_blank"
                      rel="noreferrer"
                      className="font-medium text-brand-700 underline"
                    >
                      Rastrear en {s.carrierName}
                    </a>
                  </>
                ) : null}
              </p>
            ) : null}
            <p className="text-xs text-slate-500">
              {s.carrier === 'pickup' ? 'En sucursal desde el' : 'Enviado el'} {dateTime(s.shippedAt)}
              {s.estimatedDelivery && !s.deliveredAt
                ? ` · entrega estimada: ${formatLongDate(s.estimatedDelivery)}`
                : ''}
            </p>
            <ul className="mt-2 space-y-0.5 text-slate-800">
              {s.lines.map((l) => (
                <li key={l.lineNo}>
                  {l.quantity} × {l.description}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
      {pending.length > 0 ? (
        <div
          className="rounded-lg border border-dashed border-slate-300 p-3 text-sm"
          data-testid="receipt-pending"
        >
          <p className="font-semibold text-slate-900">Por enviar</p>
          <ul className="mt-1 space-y-1 text-slate-800">
            {pending.map((l) => (
              <li key={l.lineNo}>
                {l.quantity - l.cancelled - l.shipped} × {l.description}
                <span className="block text-xs text-amber-800">
                  {l.awaited > 0
                    ? `${l.awaited} sobre pedido${l.delayed ? ', retrasado' : ''}${l.awaitedFrom && l.awaitedTo ? (l.awaitedFrom === l.awaitedTo ? `, entrega el ${formatLongDate(l.awaitedTo)}` : `, entrega entre el ${formatLongDate(l.awaitedFrom)} y el ${formatLongDate(l.awaitedTo)}`) : ''}`
                    : 'Listo: sale en el próximo envío'}
                </span>
                {l.delayed ? (
                  <button
                    type="button"
                    className="mt-1 rounded-md border border-red-300 bg-white px-2.5 py-1 text-xs font-semibold text-red-700 hover:bg-red-50 disabled:opacity-60"
                    disabled={flight.busy}
                    onClick={() =>
                      flight.run(() =>
                        giveUp.mutateAsync(l.lineNo, {
                          onSuccess: (data) => toast.success(data.message),
                          onError: (error) => toast.error(error.message),
                        }),
                      )
                    }
                  >
                    No esperar: cancelar {l.awaited} y reembolsar{' '}
                    {formatMoney(l.awaited * (priceOf.get(l.code) ?? 0))}
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
