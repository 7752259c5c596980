import { useState } from 'react';
import { toast } from 'sonner';
import { useSingleFlight } from '@/client/lib/use-single-flight.ts';
import { showServerError } from '@/client/ui/server-errors.ts';
import { formatMoney } from '@/shared/money.ts';
import type { InvoiceState } from '@/shared/schemas/invoice.ts';
import { useCancelInvoice } from '../api/cancel-invoice.ts';
import {
  creditNotePdfUrl,
  creditNoteXmlUrl,
  invoicePdfUrl,
  invoiceXmlUrl,
} from '../api/get-invoice-state.ts';
import { InvoiceForm } from './invoice-form.tsx';

const dateTime = (iso: string | null) =>
  iso
    ? new Intl.DateTimeFormat('es-MX', {
        dateStyle: 'long',
        timeStyle: 'short',
        timeZone: 'America/Mexico_City',
      }).format(new Date(iso))
    : '—';

const DownloadIcon = () => (
  <svg
    className="size-4"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth={2}
    aria-hidden="true"
  >
    <path d="M12 3v12m0 0-4-4m4 4 4-4M4 17v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2" strokeLinecap="round" />
  </svg>
);

export function DownloadLinks({
  orderNumber,
  cancelled = false,
}: {
  orderNumber: number;
  cancelled?: boolean;
}) {
  const style = cancelled
    ? 'border-slate-300 text-slate-700 hover:bg-slate-50'
    : 'border-brand-200 bg-white text-brand-800 hover:bg-brand-50';
  return (
    <div className="flex flex-col gap-2 sm:flex-row">
      <a
        href={invoicePdfUrl(orderNumber)}
        download
        className={`inline-flex items-center justify-center gap-2 rounded-lg border px-4 py-2.5 text-sm font-semibold ${style}`}
      >
        <DownloadIcon />
        Descargar PDF{cancelled ? ' (cancelada)' : ''}
      </a>
      <a
        href={invoiceXmlUrl(orderNumber)}
        download
        className={`inline-flex items-center justify-center gap-2 rounded-lg border px-4 py-2.5 text-sm font-semibold ${style}`}
      >
        <DownloadIcon />
        Descargar XML{cancelled ? ' (cancelada)' : ''}
      </a>
    </div>
  );
}

/**
 * The order's credit notes (CFDI de egreso, relación 01): folio, amount, date and each one's PDF and XML, so a
 * shopper who got a partial refund or a discount keeps them beside the invoice (they are also mailed).
 */
