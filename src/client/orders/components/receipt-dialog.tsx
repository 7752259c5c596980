import { Link } from 'react-router';
import { Spinner } from '@/client/ui/spinner.tsx';
import { orderLineSplitText, shipNowText } from '@/shared/backorder.ts';
import { formatMoney } from '@/shared/money.ts';
import { formatDeadline } from '@/shared/payment-methods.ts';
import type { OrderDetail } from '@/shared/schemas/orders.ts';
import { useOrder } from '../api/get-order.ts';
import { BuyAgainButton } from './buy-again.tsx';
import { InvoiceLinks } from './invoice-links.tsx';
import { Modal } from './modal.tsx';
import { OutcomeMark, outcomeOf } from './order-outcome.tsx';
import { OrderRefunds } from './order-refunds.tsx';
import { OrderShipments } from './order-shipments.tsx';

export const formatDate = (iso: string) =>
  new Intl.DateTimeFormat('es-MX', { dateStyle: 'long', timeZone: 'America/Mexico_City' }).format(
    new Date(iso),
  );

function Receipt({ order }: { order: OrderDetail }) {
  const outcome = outcomeOf(order.status);
  const a = order.address;
  // Issue 35: once something left, the shipments below say what, with which guide and when.
  const shipped = order.delivery.shipments.length > 0;
  const field = (label: string, value: string, testId?: string) => (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 text-sm text-slate-900" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
  return (
    <div className="space-y-5">
      <div className="flex items-center gap-3">
        <OutcomeMark outcome={outcome} label={order.statusLabel} />
        <div>
          <p className="font-semibold">Pedido #{order.number}</p>
          <p className="text-sm text-slate-600" data-testid="receipt-when">
            {outcome === 'cancelled'
              ? 'Pedido cancelado'
              : outcome === 'bought'
                ? `Fecha de compra: ${formatDate(order.paidAt ?? order.date)}`
                : `${order.statusLabel} · Pedido del ${formatDate(order.date)}`}
          </p>
        </div>
      </div>
      <dl className="grid gap-4 sm:grid-cols-2">
        {order.delivery.method === 'pickup' && order.delivery.branch
          ? field('Entrega', `Recoger en sucursal: ${order.delivery.branch.name}`, 'receipt-delivery')
          : field(
              'Dirección de envío',
              `${a.nombreEnvio}, ${a.calleEnvio} ${a.numExtEnvio}${a.numIntEnvio ? ` Int. ${a.numIntEnvio}` : ''}, Col. ${a.coloniaEnvio}, C.P. ${a.cpEnvio}, ${a.municipioEnvio}, ${a.ciudadEnvio}, ${a.estadoEnvio}. Tel. ${a.telefonoEnvio}`,
            )}
        {field('Facturar a', `${order.billingName} · ${order.billingNumber}`)}
        {shipped ? null : field('Guía de rastreo', order.trackingGuide, 'receipt-guide')}
        {field('Estado', order.statusLabel, 'receipt-status')}
        {shipped
          ? null
          : field(
              'Fecha de envío',
              order.deliveryDate ? formatDate(`${order.deliveryDate}T12:00:00Z`) : 'Por definir',
            )}
        {shipped ? null : field('Paquetería', order.deliveryProvider ?? 'Por definir')}
        {order.purchaseOrder && field('Orden de compra', order.purchaseOrder, 'receipt-purchase-order')}
        {order.quotationFolio && field('Cotización', order.quotationFolio, 'receipt-quotation')}
        {order.payment &&
          field(
            'Forma de pago',
            `${order.payment.methodLabel}${order.payment.msiMonths ? ` · ${order.payment.msiMonths} meses sin intereses` : ''}`,
            'receipt-payment-method',
          )}
        {order.payment?.deadline && field('Pagar antes de', formatDeadline(order.payment.deadline))}
      </dl>
      {order.invoiceState === 'issued' && (
        <InvoiceLinks
          number={order.number}
          className="inline-flex items-center gap-1 rounded-lg border px-3 py-2 text-sm"
        />
      )}
      <div className="overflow-x-auto">
        <table className="w-full text-sm">
          <thead>
            <tr className="border-b border-slate-200 text-left text-xs uppercase tracking-wide text-slate-500">
              <th className="py-2 pr-3 font-medium">Producto</th>
              <th className="hidden py-2 pr-3 text-right font-medium sm:table-cell">Precio</th>
              <th className="hidden py-2 pr-3 text-right font-medium sm:table-cell">Cantidad</th>
              <th className="py-2 text-right font-medium">Total</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {order.lines.map((l) => (
              <tr key={l.code}>
                <td className="py-2 pr-3">
                  <Link
                    to={`/productos/${encodeURIComponent(l.code)}`}
                    className="text-brand-700 hover:underline"
                  >
                    {l.description}
                  </Link>
                  <span className="block text-xs text-slate-500 sm:hidden">
                    {l.quantity} × {formatMoney(l.unitPriceCents)}
                  </span>
                  {!shipped && orderLineSplitText(l) && (
                    <span className="block text-xs font-medium text-amber-800" data-testid="line-backorder">
                      {orderLineSplitText(l)}
                    </span>
                  )}
                </td>
                <td className="hidden py-2 pr-3 text-right sm:table-cell">{formatMoney(l.unitPriceCents)}</td>
                <td className="hidden py-2 pr-3 text-right sm:table-cell">{l.quantity}</td>
                <td className="py-2 text-right">{formatMoney(l.lineTotalCents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <OrderShipments order={order} />
      {order.shipNowBy &&
        order.delivery.shipments.length === 0 &&
        order.lines.some((l) => l.backorderedQuantity > 0) && (
          <p className="text-sm text-slate-700" data-testid="ship-now">
            {shipNowText(order.shipNowBy)}.
          </p>
        )}
      <dl className="ml-auto max-w-xs space-y-1.5 text-sm">
        <div className="flex justify-between">
          <dt className="text-slate-600">Subtotal</dt>
          <dd>{formatMoney(order.subtotalCents)}</dd>
        </div>
        <div className="flex justify-between">
          <dt className="text-slate-600">Envío</dt>
          <dd data-testid="receipt-shipping">{formatMoney(order.shippingCents)}</dd>
        </div>
        <div className="flex justify-between border-t border-slate-200 pt-1.5 font-bold">
          <dt>Total</dt>
          <dd>{formatMoney(order.totalCents)}</dd>
        </div>
        {order.refundedCents > 0 && (
          <div className="flex justify-between text-green-700">
            <dt>Reembolsado</dt>
            <dd>{formatMoney(order.refundedCents)}</dd>
          </div>
        )}
      </dl>
      <OrderRefunds number={order.number} refunds={order.refunds} />
      <div className="flex flex-wrap items-center gap-2 border-t border-slate-200 pt-4">
        <BuyAgainButton
          number={order.number}
          className="rounded-md border border-brand-700 bg-white px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50 disabled:opacity-70"
        />
      </div>
    </div>
  );
}

/** 'Ver recibo' (spec §2 Receipt dialog): every field of the order, the shipping stored on it. */
export function ReceiptDialog({ number, onClose }: { number: number; onClose: () => void }) {
  const order = useOrder(number);
  return (
    <Modal title="Recibo de compra" onClose={onClose} size="lg">
      {order.data ? (
        <Receipt order={order.data} />
      ) : order.isError ? (
        <p className="text-sm text-red-700">{order.error.message}</p>
      ) : (
        <Spinner />
      )}
    </Modal>
  );
}
