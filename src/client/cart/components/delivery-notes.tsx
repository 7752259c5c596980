import type { CartQuote } from '@/shared/schemas/cart.ts';

/**
 * Issue 35: what the cart tells before checkout about the ways it may travel — a hazardous reagent that cannot go
 * by air (or by parcel at all), and the surcharge its handling adds.
 */
export function DeliveryNotes({ delivery }: { delivery: CartQuote['delivery'] | undefined }) {
  const refused = delivery?.options.filter((o) => o.refusal !== null) ?? [];
  if (!delivery || (refused.length === 0 && !delivery.hazardous)) return null;
  return (
    <div
      className="mt-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
      data-testid="cart-delivery-notes"
    >
      <p className="font-semibold">Envío de materiales peligrosos</p>
      <ul className="mt-1 list-disc space-y-0.5 pl-5">
        {refused.map((o) => (
          <li key={o.method}>
            {o.label}: {o.refusal}.
          </li>
        ))}
        <li>El envío por paquetería incluye un cargo por su manejo; recogerlo en sucursal no tiene costo.</li>
      </ul>
    </div>
  );
}
