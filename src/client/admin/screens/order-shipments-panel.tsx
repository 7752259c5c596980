import { useState } from 'react';
import { useSingleFlight } from '@/client/lib/use-single-flight.ts';
import { Alert } from '@/client/ui/alert.tsx';
import { CARRIERS, type CarrierId } from '@/shared/carriers.ts';
import type { AdminOrderDetail } from '@/shared/schemas/admin.ts';
import { shop } from '@/shared/shop.ts';
import { useShipmentAction } from '../api/shipments.ts';
import {
  buttonClass,
  FieldMessage,
  fieldClass,
  formatDateTime,
  formatDay,
  Panel,
  serverFields,
} from '../components/admin-ui.tsx';
import { useCan } from '../components/permissions.tsx';
import { ReceiveGoodsForm } from './receive-goods-form.tsx';

/**
 * Issue 35: an order's shipments on its screen — per line what left, what is ready and what is awaited (with the
 * goods-received form), each shipment with its guide and link, and the next shipment (or, for a pickup, 'Listo para
 * recoger' and 'Recogido').
 */
const MAY_SHIP = ['paid', 'preparing', 'partially_shipped'];
const OFFERED = CARRIERS.filter((c) => (shop.shipping.carriers as readonly string[]).includes(c.id));

function NewShipment({ order }: { order: AdminOrderDetail }) {
  const action = useShipmentAction(order.number);
  const flight = useSingleFlight();
  const ready = order.delivery.lines.filter((l) => l.ready > 0);
  const [carrier, setCarrier] = useState<CarrierId>(OFFERED[0]!.id);
  const [trackingNumber, setTracking] = useState('');
  const [estimatedDelivery, setEstimated] = useState('');
  const [quantities, setQuantities] = useState<Record<number, string>>(() =>
    Object.fromEntries(ready.map((l) => [l.lineNo, String(l.ready)])),
  );
  const fields = serverFields(action.error);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const lines = ready
      .map((l) => ({ lineNo: l.lineNo, quantity: Number(quantities[l.lineNo] ?? 0) }))
      .filter((l) => l.quantity > 0);
    void flight.run(() =>
      action.mutateAsync({
        kind: 'ship',
        body: { carrier, trackingNumber, lines, ...(estimatedDelivery ? { estimatedDelivery } : {}) },
      }),
    );
  };
  return (
    <form
      onSubmit={submit}
      className="grid gap-3 border-t border-slate-100 pt-4"
      aria-label="Nuevo envío"
      noValidate
    >
      <h3 className="text-sm font-semibold text-slate-900">Nuevo envío con lo listo</h3>
      <ul className="grid gap-2 text-sm">
        {ready.map((l) => (
          <li key={l.lineNo} className="grid grid-cols-[minmax(0,1fr)_5rem] items-center gap-3">
            <span className="min-w-0 break-words">
              {l.description} <span className="text-slate-500">(listas: {l.ready})</span>
            </span>
            <input
              className={fieldClass}
              inputMode="numeric"
              aria-label={`Cantidad a enviar de ${l.description}`}
              value={quantities[l.lineNo] ?? ''}
              onChange={(e) => setQuantities((q) => ({ ...q, [l.lineNo]: e.target.value }))}
            />
          </li>
        ))}
      </ul>
      <div className="grid gap-3 sm:grid-cols-3">
        <label className="text-sm font-medium text-slate-700">
          Paquetería
          <select
            className={`${fieldClass} mt-1`}
            value={carrier}
            onChange={(e) => setCarrier(e.target.value as CarrierId)}
          >
            {OFFERED.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
          <FieldMessage message={fields.carrier} />
        </label>
        <label className="text-sm font-medium text-slate-700">
          Número de guía
          <input
            className={`${fieldClass} mt-1 font-mono`}
            value={trackingNumber}
            onChange={(e) => setTracking(e.target.value)}
            aria-invalid={Boolean(fields.trackingNumber)}
          />
          <FieldMessage message={fields.trackingNumber} />
        </label>
        <label className="text-sm font-medium text-slate-700">
          Entrega estimada
          <input
            type="date"
            className={`${fieldClass} mt-1`}
            value={estimatedDelivery}
            onChange={(e) => setEstimated(e.target.value)}
            aria-invalid={Boolean(fields.estimatedDelivery)}
          />
          <FieldMessage message={fields.estimatedDelivery} />
        </label>
      </div>
      {action.error && Object.keys(fields).length === 0 ? (
        <Alert tone="danger">{action.error.message}</Alert>
      ) : null}
      <button type="submit" className={buttonClass.primary} disabled={flight.busy}>
        {flight.busy ? 'Registrando…' : 'Registrar envío y avisar al cliente'}
      </button>
    </form>
  );
}

