import type { DeliveryMethod } from '@/shared/delivery.ts';
import { formatMoney } from '@/shared/money.ts';
import type { CartQuote } from '@/shared/schemas/cart.ts';
import { shop } from '@/shared/shop.ts';

export type DeliveryPick = { method: DeliveryMethod; branch: number | null };

/**
 * 'Forma de entrega' (issue 35): parcel by ground, by air, or 'Recoger en sucursal' at one of the branches of
 * /sucursales with its hours. A way the hazardous-goods table forbids for this cart is shown disabled with the
 * reason; the server decides again when the order is placed.
 */
export function DeliveryChoice({
  delivery,
  value,
  onChange,
}: {
  delivery: CartQuote['delivery'] | undefined;
  value: DeliveryPick;
  onChange: (pick: DeliveryPick) => void;
}) {
  if (!delivery) return null;
  return (
    <section aria-labelledby="entrega" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="entrega" className="mb-3 font-semibold text-slate-900">
        Forma de entrega
      </h2>
      <fieldset className="grid gap-2">
        <legend className="sr-only">Forma de entrega</legend>
        {delivery.options.map((o) => {
          const refused = o.refusal !== null;
          return (
            <label
              key={o.method}
              className={`flex gap-3 rounded-lg border p-3 text-sm ${value.method === o.method ? 'border-brand-500 bg-brand-50' : 'border-slate-200'} ${refused ? 'cursor-not-allowed opacity-80' : 'cursor-pointer'}`}
            >
              <input
                type="radio"
                name="delivery-method"
                className="mt-0.5 size-4 accent-brand-700"
                value={o.method}
                checked={value.method === o.method}
                disabled={refused}
                onChange={() =>
                  onChange({ method: o.method, branch: o.method === 'pickup' ? (value.branch ?? 0) : null })
                }
              />
              <span className="min-w-0 flex-1">
                <span className="flex justify-between gap-2 font-medium text-slate-900">
                  {o.label}
                  <span className="tabular-nums">
                    {refused ? '—' : o.shippingCents === 0 ? 'Sin costo' : formatMoney(o.shippingCents)}
                  </span>
                </span>
                {refused ? (
                  <span
                    className="mt-0.5 block text-xs text-amber-800"
                    data-testid={`delivery-refusal-${o.method}`}
                  >
                    No disponible: {o.refusal}.
                  </span>
                ) : o.method !== 'pickup' && delivery.hazardous ? (
                  <span className="mt-0.5 block text-xs text-slate-600">
                    Incluye el cargo por manejo de materiales peligrosos.
                  </span>
                ) : null}
              </span>
            </label>
          );
        })}
      </fieldset>
      {value.method === 'pickup' ? (
        <div className="mt-3 grid gap-2">
          <label className="text-sm font-medium text-slate-800">
            Sucursal
            <select
              aria-label="Sucursal de recolección"
              className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
              value={value.branch ?? 0}
              onChange={(e) => onChange({ method: 'pickup', branch: Number(e.target.value) })}
            >
              {shop.branches.map((b, i) => (
                <option key={b.name} value={i}>
                  {b.name}
                </option>
              ))}
            </select>
          </label>
          {shop.branches[value.branch ?? 0] ? (
            <p className="text-xs leading-5 text-slate-600">
              {shop.branches[value.branch ?? 0]!.address}
              <br />
              Horario: {shop.branches[value.branch ?? 0]!.hours}. Le avisaremos por correo con su código
              cuando esté listo.
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
