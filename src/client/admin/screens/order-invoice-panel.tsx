import { type FormEvent, useState } from 'react';
import { Alert } from '@/client/ui/alert.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { formatMoney, parsePriceToCents } from '@/shared/money.ts';
import {
  creditNoteFileUrl,
  STAFF_CANCEL_OPTIONS,
  type StaffCancelMotivo,
  useCancelInvoice,
  useCreditNotes,
  useIssueCreditNote,
} from '../api/get-invoices.ts';
import {
  Badge,
  buttonClass,
  FieldMessage,
  fieldClass,
  formatDateTime,
  Panel,
  serverFields,
} from '../components/admin-ui.tsx';

const NOTE_STATUS: Record<string, string> = {
  issued: 'Vigente',
  pending: 'Timbrando',
  cancelled: 'Cancelada',
};

/** The invoice's cancellation with the SAT's motivo (02, 03, 04), confirmed before it goes to the PAC. */
function CancelInvoice({ orderNumber, uuid }: { orderNumber: number; uuid: string }) {
  const cancel = useCancelInvoice();
  const [motivo, setMotivo] = useState<StaffCancelMotivo>('02');
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="mt-4 border-t border-slate-100 pt-4">
      <h3 className="text-sm font-semibold text-slate-900">Cancelar la factura ante el SAT</h3>
      <label className="mt-2 block text-sm text-slate-700">
        Motivo de cancelación
        <select
          className={`${fieldClass} mt-1`}
          value={motivo}
          disabled={cancel.isPending}
          onChange={(e) => {
            setMotivo(e.target.value as StaffCancelMotivo);
            setConfirming(false);
          }}
        >
          {STAFF_CANCEL_OPTIONS.map((m) => (
            <option key={m.value} value={m.value}>
              {m.label}
            </option>
          ))}
        </select>
      </label>
      <p className="mt-1 text-xs text-slate-500">
        Para corregir datos con una factura que la sustituya (motivo 01), el cliente usa «Corregir factura».
      </p>
      {cancel.error ? (
        <div className="mt-2">
          <Alert tone="danger">{cancel.error.message}</Alert>
        </div>
      ) : null}
      {confirming ? (
        <div role="alertdialog" aria-label="Confirmar cancelación" className="mt-3 rounded-lg bg-red-50 p-3">
          <p className="text-sm text-red-900">
            ¿Cancelar ante el SAT la factura <span className="break-all font-mono text-xs">{uuid}</span> con
            motivo {motivo}? Si el receptor debe aceptarla, quedará en proceso.
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            <button
              type="button"
              className={buttonClass.danger}
              disabled={cancel.isPending}
              onClick={() =>
                cancel.mutate({ orderNumber, motivo }, { onSettled: () => setConfirming(false) })
              }
            >
              {cancel.isPending ? 'Cancelando...' : 'Sí, cancelar factura'}
            </button>
            <button
              type="button"
              className={buttonClass.secondary}
              disabled={cancel.isPending}
              onClick={() => setConfirming(false)}
            >
              Volver
            </button>
          </div>
        </div>
      ) : (
        <button type="button" className={`${buttonClass.danger} mt-3`} onClick={() => setConfirming(true)}>
          Cancelar factura
        </button>
      )}
    </div>
  );
}

/**
 * «Bonificación»: a credit note without money back (the refunds issue theirs by themselves, decision 045): amount
 * with IVA and concept, bounded by what remains to credit of the invoice.
 */
