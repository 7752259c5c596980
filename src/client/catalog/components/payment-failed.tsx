import { Link } from 'react-router';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { shop } from '@/shared/shop.ts';

/** /?payment_failed=1 — where the card gateway sends the shopper back after a failed payment. */
export function PaymentFailed() {
  useDocumentTitle(`Error de pago | ${shop.legalName}`);
  return (
    <div className="mx-auto max-w-2xl px-4 py-16 sm:py-24">
      <div className="rounded-xl border border-red-200 bg-white p-6 text-center shadow-sm sm:p-10">
        <div className="mx-auto flex size-14 items-center justify-center rounded-full bg-red-50 text-red-700">
          <svg
            viewBox="0 0 24 24"
            className="size-8"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            aria-hidden="true"
          >
            <circle cx="12" cy="12" r="9" />
            <path d="M12 7.5v5.5M12 16.5h.01" strokeLinecap="round" />
          </svg>
        </div>
        <h1 className="mt-5 text-2xl font-semibold text-slate-900 sm:text-3xl">Error de pago</h1>
        <p className="mt-3 text-slate-700">
          No fue posible completar el pago de su pedido. Puede intentarlo de nuevo con la misma u otra
          tarjeta, o comunicarse con nosotros y con gusto le ayudamos a terminar su compra.
        </p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Link
            to="/orden"
            className="rounded-md bg-brand-700 px-5 py-2.5 font-medium text-white hover:bg-brand-800"
          >
            Intentar de nuevo
          </Link>
          <Link
            to="/"
            className="rounded-md border border-slate-300 px-5 py-2.5 font-medium text-slate-700 hover:border-brand-500"
          >
            Volver al inicio
          </Link>
        </div>
        <div className="mt-8 border-t border-slate-100 pt-6 text-sm text-slate-700">
          <p className="font-medium text-slate-900">¿Necesita ayuda?</p>
          <p className="mt-1">
            Llámenos al{' '}
            {shop.phones.map((p, i) => (
              <span key={p}>
                {i > 0 && (i === shop.phones.length - 1 ? ' o ' : ', ')}
                <a
                  href={`tel:+52${p.replace(/\s/g, '')}`}
                  className="whitespace-nowrap text-brand-700 underline underline-offset-2"
                >
                  {p}
                </a>
              </span>
            ))}{' '}
            ({shop.hours.charAt(0).toLowerCase() + shop.hours.slice(1)}) o escríbanos a{' '}
            <a href={`mailto:${shop.email}`} className="text-brand-700 underline underline-offset-2">
              {shop.email}
            </a>
            .
          </p>
        </div>
      </div>
    </div>
  );
}
