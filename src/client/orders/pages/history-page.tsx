import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { ApiError } from '@/client/lib/api-client.ts';
import { RequireSignedIn } from '@/client/lib/auth/require-signed-in.tsx';
import { useSingleFlight } from '@/client/lib/use-single-flight.ts';
import { Alert } from '@/client/ui/alert.tsx';
import { shopTitle, useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { formatMoney } from '@/shared/money.ts';
import { formatDeadline } from '@/shared/payment-methods.ts';
import { cancellationRefundSentence } from '@/shared/refund-routes.ts';
import type { OrderStatus, OrderSummary } from '@/shared/schemas/orders.ts';
import { useCancelOrder } from '../api/cancel-order.ts';
import { useOrders } from '../api/get-orders.ts';
import { BuyAgainButton } from '../components/buy-again.tsx';
import { InvoiceLinks } from '../components/invoice-links.tsx';
import { Modal } from '../components/modal.tsx';
import { OrderRefunds } from '../components/order-refunds.tsx';
import { formatDate, ReceiptDialog } from '../components/receipt-dialog.tsx';

const badge: Record<OrderStatus, string> = {
  pending_payment: 'bg-amber-100 text-amber-900',
  paid: 'bg-green-100 text-green-800',
  on_credit: 'bg-green-100 text-green-800',
  preparing: 'bg-sky-100 text-sky-900',
  partially_shipped: 'bg-brand-50 text-brand-800',
  shipped: 'bg-brand-100 text-brand-800',
  delivered: 'bg-green-100 text-green-800',
  payment_failed: 'bg-red-100 text-red-800',
  cancelled: 'bg-slate-200 text-slate-700',
};

const button =
  'inline-flex items-center justify-center rounded-md border px-3 py-1.5 text-sm font-medium transition';

function CancelDialog({ order, onClose }: { order: OrderSummary; onClose: () => void }) {
  const cancel = useCancelOrder();
  const flight = useSingleFlight();
  const confirm = () =>
    flight.run(() =>
      cancel.mutateAsync(order.number, {
        onSuccess: (data) => {
          toast.success(data.message);
          onClose();
        },
        onError: (error) => {
          toast.error(error instanceof ApiError && error.status !== 0 ? error.message : 'Error de conexión');
        },
      }),
    );
  return (
    <Modal title={`Pedido #${order.number}`} onClose={onClose} size="sm">
      <p className="text-slate-700">¿Está seguro que desea solicitar la cancelación del pedido?</p>
      <p className="mt-2 text-sm text-slate-500" data-testid="cancel-refund-route">
        {cancellationRefundSentence(order.paymentMethod, order.refundableCents ?? order.totalCents)}
      </p>
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button
          type="button"
          onClick={onClose}
          disabled={flight.busy}
          className={`${button} border-slate-300 bg-white text-slate-700 hover:bg-slate-50`}
        >
          Volver
        </button>
        <button
          type="button"
          onClick={confirm}
          disabled={flight.busy}
          aria-busy={flight.busy}
          className={`${button} border-red-600 bg-red-600 text-white hover:bg-red-700 disabled:cursor-wait disabled:opacity-70`}
        >
          {flight.busy ? 'Procesando...' : 'Cancelar pedido'}
        </button>
      </div>
    </Modal>
  );
}

function OrderCard({
  order,
  onReceipt,
  onCancel,
}: {
  order: OrderSummary;
  onReceipt: () => void;
  onCancel: () => void;
}) {
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5" data-testid="order-card">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="font-semibold text-slate-900">Pedido #{order.number}</p>
          <p className="text-sm text-slate-600">{formatDate(order.date)}</p>
        </div>
        <span
          className={`rounded-full px-2.5 py-1 text-xs font-semibold ${badge[order.status]}`}
          data-testid="order-status"
        >
          {order.statusLabel}
        </span>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-3 text-sm sm:grid-cols-3">
        {order.shipments.length > 1 ? (
          <div className="col-span-2 sm:col-span-1" data-testid="order-card-shipments">
            <dt className="text-xs uppercase tracking-wide text-slate-500">Envíos</dt>
            {order.shipments.map((s) => (
              <dd key={s.seq} className="text-slate-900">
                {s.seq}. {s.carrierName}{' '}
                {s.trackingUrl ? (
                  <a
                    href={s.trackingUrl}
                    target="_blank"
                    rel="noreferrer"
                    className="font-mono text-brand-700 underline"
                  >
                    {s.trackingNumber}
                  </a>
                ) : (
                  <span className="font-mono">{s.trackingNumber ?? ''}</span>
                )}
              </dd>
            ))}
          </div>
        ) : (
          <div>
            <dt className="text-xs uppercase tracking-wide text-slate-500">Guía de rastreo</dt>
            <dd className="text-slate-900">{order.trackingGuide}</dd>
          </div>
        )}
        <div>
          <dt className="text-xs uppercase tracking-wide text-slate-500">Total</dt>
          <dd className="font-semibold text-slate-900">{formatMoney(order.totalCents)}</dd>
        </div>
        {order.paymentDeadline && (
          <div className="col-span-2 sm:col-span-1">
            <dt className="text-xs uppercase tracking-wide text-slate-500">Pagar antes de</dt>
            <dd className="font-medium text-amber-800" data-testid="order-payment-deadline">
              {formatDeadline(order.paymentDeadline)}
            </dd>
          </div>
        )}
      </dl>
      <OrderRefunds number={order.number} refunds={order.refunds} />
      {order.returns.length > 0 && (
        <ul className="mt-3 space-y-1 text-sm" data-testid="order-returns">
          {order.returns.map((r) => (
            <li key={r.id} className="text-slate-700">
              Devolución #{r.id}: <strong className="font-medium text-slate-900">{r.stateLabel}</strong>
            </li>
          ))}
        </ul>
      )}
      {order.paymentDeadline && (
        <Link
          to={`/resumen/${order.number}`}
          className="mt-3 inline-block text-sm font-medium text-brand-700 hover:underline"
        >
          Ver instrucciones de pago
        </Link>
      )}
      <div className="mt-4 flex flex-wrap gap-2">
        {order.canInvoice && (
          <Link
            to={`/factura/${order.number}`}
            className={`${button} border-brand-700 bg-brand-700 text-white hover:bg-brand-800`}
          >
            Solicitar factura
          </Link>
        )}
        {order.invoiceState === 'issued' && <InvoiceLinks number={order.number} className={button} />}
        {order.canCancelInvoice && (
          <Link
            to={`/factura/${order.number}`}
            className={`${button} border-slate-300 bg-white text-slate-700 hover:bg-slate-50`}
          >
            Corregir o cancelar factura
          </Link>
        )}
        <button
          type="button"
          onClick={onReceipt}
          className={`${button} border-slate-300 bg-white text-slate-700 hover:bg-slate-50`}
        >
          Ver recibo
        </button>
        <BuyAgainButton
          number={order.number}
          className={`${button} border-brand-700 bg-white text-brand-800 hover:bg-brand-50`}
        />
        {(order.status === 'delivered' || order.returns.length > 0) && (
          <Link
            to={`/historial/devoluciones/${order.number}`}
            className={`${button} border-slate-300 bg-white text-slate-700 hover:bg-slate-50`}
          >
            {order.returns.length > 0 ? 'Ver devoluciones' : 'Solicitar devolución'}
          </Link>
        )}
        {order.canCancel && (
          <button
            type="button"
            onClick={onCancel}
            className={`${button} border-red-300 bg-white text-red-700 hover:bg-red-50`}
          >
            Cancelar pedido
          </button>
        )}
      </div>
    </li>
  );
}