function PickupActions({ order }: { order: AdminOrderDetail }) {
  const action = useShipmentAction(order.number);
  const flight = useSingleFlight();
  const [form, setForm] = useState({ code: '', name: '', idDocument: '' });
  const fields = serverFields(action.error);
  const ready = order.delivery.lines.some((l) => l.ready > 0) && MAY_SHIP.includes(order.status);
  const waiting = order.delivery.shipments.some((s) => s.carrier === 'pickup' && !s.deliveredAt);
  const field = (key: keyof typeof form, label: string) => (
    <label className="text-sm font-medium text-slate-700">
      {label}
      <input
        className={`${fieldClass} mt-1`}
        value={form[key]}
        onChange={(e) => setForm((f) => ({ ...f, [key]: e.target.value }))}
        aria-invalid={Boolean(fields[key])}
      />
      <FieldMessage message={fields[key]} />
    </label>
  );
  return (
    <div className="grid gap-3 border-t border-slate-100 pt-4">
      {ready ? (
        <button
          type="button"
          className={buttonClass.primary}
          disabled={flight.busy}
          onClick={() => flight.run(() => action.mutateAsync({ kind: 'pickup-ready' }))}
        >
          Marcar «Listo para recoger» y enviar el código al cliente
        </button>
      ) : null}
      {waiting ? (
        <form
          aria-label="Entregar en sucursal"
          className="grid gap-3 sm:grid-cols-3"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void flight.run(() => action.mutateAsync({ kind: 'pickup-collected', body: form }));
          }}
        >
          {field('code', 'Código de recolección')}
          {field('name', 'Nombre de quien recoge')}
          {field('idDocument', 'Identificación (tipo y número)')}
          <button type="submit" className={`${buttonClass.primary} sm:col-span-3`} disabled={flight.busy}>
            Marcar «Recogido»
          </button>
        </form>
      ) : null}
      {action.error && Object.keys(fields).length === 0 ? (
        <Alert tone="danger">{action.error.message}</Alert>
      ) : null}
    </div>
  );
}

export function OrderShipmentsPanel({ order }: { order: AdminOrderDetail }) {
  const action = useShipmentAction(order.number);
  const flight = useSingleFlight();
  const d = order.delivery;
  // Shipping and receiving goods are almacén's: hidden from other roles (the server refuses them anyway).
  const can = useCan();
  const fulfil = can('pedidos.surtir');
  const canShip = fulfil && MAY_SHIP.includes(order.status) && d.lines.some((l) => l.ready > 0);
  return (
    <Panel title={`Envíos · ${d.methodLabel}${d.branch ? ` · ${d.branch.name}` : ''}`}>
      <div className="overflow-x-auto">
        <table className="min-w-full text-sm" data-testid="admin-line-progress">
          <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th className="py-2 pr-3">Artículo</th>
              <th className="py-2 pr-2 text-right" title="Pedido">
                Cant.
              </th>
              <th className="py-2 pr-2 text-right" title="Enviado">
                Env.
              </th>
              <th className="py-2 pr-2 text-right" title="Listo para enviar">
                Listo
              </th>
              <th className="py-2 text-right" title="Sobre pedido, por llegar">
                Falta
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {d.lines.map((l) => (
              <tr key={l.lineNo} className="align-top">
                <td className="py-2 pr-3">
                  {l.description}
                  {l.awaited > 0 ? (
                    <>
                      <span className="block text-xs text-amber-800">
                        Sobre pedido: {l.awaited}
                        {l.awaitedTo ? `, prometido a más tardar el ${formatDay(l.awaitedTo)}` : ''}
                      </span>
                      {can('existencias.gestionar') ? (
                        <ReceiveGoodsForm code={l.code} awaited={l.awaited} />
                      ) : null}
                    </>
                  ) : null}
                </td>
                <td className="py-2 pr-2 text-right tabular-nums">{l.quantity}</td>
                <td className="py-2 pr-2 text-right tabular-nums">{l.shipped}</td>
                <td className="py-2 pr-2 text-right tabular-nums">{l.ready}</td>
                <td className="py-2 text-right tabular-nums">{l.awaited}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {d.shipments.length > 0 ? (
        <ol className="mt-4 grid gap-3" aria-label="Envíos registrados">
          {d.shipments.map((s) => (
            <li
              key={s.seq}
              className="rounded-lg border border-slate-200 p-3 text-sm"
              data-testid="admin-shipment"
            >
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <p className="font-semibold text-slate-900">
                  Envío {s.seq} · {s.carrierName}
                  {s.trackingNumber ? (
                    <>
                      {' · '}
                      {s.trackingUrl ? (
                        <a
                          href={s.trackingUrl}
                          target="_blank"
                          rel="noreferrer"
                          className="font-mono text-brand-700 underline"
                        >
                          {s.trackingNumber}
                        </a>
                      ) : (
                        <span className="font-mono">{s.trackingNumber}</span>
                      )}
                    </>
                  ) : null}
                </p>
                <span className="text-xs text-slate-500">
                  {s.carrier === 'pickup' ? 'En sucursal desde' : 'Salió'} {formatDateTime(s.shippedAt)}
                  {s.deliveredAt
                    ? ` · ${s.carrier === 'pickup' ? 'recogido' : 'entregado'} ${formatDateTime(s.deliveredAt)}`
                    : ''}
                </span>
              </div>
              <ul className="mt-1 text-slate-700">
                {s.lines.map((l) => (
                  <li key={l.lineNo}>
                    {l.quantity} × {l.description}
                  </li>
                ))}
              </ul>
              {fulfil && !s.deliveredAt && s.carrier !== 'pickup' ? (
                <button
                  type="button"
                  className={`${buttonClass.secondary} mt-2`}
                  disabled={flight.busy}
                  onClick={() => flight.run(() => action.mutateAsync({ kind: 'delivered', seq: s.seq }))}
                >
                  Marcar entregado
                </button>
              ) : null}
            </li>
          ))}
        </ol>
      ) : null}
      {d.collectedBy ? (
        <p className="mt-3 text-sm text-slate-700">
          Recogido por <strong>{d.collectedBy}</strong> el {formatDateTime(d.collectedAt)}.
        </p>
      ) : null}
      {action.error ? <Alert tone="danger">{action.error.message}</Alert> : null}
      <div className="mt-4">
        {d.method === 'pickup' ? (
          fulfil ? (
            <PickupActions order={order} />
          ) : null
        ) : canShip ? (
          <NewShipment order={order} />
        ) : null}
      </div>
    </Panel>
  );
}
