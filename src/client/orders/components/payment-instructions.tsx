import { formatMoney } from '@/shared/money.ts';
import { formatDeadline } from '@/shared/payment-methods.ts';
import type { OrderPayment } from '@/shared/schemas/orders.ts';

/**
 * How to pay an order awaiting a SPEI transfer or a cash payment at a store (issue 21): the CLABE, bank and
 * reference, or the Paynet reference and its barcode; the exact amount and the deadline. The same data the mail
 * carries, from the gateway's answer stored with the order.
 */
export function PaymentInstructions({ payment }: { payment: OrderPayment }) {
  const i = payment.instructions;
  if (!i) return null;
  const row = 'grid grid-cols-[9rem_minmax(0,1fr)] gap-3 py-2 sm:grid-cols-[11rem_minmax(0,1fr)]';
  return (
    <section
      aria-labelledby="instrucciones-pago"
      className="rounded-xl border border-brand-200 bg-white p-5 shadow-sm"
      data-testid="payment-instructions"
    >
      <h2 id="instrucciones-pago" className="font-semibold text-slate-900">
        {i.type === 'spei'
          ? 'Instrucciones para pagar por transferencia SPEI'
          : 'Instrucciones para pagar en tienda'}
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        {i.type === 'spei'
          ? 'Haga la transferencia desde la banca en línea o la app de su banco, por el importe exacto y con la referencia en el concepto.'
          : 'Presente esta referencia o el código de barras en OXXO, 7-Eleven, Walmart, farmacias y demás tiendas afiliadas a Paynet, y pague el importe exacto en efectivo.'}
      </p>
      <dl className="mt-3 divide-y divide-slate-100 text-sm">
        {i.type === 'spei' ? (
          <>
            <div className={row}>
              <dt className="text-slate-600">Banco</dt>
              <dd className="font-medium">{i.bank}</dd>
            </div>
            <div className={row}>
              <dt className="text-slate-600">CLABE</dt>
              <dd className="font-mono text-base font-semibold tracking-wide break-all" data-testid="clabe">
                {i.clabe}
              </dd>
            </div>
            <div className={row}>
              <dt className="text-slate-600">Referencia / concepto</dt>
              <dd className="font-mono font-semibold" data-testid="payment-reference">
                {i.reference}
              </dd>
            </div>
          </>
        ) : (
          <div className={row}>
            <dt className="text-slate-600">Referencia Paynet</dt>
            <dd className="font-mono font-semibold break-all" data-testid="payment-reference">
              {i.reference}
            </dd>
          </div>
        )}
        <div className={row}>
          <dt className="text-slate-600">Importe exacto</dt>
          <dd className="font-semibold">{formatMoney(i.amountCents)} MXN</dd>
        </div>
        <div className={row}>
          <dt className="text-slate-600">Fecha límite</dt>
          <dd className="font-semibold text-amber-800" data-testid="payment-deadline">
            {formatDeadline(i.dueAt)}
          </dd>
        </div>
      </dl>
      {i.type === 'cash' && i.barcodeUrl && (
        <div className="mt-4 rounded-lg border border-slate-200 bg-white p-3">
          <img
            src={i.barcodeUrl}
            alt={`Código de barras de la referencia ${i.reference}`}
            className="mx-auto h-16 w-full max-w-md object-contain"
          />
        </div>
      )}
      <p className="mt-4 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950">
        Apartamos sus productos hasta la fecha límite. Si el pago no llega a tiempo, el pedido se cancela y
        los productos se liberan. Le avisaremos por correo en cuanto recibamos su pago.
      </p>
    </section>
  );
}
