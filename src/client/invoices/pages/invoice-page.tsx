import { Link, useParams } from 'react-router';
import { ApiError } from '@/client/lib/api-client.ts';
import { RequireSignedIn } from '@/client/lib/auth/require-signed-in.tsx';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { shop } from '@/shared/shop.ts';
import { useInvoiceState } from '../api/get-invoice-state.ts';
import { InvoiceForm } from '../components/invoice-form.tsx';
import { CreditNotes, DownloadLinks, IssuedInvoice } from '../components/invoice-summary.tsx';

const deadlineText = (iso: string | null) =>
  iso
    ? new Intl.DateTimeFormat('es-MX', { dateStyle: 'long', timeZone: 'America/Mexico_City' }).format(
        new Date(iso),
      )
    : null;

function InvoiceContent({ orderNumber }: { orderNumber: number }) {
  const { data: invoice, isPending, error, refetch } = useInvoiceState(orderNumber);
  if (isPending) return <Spinner />;
  if (error || !invoice) {
    const notFound = error instanceof ApiError && error.status === 404;
    return (
      <div className="grid gap-4">
        <Alert tone="danger">
          {notFound ? 'Pedido no encontrado' : (error?.message ?? 'Error de conexión')}
        </Alert>
        {notFound ? null : (
          <button
            type="button"
            onClick={() => void refetch()}
            className="justify-self-start text-sm font-semibold text-brand-700 hover:underline"
          >
            Reintentar
          </button>
        )}
      </div>
    );
  }
  if (invoice.state === 'issued') return <IssuedInvoice invoice={invoice} />;

  return (
    <div className="grid gap-5">
      {invoice.state === 'cancelled' ? (
        <Alert tone="info">
          <p>
            La factura anterior de este pedido (folio fiscal{' '}
            <span className="break-all font-mono">{invoice.uuid}</span>) fue cancelada.
            {invoice.canRequest ? ' Puede solicitar una nueva con los datos correctos.' : ''}
          </p>
          <div className="mt-3">
            <DownloadLinks orderNumber={orderNumber} cancelled />
          </div>
          <CreditNotes orderNumber={orderNumber} notes={invoice.creditNotes} />
        </Alert>
      ) : null}
      {invoice.canRequest ? (
        <section
          className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-7"
          aria-labelledby="datos-fiscales"
        >
          <h2 id="datos-fiscales" className="text-xl font-semibold text-slate-900">
            Datos fiscales
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Escríbalos como aparecen en su Constancia de Situación Fiscal; el SAT rechaza la factura si no
            coinciden.
            {deadlineText(invoice.deadline)
              ? ` Puede solicitarla hasta el ${deadlineText(invoice.deadline)}.`
              : ''}
          </p>
          <div className="mt-6">
            <InvoiceForm orderNumber={orderNumber} institution={invoice.institutionReceptor ?? null} />
          </div>
        </section>
      ) : (
        <Alert tone="warning">{invoice.blockedReason}</Alert>
      )}
    </div>
  );
}

/** /factura/:order — request, download and cancel the order's CFDI 4.0 (signed-in shoppers only). */
export function Component() {
  const { order = '' } = useParams();
  const orderNumber = /^\d{1,9}$/.test(order) ? Number(order) : null;
  const title = `Facturación del pedido #${order}`;
  useDocumentTitle(`${title} | ${shop.tradeName}`);
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:py-10">
      <nav aria-label="Ruta" className="mb-3 text-sm">
        <Link to="/historial" className="font-medium text-brand-700 hover:underline">
          ← Historial de pedidos
        </Link>
      </nav>
      <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">{title}</h1>
      <p className="mt-1 text-sm text-slate-600">Factura electrónica CFDI 4.0 de su compra.</p>
      <div className="mt-6">
        <RequireSignedIn>
          {orderNumber === null ? (
            <Alert tone="danger">Pedido no encontrado</Alert>
          ) : (
            <InvoiceContent orderNumber={orderNumber} />
          )}
        </RequireSignedIn>
      </div>
    </div>
  );
}
