import { useState } from 'react';
import { Link } from 'react-router';
import { addAtTodaysPrices, type LineToAdd } from '@/client/lib/add-at-todays-prices.ts';
import { ApiError } from '@/client/lib/api-client.ts';

type Outcome = { added: number; changes: string[] } | { error: string };

/**
 * A button that adds lines to the cart at today's prices ('Volver a comprar', a saved list's 'Agregar todo al
 * carrito') and says what was added and what changed — price, no longer sold, less stock, the cart's maximum.
 */
export function AddAtTodaysPricesButton({
  label,
  load,
  className,
  testId,
}: {
  label: string;
  /** The lines to add (read when the button is pressed). */
  load: () => Promise<LineToAdd[]>;
  className: string;
  testId: string;
}) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  async function run() {
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome(await addAtTodaysPrices(await load()));
    } catch (e) {
      setOutcome({
        error:
          e instanceof ApiError ? e.message : 'No pudimos consultar los precios de hoy. Intente de nuevo.',
      });
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      <button
        type="button"
        onClick={() => void run()}
        disabled={busy}
        className={className}
        data-testid={testId}
      >
        {busy ? 'Agregando…' : label}
      </button>
      {outcome && (
        <div role="status" className="basis-full text-sm" data-testid={`${testId}-result`}>
          {'error' in outcome ? (
            <p className="text-red-700">{outcome.error}</p>
          ) : (
            <>
              <p className="text-slate-800">
                {outcome.added === 0
                  ? 'No se agregó ningún producto.'
                  : `Se ${outcome.added === 1 ? 'agregó 1 producto' : `agregaron ${outcome.added} productos`} al carrito a los precios de hoy.`}{' '}
                {outcome.added > 0 && (
                  <Link to="/carrito" className="font-semibold text-brand-700 hover:underline">
                    Ver carrito
                  </Link>
                )}
              </p>
              {outcome.changes.length > 0 && (
                <ul className="mt-1 list-disc pl-5 text-amber-900">
                  {outcome.changes.map((c) => (
                    <li key={c}>{c}</li>
                  ))}
                </ul>
              )}
            </>
          )}
        </div>
      )}
    </>
  );
}
