import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { AddressLines } from '@/client/checkout/components/address-card.tsx';
import { PENDING_ORDER_KEY } from '@/client/checkout/components/card-payment.tsx';
import { ApiError } from '@/client/lib/api-client.ts';
import { RequireSignedIn } from '@/client/lib/auth/require-signed-in.tsx';
import { getCartItems, setCartItems } from '@/client/lib/cart-store.ts';
import { useOrder } from '@/client/orders/api/get-order.ts';
import { AbandonOrder } from '@/client/orders/components/abandon-order.tsx';
import { InvoiceLinks } from '@/client/orders/components/invoice-links.tsx';
import {
  OUTCOME_HEADINGS,
  OUTCOME_STYLES,
  OutcomeMark,
  outcomeOf,
  outcomeText,
} from '@/client/orders/components/order-outcome.tsx';
import { PaymentInstructions } from '@/client/orders/components/payment-instructions.tsx';
import { shopTitle, useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { orderLineSplitText, shipNowText } from '@/shared/backorder.ts';
import { formatMoney } from '@/shared/money.ts';
import type { OrderDetail } from '@/shared/schemas/orders.ts';

function Summary({ order }: { order: OrderDetail }) {
  // Back from 3-D Secure: the cart is emptied only once the order is really paid.
  useEffect(() => {
    if (order.status !== 'paid' || sessionStorage.getItem(PENDING_ORDER_KEY) !== String(order.number)) return;
    sessionStorage.removeItem(PENDING_ORDER_KEY);
    const bought = new Set(order.lines.map((l) => l.code));
    setCartItems(getCartItems().filter((i) => !bought.has(i.code)));
  }, [order]);

  const outcome = outcomeOf(order.status);
  const style = OUTCOME_STYLES[outcome];
  const awaiting = order.status === 'pending_payment' && Boolean(order.payment?.instructions);
  const heading = awaiting ? 'Pedido apartado: pendiente de pago' : OUTCOME_HEADINGS[outcome];
  useDocumentTitle(shopTitle(heading));
  const row = 'flex justify-between gap-4';
  return (
    <div className="space-y-6">
      <div className={`rounded-xl border p-6 text-center ${style.box}`} data-testid="order-outcome">
        <div className="mb-3 flex justify-center">
          <OutcomeMark outcome={outcome} size="size-14 text-3xl" label={order.statusLabel} />
        </div>
        <h1 className={`text-2xl font-bold sm:text-3xl ${style.text}`}>{heading}</h1>
        <p className={`mt-2 ${style.text}`}>
          Número de pedido <strong data-testid="order-number">#{order.number}</strong>
        </p>
        <p className={`mt-1 text-sm ${style.text}`}>{outcomeText(order)}</p>
        {outcome === 'failed' && (
          <Link
            to="/carrito"
            className="mt-4 inline-block rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
          >
            Volver al carrito
          </Link>
        )}
      </div>

      {awaiting && order.payment && <PaymentInstructions payment={order.payment} />}
      {awaiting && <AbandonOrder number={order.number} />}

      <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_320px]">
        <section
          aria-labelledby="productos"
          className="rounded-xl border border-slate-200 bg-white shadow-sm"
        >
          <h2 id="productos" className="border-b border-slate-100 px-5 py-3 font-semibold text-slate-900">
            Productos
          </h2>
          <ul className="divide-y divide-slate-100">
            {order.lines.map((l) => (
              <li key={l.code} className="flex items-center gap-4 px-5 py-3">
                <div className="size-14 shrink-0 overflow-hidden rounded-md border border-slate-200 bg-slate-50">
                  {l.imageUrl && (
                    <img src={`${l.imageUrl}&w=160`} alt="" className="size-full object-contain" />
                  )}
                </div>
                <div className="min-w-0 flex-1">
                  <Link
                    to={`/productos/${encodeURIComponent(l.code)}`}
                    className="line-clamp-2 font-medium text-slate-900 hover:text-brand-700"
                  >
                    {l.description}
                  </Link>
                  <p className="text-sm text-slate-600">
                    {l.quantity} × {formatMoney(l.unitPriceCents)}
                  </p>
                  {orderLineSplitText(l) && (
                    <p className="text-sm font-medium text-amber-800" data-testid="line-backorder">
                      {orderLineSplitText(l)}
                    </p>
                  )}
                </div>
                <p className="shrink-0 font-semibold">{formatMoney(l.lineTotalCents)}</p>
              </li>
            ))}
          </ul>
          {shipNowNote(order) && (
            <p className="border-t border-slate-100 px-5 py-3 text-sm text-slate-700" data-testid="ship-now">
              {shipNowNote(order)}
            </p>
          )}
          <dl className="space-y-2 border-t border-slate-100 px-5 py-4 text-sm">
            <div className={row}>
              <dt className="text-slate-600">Subtotal</dt>
              <dd>{formatMoney(order.subtotalCents)}</dd>
            </div>
            <div className={row}>
              <dt className="text-slate-600">IVA (incluido)</dt>
              <dd>{formatMoney(order.ivaCents)}</dd>
            </div>
            <div className={row}>
              <dt className="text-slate-600">Envío</dt>
              <dd>{formatMoney(order.shippingCents)}</dd>
            </div>
            <div className={`${row} border-t border-slate-100 pt-2 text-base font-bold`}>
              <dt>Total</dt>
              <dd data-testid="summary-total">{formatMoney(order.totalCents)}</dd>
            </div>
            {order.payment && (
              <div className={row}>
                <dt className="text-slate-600">Forma de pago</dt>
                <dd data-testid="summary-payment-method">
                  {order.payment.methodLabel}
                  {order.payment.msiMonths ? ` · ${order.payment.msiMonths} meses sin intereses` : ''}
                </dd>
              </div>
            )}
          </dl>
        </section>
        <aside className="space-y-6">
          {order.delivery.method === 'pickup' && order.delivery.branch ? (
            <section
              className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
              data-testid="summary-pickup"
            >
              <h2 className="mb-3 font-semibold text-slate-900">Recoger en sucursal</h2>
              <p className="text-sm leading-6 text-slate-700">
                <strong>{order.delivery.branch.name}</strong>
                <br />
                {order.delivery.branch.address}
                <br />
                Horario: {order.delivery.branch.hours}
              </p>
              <p className="mt-2 text-xs text-slate-500">
                Le enviaremos un correo con su código de recolección cuando su pedido esté listo.
              </p>
            </section>
          ) : (
            <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
              <h2 className="mb-3 font-semibold text-slate-900">
                Dirección de envío{order.delivery.method === 'air' ? ' (paquetería aérea)' : ''}
              </h2>
              <AddressLines address={order.address} />
            </section>
          )}
          {order.invoiceState === 'issued' && (
            <section
              className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
              data-testid="summary-invoice"
            >
              <h2 className="mb-1 font-semibold text-slate-900">Factura emitida</h2>
              <p className="mb-3 text-sm text-slate-600">
                A nombre de {order.billingName} ({order.billingNumber})
              </p>
              <InvoiceLinks
                number={order.number}
                className="inline-flex items-center gap-1 rounded-lg border px-3 py-2 text-sm"
              />
            </section>
          )}
          {(order.purchaseOrder || order.quotationFolio) && (
            <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
              <h2 className="mb-3 font-semibold text-slate-900">Referencias de compra</h2>
              <dl className="space-y-2 text-sm">
                {order.purchaseOrder && (
                  <div>
                    <dt className="text-xs uppercase tracking-wide text-slate-500">Orden de compra</dt>
                    <dd className="font-medium text-slate-900" data-testid="summary-purchase-order">
                      {order.purchaseOrder}
                    </dd>
                  </div>
                )}
                {order.quotationFolio && (
                  <div>
                    <dt className="text-xs uppercase tracking-wide text-slate-500">Cotización</dt>
                    <dd className="font-medium text-slate-900">{order.quotationFolio}</dd>
                  </div>
                )}
              </dl>
            </section>
          )}
          <div className="flex flex-col gap-3">
            <Link
              to="/historial"
              className="rounded-lg bg-brand-700 px-5 py-3 text-center font-semibold text-white hover:bg-brand-800"
            >
              Ver historial de pedidos
            </Link>
            <Link
              to="/"
              className="rounded-lg border border-slate-300 bg-white px-5 py-3 text-center font-medium text-slate-700 hover:bg-slate-50"
            >
              Seguir comprando
            </Link>
          </div>
        </aside>
      </div>
    </div>
  );
}