export function CreditNotes({
  orderNumber,
  notes,
}: {
  orderNumber: number;
  notes: InvoiceState['creditNotes'];
}) {
  if (notes.length === 0) return null;
  const link =
    'inline-flex items-center justify-center gap-1.5 rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 hover:bg-slate-50';
  return (
    <section aria-labelledby="notas-credito" className="mt-6 border-t border-slate-100 pt-5">
      <h3 id="notas-credito" className="text-base font-semibold text-slate-900">
        Notas de crédito
      </h3>
      <p className="mt-1 text-sm text-slate-600">
        Comprobantes de egreso por devoluciones o descuentos relacionados con esta compra.
      </p>
      <ul aria-label="Notas de crédito" className="mt-3 grid gap-3">
        {notes.map((note) => (
          <li
            key={note.uuid}
            className="flex flex-col gap-3 rounded-lg border border-slate-200 p-3 sm:flex-row sm:items-center sm:justify-between"
          >
            <div className="min-w-0 text-sm">
              <p className="font-medium text-slate-900">
                {note.serieFolio} · {formatMoney(note.totalCents)} MXN
                {note.status === 'cancelled' ? (
                  <span className="ml-2 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700">
                    Cancelada
                  </span>
                ) : null}
              </p>
              <p className="mt-0.5 text-slate-500">Emitida: {dateTime(note.issuedAt)}</p>
              <p className="mt-0.5 break-all font-mono text-[12px] text-slate-500">{note.uuid}</p>
            </div>
            <div className="flex shrink-0 gap-2">
              <a
                href={creditNotePdfUrl(orderNumber, note.uuid)}
                download
                aria-label={`Descargar PDF de la nota de crédito ${note.serieFolio}`}
                className={link}
              >
                <DownloadIcon />
                PDF
              </a>
              <a
                href={creditNoteXmlUrl(orderNumber, note.uuid)}
                download
                aria-label={`Descargar XML de la nota de crédito ${note.serieFolio}`}
                className={link}
              >
                <DownloadIcon />
                XML
              </a>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The active invoice: its data, the downloads, and the shopper's one self-service correction: «Corregir
 * factura» (the corrected CFDI replaces it, motivo 01) or 'Cancelar factura' (motivo 02, with a confirmation).
 */
export function IssuedInvoice({ invoice }: { invoice: InvoiceState }) {
  const cancel = useCancelInvoice();
  const [confirming, setConfirming] = useState(false);
  const [correcting, setCorrecting] = useState(false);
  const rows: [string, string][] = [
    ['Folio fiscal (UUID)', invoice.uuid ?? '—'],
    ['RFC', invoice.rfc ?? '—'],
    ['Nombre fiscal', invoice.nombreFiscal ?? '—'],
    ['Total', invoice.totalCents === null ? '—' : `${formatMoney(invoice.totalCents)} MXN`],
    ['Emitida', dateTime(invoice.issuedAt)],
  ];
  const flight = useSingleFlight();
  const onCancel = () =>
    flight.run(() =>
      cancel.mutateAsync(invoice.orderNumber, {
        onSuccess: (answer) => {
          setConfirming(false);
          toast.success(answer.message);
        },
        onError: (error) => showServerError(error, 'No se pudo cancelar la factura'),
      }),
    );

  return (
    <section
      className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-7"
      aria-labelledby="factura-vigente"
    >
      <div className="flex flex-wrap items-center gap-3">
        <span
          className="flex size-9 items-center justify-center rounded-full bg-green-100 text-green-700"
          aria-hidden="true"
        >
          ✓
        </span>
        <h2 id="factura-vigente" className="text-xl font-semibold text-slate-900">
          Factura emitida
        </h2>
        {invoice.test ? (
          <span className="rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900">
            Prueba · sin validez fiscal
          </span>
        ) : null}
      </div>
      <dl className="mt-5 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[max-content_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-500">{label}</dt>
            <dd
              className={`font-medium text-slate-900 ${label.startsWith('Folio') ? 'break-all font-mono text-[13px]' : ''}`}
            >
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {invoice.cancellation === 'pending' ? (
        <p
          role="status"
          className="mt-5 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
        >
          Cancelación en proceso: el SAT espera la aceptación del receptor (tiene 3 días hábiles para
          responder). Mientras tanto la factura sigue vigente; le avisaremos por correo cuando se resuelva.
        </p>
      ) : invoice.cancellation === 'rejected' ? (
        <p role="status" className="mt-5 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          El receptor rechazó la cancelación ante el SAT; la factura sigue vigente. Contacte al personal de la
          tienda.
        </p>
      ) : invoice.correctionBlockedReason ? (
        <p
          role="status"
          className="mt-5 rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700"
        >
          {invoice.correctionBlockedReason}
        </p>
      ) : null}
      <div className="mt-6 flex flex-col gap-4 border-t border-slate-100 pt-5 sm:flex-row sm:items-center sm:justify-between">
        <DownloadLinks orderNumber={invoice.orderNumber} />
        {confirming || correcting || !invoice.canCorrect ? null : (
          <div className="flex flex-col gap-2 sm:flex-row">
            <button
              type="button"
              onClick={() => setCorrecting(true)}
              className="rounded-lg border border-slate-300 px-4 py-2.5 text-sm font-semibold text-slate-800 hover:bg-slate-50"
            >
              Corregir factura
            </button>
            <button
              type="button"
              onClick={() => setConfirming(true)}
              className="rounded-lg px-4 py-2.5 text-sm font-semibold text-red-700 hover:bg-red-50"
            >
              Cancelar factura
            </button>
          </div>
        )}
      </div>
      <CreditNotes orderNumber={invoice.orderNumber} notes={invoice.creditNotes} />
      {correcting && invoice.canCorrect ? (
        <section
          aria-labelledby="corregir-factura"
          className="mt-5 rounded-lg border border-slate-200 p-4 sm:p-5"
        >
          <h3 id="corregir-factura" className="text-lg font-semibold text-slate-900">
            Corregir factura
          </h3>
          <p className="mt-1 text-sm text-slate-600">
            Escriba los datos correctos tal como aparecen en su Constancia de Situación Fiscal. Emitiremos una
            factura nueva que sustituye a esta y le enviaremos el XML y el PDF por correo.
          </p>
          <div className="mt-5">
            <InvoiceForm
              orderNumber={invoice.orderNumber}
              correction={{
                initial: { rfc: invoice.rfc ?? '', nombreFiscal: invoice.nombreFiscal ?? '' },
                onCancel: () => setCorrecting(false),
              }}
            />
          </div>
        </section>
      ) : null}
      {confirming ? (
        <div
          role="alertdialog"
          aria-labelledby="confirmar-cancelacion"
          className="mt-4 rounded-lg border border-red-200 bg-red-50 p-4"
        >
          <p id="confirmar-cancelacion" className="text-sm text-red-900">
            ¿Está seguro que desea cancelar esta factura ante el SAT? Se cancela con motivo 02 (comprobante
            emitido con errores sin relación) y después podrá solicitar una nueva.
          </p>
          <div className="mt-3 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <button
              type="button"
              onClick={() => setConfirming(false)}
              disabled={flight.busy}
              className="rounded-lg px-4 py-2 text-sm font-medium text-slate-700 hover:bg-white"
            >
              Volver
            </button>
            <button
              type="button"
              onClick={onCancel}
              disabled={flight.busy}
              aria-busy={flight.busy}
              className="rounded-lg bg-red-700 px-4 py-2 text-sm font-semibold text-white hover:bg-red-800 disabled:opacity-80"
            >
              {flight.busy ? 'Cancelando...' : 'Sí, cancelar factura'}
            </button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
