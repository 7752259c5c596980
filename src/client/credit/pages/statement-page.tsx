import { ApiError } from '@/client/lib/api-client.ts';
import { RequireSignedIn } from '@/client/lib/auth/require-signed-in.tsx';
import { Alert } from '@/client/ui/alert.tsx';
import { shopTitle, useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { AGING_BUCKETS } from '@/shared/credit.ts';
import { formatMoney } from '@/shared/money.ts';
import type { Statement } from '@/shared/schemas/credit.ts';
import { paymentCfdiUrl, STATEMENT_PDF_URL, useStatement } from '../api/statement.ts';

const day = (iso: string) =>
  new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium', timeZone: 'America/Mexico_City' }).format(
    new Date(iso),
  );
const th =
  'whitespace-nowrap px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500';
const td = 'whitespace-nowrap px-3 py-2 text-sm text-slate-700';
const link = 'font-medium text-brand-700 hover:underline';

function Table({
  head,
  children,
  empty,
}: {
  head: React.ReactNode;
  children: React.ReactNode;
  empty: string | null;
}) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
      <table className="min-w-full divide-y divide-slate-100">
        <thead className="bg-slate-50">{head}</thead>
        <tbody className="divide-y divide-slate-100">
          {empty ? (
            <tr>
              <td className={`${td} text-slate-500`} colSpan={9}>
                {empty}
              </td>
            </tr>
          ) : (
            children
          )}
        </tbody>
      </table>
    </div>
  );
}