function SummaryLoader() {
  const { number } = useParams();
  const order = useOrder(Number(number));
  if (order.isPending && Number.isInteger(Number(number))) return <Spinner />;
  if (order.data) return <Summary order={order.data} />;
  const missing =
    !(order.error instanceof ApiError) || order.error.status === 404 || order.error.status === 400;
  return (
    <div className="py-12 text-center">
      <h1 className="text-xl font-semibold text-slate-900">
        {missing ? 'Pedido no encontrado' : 'Error de conexión'}
      </h1>
      <Link to="/historial" className="mt-4 inline-block font-medium text-brand-700 hover:underline">
        Ver historial de pedidos
      </Link>
    </div>
  );
}

/** /resumen/{number} — the thank-you page (spec §2 Order confirmation), or the order's real state when it is not paid. */
export function Component() {
  useDocumentTitle(shopTitle('Resumen del pedido'));
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <RequireSignedIn>
        <SummaryLoader />
      </RequireSignedIn>
    </div>
  );
}

/** 'Sobre pedido' (decision 029): when part of the order is backordered, by when what was in stock ships. */
export function shipNowNote(order: Pick<OrderDetail, 'lines' | 'shipNowBy'>): string | null {
  if (!order.shipNowBy) return null;
  const backordered = order.lines.some((l) => l.backorderedQuantity > 0);
  const fromStock = order.lines.some((l) => l.quantity > l.backorderedQuantity);
  return backordered && fromStock ? `${shipNowText(order.shipNowBy)}.` : null;
}
