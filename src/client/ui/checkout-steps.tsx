import { Link } from 'react-router';

const steps = [
  { n: 1, label: 'Revisar carrito', to: '/carrito' },
  { n: 2, label: 'Datos de domicilio', to: '/envio' },
  { n: 3, label: 'Pago', to: null },
] as const;

/**
 * The checkout progress bar (spec §2): 'Revisar carrito' (/carrito) → 'Datos de domicilio' (/envio) → 'Pago'.
 * Steps already passed are links back; the current one is marked; later ones are plain text.
 */
export function CheckoutSteps({
  current,
  completed,
}: {
  current: 1 | 2 | 3;
  /** The steps really done (a cart with products, a saved address); by default every step before `current`. */
  completed?: readonly number[];
}) {
  return (
    <nav aria-label="Pasos de la compra" className="mb-6">
      <ol className="flex items-start">
        {steps.map((step, i) => {
          const done = completed ? completed.includes(step.n) && step.n !== current : step.n < current;
          const active = step.n === current;
          const circle = `flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-bold ${
            active
              ? 'bg-brand-700 text-white ring-4 ring-brand-100'
              : done
                ? 'bg-accent-500 text-white'
                : 'border-2 border-slate-300 bg-white text-slate-500'
          }`;
          const label = `text-center text-xs sm:text-sm ${active ? 'font-semibold text-brand-800' : done ? 'text-slate-700' : 'text-slate-500'}`;
          const body = (
            <>
              <span className={circle} aria-hidden="true">
                {done ? '✓' : step.n}
              </span>
              <span className={label}>{step.label}</span>
            </>
          );
          return (
            <li key={step.n} className="relative flex flex-1 flex-col items-center">
              {i > 0 && (
                <span
                  aria-hidden="true"
                  className={`absolute right-1/2 top-4 h-0.5 w-full ${step.n <= current && (!completed || completed.includes(step.n - 1)) ? 'bg-accent-500' : 'bg-slate-200'}`}
                />
              )}
              {done && step.to ? (
                <Link
                  to={step.to}
                  className="relative z-10 flex flex-col items-center gap-1.5 hover:underline"
                >
                  {body}
                </Link>
              ) : (
                <span
                  className="relative z-10 flex flex-col items-center gap-1.5"
                  aria-current={active ? 'step' : undefined}
                >
                  {body}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