function StatementView({ s }: { s: Statement }) {
  const facts: [string, string][] = [
    ['Línea de crédito', s.limitCents === null ? 'Sin línea' : formatMoney(s.limitCents)],
    ['Plazo', s.days === null ? '—' : `${s.days} días`],
    ['Saldo', formatMoney(s.balanceCents)],
    ['Disponible', s.availableCents === null ? '—' : formatMoney(s.availableCents)],
  ];
  return (
    <div className="space-y-8">
      <section className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="text-lg font-semibold text-slate-900">{s.institution.razonSocial}</p>
          <p className="text-sm text-slate-600">
            RFC {s.institution.rfc} · al {day(s.asOf)}
          </p>
        </div>
        <a
          className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-700 hover:border-brand-500"
          href={STATEMENT_PDF_URL}
        >
          Descargar PDF
        </a>
      </section>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {facts.map(([label, value]) => (
          <div key={label} className="rounded-xl border border-slate-200 bg-white p-3">
            <dt className="text-xs font-semibold text-slate-500">{label}</dt>
            <dd
              className={`text-lg font-semibold ${label === 'Saldo' ? 'text-brand-700' : 'text-slate-900'}`}
            >
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {s.onHold && s.holdReason && <Alert tone="danger">{s.holdReason}</Alert>}
      <section aria-labelledby="antiguedad">
        <h2 id="antiguedad" className="mb-2 text-lg font-semibold text-slate-900">
          Antigüedad de saldos{' '}
          <span className="text-sm font-normal text-slate-500">(días desde la emisión)</span>
        </h2>
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {AGING_BUCKETS.map((b) => (
            <div key={b.key} className="rounded-xl bg-brand-50 p-3">
              <p className="text-xs font-semibold text-slate-500">{b.label}</p>
              <p className="font-semibold text-slate-900">{formatMoney(s.aging[b.key])}</p>
            </div>
          ))}
        </div>
      </section>
      <section aria-labelledby="facturas">
        <h2 id="facturas" className="mb-2 text-lg font-semibold text-slate-900">
          Facturas pendientes
        </h2>
        <Table
          empty={s.openInvoices.length === 0 ? 'No hay facturas con saldo pendiente.' : null}
          head={
            <tr>
              <th className={th}>Factura</th>
              <th className={th}>Pedido</th>
              <th className={th}>Vence</th>
              <th className={`${th} text-right`}>Total</th>
              <th className={`${th} text-right`}>Saldo</th>
            </tr>
          }
        >
          {s.openInvoices.map((i) => (
            <tr key={i.invoiceId}>
              <td className={td}>{i.serieFolio}</td>
              <td className={td}>
                #{i.orderNumber}
                {i.purchaseOrder && (
                  <span className="block text-xs text-slate-500">OC {i.purchaseOrder}</span>
                )}
              </td>
              <td className={td}>
                {day(i.dueAt)}
                {i.daysPastDue > 0 && (
                  <span className="block text-xs font-semibold text-red-700">
                    Vencida hace {i.daysPastDue} días
                  </span>
                )}
              </td>
              <td className={`${td} text-right`}>{formatMoney(i.totalCents)}</td>
              <td className={`${td} text-right font-semibold`}>{formatMoney(i.balanceCents)}</td>
            </tr>
          ))}
        </Table>
      </section>
      <section aria-labelledby="pagos">
        <h2 id="pagos" className="mb-2 text-lg font-semibold text-slate-900">
          Pagos y CFDI de pago
        </h2>
        <Table
          empty={s.payments.length === 0 ? 'Sin pagos registrados.' : null}
          head={
            <tr>
              <th className={th}>Fecha</th>
              <th className={th}>Referencia</th>
              <th className={th}>Aplicado a</th>
              <th className={`${th} text-right`}>Importe</th>
              <th className={th}>CFDI de pago</th>
            </tr>
          }
        >
          {s.payments.map((p) => (
            <tr key={p.id}>
              <td className={td}>{day(`${p.receivedOn}T18:00:00Z`)}</td>
              <td className={td}>{p.bankReference}</td>
              <td className={td}>
                {p.invoices.map((i) => `${i.serieFolio} (parcialidad ${i.numParcialidad})`).join(', ')}
              </td>
              <td className={`${td} text-right`}>{formatMoney(p.amountCents)}</td>
              <td className={td}>
                {p.cfdiStatus === 'issued' ? (
                  <>
                    <a className={link} href={paymentCfdiUrl(p.id, 'pdf')}>
                      PDF
                    </a>{' '}
                    ·{' '}
                    <a className={link} href={paymentCfdiUrl(p.id, 'xml')}>
                      XML
                    </a>
                  </>
                ) : (
                  <span className="text-slate-500">En trámite</span>
                )}
              </td>
            </tr>
          ))}
        </Table>
      </section>
      {s.creditNotes.length > 0 && (
        <section aria-labelledby="notas">
          <h2 id="notas" className="mb-2 text-lg font-semibold text-slate-900">
            Notas de crédito
          </h2>
          <Table
            empty={null}
            head={
              <tr>
                <th className={th}>Nota</th>
                <th className={th}>Factura</th>
                <th className={th}>Fecha</th>
                <th className={`${th} text-right`}>Importe</th>
              </tr>
            }
          >
            {s.creditNotes.map((n) => (
              <tr key={n.uuid}>
                <td className={td}>{n.serieFolio}</td>
                <td className={td}>{n.relatedSerieFolio}</td>
                <td className={td}>{day(n.issuedAt)}</td>
                <td className={`${td} text-right`}>{formatMoney(n.totalCents)}</td>
              </tr>
            ))}
          </Table>
        </section>
      )}
    </div>
  );
}

function StatementContent() {
  const { data, isPending, error } = useStatement();
  if (isPending) return <Spinner />;
  if (error)
    return (
      <Alert tone="info">
        {error instanceof ApiError && error.status !== 0
          ? error.message
          : 'No se pudo cargar el estado de cuenta.'}
      </Alert>
    );
  return <StatementView s={data} />;
}

/** /estado-de-cuenta (decision 060): the estado de cuenta of the institution the session buys for. */
export function Component() {
  useDocumentTitle(shopTitle('Estado de cuenta'));
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Estado de cuenta</h1>
      <p className="mb-6 mt-1 text-sm text-slate-600">
        Compras a crédito de su institución: facturas, pagos con su CFDI de pago y saldo, en MXN con IVA
        incluido.
      </p>
      <RequireSignedIn>
        <StatementContent />
      </RequireSignedIn>
    </div>
  );
}