function CreditNoteForm({ orderNumber, remainingCents }: { orderNumber: number; remainingCents: number }) {
  const issue = useIssueCreditNote(orderNumber);
  const [amount, setAmount] = useState('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: Record<string, string> = {};
    const cents = parsePriceToCents(amount);
    if (cents === null || cents <= 0) next.amount = 'Escriba el importe con IVA (p. ej. 1234.50)';
    else if (cents > remainingCents)
      next.amount = `No puede exceder lo que queda por acreditar (${formatMoney(remainingCents)})`;
    if (description.trim().length < 5) next.description = 'Escriba el concepto de la nota de crédito';
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    issue.mutate(
      { amount, description: description.trim() },
      {
        onSuccess: () => {
          setAmount('');
          setDescription('');
        },
        onError: (error) => setErrors(serverFields(error)),
      },
    );
  };
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="Nota de crédito"
      className="mt-4 grid gap-3 border-t border-slate-100 pt-4"
    >
      <h3 className="text-sm font-semibold text-slate-900">Bonificación (nota de crédito sin reembolso)</h3>
      <p className="text-xs text-slate-500">
        CFDI de egreso relacionado con la factura (relación 01) por un descuento o una bonificación:{' '}
        <strong className="text-slate-800">no devuelve dinero</strong>. Un reembolso (en «Dinero del pedido»)
        emite su propia nota de crédito. Queda por acreditar{' '}
        <strong className="text-slate-800">{formatMoney(remainingCents)}</strong>. Se envía al cliente por
        correo con el XML y el PDF.
      </p>
      <label className="block text-sm text-slate-700">
        Importe con IVA (MXN)
        <input
          className={`${fieldClass} mt-1`}
          inputMode="decimal"
          value={amount}
          aria-invalid={errors.amount ? true : undefined}
          onChange={(e) => setAmount(e.target.value)}
          placeholder="0.00"
        />
        <FieldMessage message={errors.amount} />
      </label>
      <label className="block text-sm text-slate-700">
        Concepto
        <input
          className={`${fieldClass} mt-1`}
          value={description}
          maxLength={1000}
          aria-invalid={errors.description ? true : undefined}
          onChange={(e) => setDescription(e.target.value)}
          placeholder="Devolución de 1 pieza de…"
        />
        <FieldMessage message={errors.description} />
      </label>
      {issue.error && Object.keys(serverFields(issue.error)).length === 0 ? (
        <Alert tone="danger">{issue.error.message}</Alert>
      ) : null}
      <div>
        <button
          type="submit"
          className={buttonClass.primary}
          disabled={issue.isPending || remainingCents <= 0}
        >
          {issue.isPending ? 'Emitiendo...' : 'Emitir nota de crédito'}
        </button>
      </div>
    </form>
  );
}

/** The order's invoice (downloads, cancellation by motivo) and its credit notes (list, files, new one). */
export function InvoicePanel({ orderNumber }: { orderNumber: number }) {
  const { data, isPending, error } = useCreditNotes(orderNumber);
  return (
    <section aria-label="Factura y notas de crédito">
      <Panel title="Factura y notas de crédito">
        {isPending ? (
          <Spinner />
        ) : error ? (
          <Alert tone="danger">{error.message}</Alert>
        ) : (
          <>
            {data.invoiceUuid ? (
              <>
                <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
                  <dt className="text-slate-500">Factura vigente</dt>
                  <dd className="break-all font-mono text-xs text-slate-900">{data.invoiceUuid}</dd>
                  <dt className="text-slate-500">Total</dt>
                  <dd className="text-slate-900">{formatMoney(data.invoiceTotalCents ?? 0)}</dd>
                  <dt className="text-slate-500">Archivos</dt>
                  <dd className="flex gap-3">
                    <a
                      className="text-brand-700 hover:underline"
                      href={`/api/admin/invoices/${orderNumber}/invoice.xml`}
                    >
                      XML
                    </a>
                    <a
                      className="text-brand-700 hover:underline"
                      href={`/api/admin/invoices/${orderNumber}/invoice.pdf`}
                    >
                      PDF
                    </a>
                  </dd>
                </dl>
                <CreditNoteForm orderNumber={orderNumber} remainingCents={data.remainingCents} />
                <CancelInvoice orderNumber={orderNumber} uuid={data.invoiceUuid} />
              </>
            ) : (
              <p className="text-sm text-slate-500">El pedido no tiene una factura vigente.</p>
            )}
            <div className="mt-4 border-t border-slate-100 pt-4">
              <h3 className="text-sm font-semibold text-slate-900">Notas de crédito emitidas</h3>
              {data.items.length === 0 ? (
                <p className="mt-1 text-sm text-slate-500">Ninguna todavía.</p>
              ) : (
                <ul aria-label="Notas de crédito" className="mt-2 divide-y divide-slate-100 text-sm">
                  {data.items.map((n) => (
                    <li key={n.serieFolio} className="grid gap-1 py-2">
                      <div className="flex flex-wrap items-center justify-between gap-2">
                        <span className="font-medium text-slate-900">
                          {n.serieFolio} · {formatMoney(n.totalCents)}
                        </span>
                        <Badge tone={n.status}>{NOTE_STATUS[n.status] ?? n.status}</Badge>
                      </div>
                      <span className="text-slate-700">{n.description}</span>
                      <span className="break-all font-mono text-xs text-slate-600">UUID {n.uuid ?? '—'}</span>
                      <span className="flex flex-wrap gap-3 text-xs text-slate-500">
                        {formatDateTime(n.issuedAt)}
                        {n.test ? <span className="text-amber-700">prueba</span> : null}
                        {n.uuid ? (
                          <>
                            <a
                              className="text-brand-700 hover:underline"
                              href={creditNoteFileUrl(orderNumber, n.uuid, 'xml')}
                            >
                              XML
                            </a>
                            <a
                              className="text-brand-700 hover:underline"
                              href={creditNoteFileUrl(orderNumber, n.uuid, 'pdf')}
                            >
                              PDF
                            </a>
                          </>
                        ) : null}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </>
        )}
      </Panel>
    </section>
  );
}