function History() {
  const orders = useOrders();
  const [receipt, setReceipt] = useState<number | null>(null);
  const [cancelling, setCancelling] = useState<OrderSummary | null>(null);
  if (orders.isPending) return <Spinner />;
  if (orders.isError) return <Alert tone="danger">{orders.error.message}</Alert>;
  const { orders: list, message } = orders.data;
  return (
    <>
      {list.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 px-6 py-12 text-center">
          <p className="font-medium text-slate-800">{message}</p>
          <Link to="/" className="mt-4 inline-block font-medium text-brand-700 hover:underline">
            Ir a la tienda
          </Link>
        </div>
      ) : (
        <ul className="space-y-4">
          {list.map((o) => (
            <OrderCard
              key={o.number}
              order={o}
              onReceipt={() => setReceipt(o.number)}
              onCancel={() => setCancelling(o)}
            />
          ))}
        </ul>
      )}
      {receipt !== null && <ReceiptDialog number={receipt} onClose={() => setReceipt(null)} />}
      {cancelling && <CancelDialog order={cancelling} onClose={() => setCancelling(null)} />}
    </>
  );
}

/** /historial — 'Historial de pedidos' (spec §2 Order history). */
export function Component() {
  useDocumentTitle(shopTitle('Historial de pedidos'));
  return (
    <div className="mx-auto max-w-4xl px-4 py-8">
      <h1 className="mb-6 text-2xl font-semibold text-slate-900 sm:text-3xl">Historial de pedidos</h1>
      <RequireSignedIn>
        <History />
      </RequireSignedIn>
    </div>
  );
}
