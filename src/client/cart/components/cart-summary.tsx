import { formatDecimal, formatMoney } from '@/shared/money.ts';

export type SummaryAmounts = {
  subtotalCents: number;
  shippingCents: number;
  ivaCents: number | null;
  totalCents: number;
  weightKg: number | null;
};

/** 'Subtotal', 'Envío', 'Total de orden' (spec §2), amounts from the server's quote. */
export function CartSummary({
  amounts,
  busy,
  children,
}: {
  amounts: SummaryAmounts;
  busy: boolean;
  children: React.ReactNode;
}) {
  const row = 'flex items-baseline justify-between gap-4';
  return (
    <section
      aria-labelledby="resumen-titulo"
      aria-busy={busy}
      data-testid="cart-summary"
      className="self-start rounded-lg border border-slate-200 bg-slate-50 p-5 lg:sticky lg:top-36"
    >
      <h2 id="resumen-titulo" className="mb-4 text-lg font-semibold text-slate-900">
        Resumen de la orden
      </h2>
      <dl className={`space-y-2 text-sm transition-opacity ${busy ? 'opacity-60' : ''}`}>
        <div className={row}>
          <dt className="text-slate-600">Subtotal</dt>
          <dd className="font-medium text-slate-900" data-testid="summary-subtotal">
            {formatMoney(amounts.subtotalCents)}
          </dd>
        </div>
        <div className={row}>
          <dt className="text-slate-600">
            Envío
            {amounts.weightKg !== null && amounts.weightKg > 0 && (
              <span className="block text-xs text-slate-500">
                Peso estimado: {formatDecimal(amounts.weightKg)} kg
              </span>
            )}
          </dt>
          <dd className="font-medium text-slate-900" data-testid="summary-shipping">
            {formatMoney(amounts.shippingCents)}
          </dd>
        </div>
        <div className={`${row} border-t border-slate-200 pt-3 text-base`}>
          <dt className="font-semibold text-slate-900">Total de orden</dt>
          <dd className="font-bold text-slate-900" data-testid="summary-total">
            {formatMoney(amounts.totalCents)}
          </dd>
        </div>
      </dl>
      {/* Outside the <dl>: a definition list may only hold dt/dd groups (axe 'definition-list'). */}
      {amounts.ivaCents !== null && (
        <p
          className={`mt-2 text-right text-xs text-slate-500 transition-opacity ${busy ? 'opacity-60' : ''}`}
          data-testid="summary-iva"
        >
          Incluye IVA por {formatMoney(amounts.ivaCents)}
        </p>
      )}
      <div className="mt-5 flex flex-col gap-3">{children}</div>
    </section>
  );
}
