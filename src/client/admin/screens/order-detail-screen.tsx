import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import { useSingleFlight } from '@/client/lib/use-single-flight.ts';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { orderLineSplitText, shipNowText } from '@/shared/backorder.ts';
import { formatMoney } from '@/shared/money.ts';
import { staffCancellationRefundSentence } from '@/shared/refund-routes.ts';
import {
  type AdminCancelOrderInput,
  type AdminOrderDetail,
  adminCancelOrderSchema,
  type ReleaseUnpaidOrderInput,
  releaseUnpaidOrderSchema,
  type ShipOrderInput,
  shipOrderSchema,
} from '@/shared/schemas/admin.ts';
import { useAdminOrder } from '../api/get-order.ts';
import { useOrderAction } from '../api/order-actions.ts';
import {
  Badge,
  buttonClass,
  FieldMessage,
  fieldClass,
  formatDateTime,
  formatDay,
  Panel,
  ScreenTitle,
  serverFields,
} from '../components/admin-ui.tsx';
import { useCan } from '../components/permissions.tsx';
import { AuditList } from './audit-screen.tsx';
import { InvoicePanel } from './order-invoice-panel.tsx';
import { OrderMoneyPanel } from './order-money-panel.tsx';
import { OrderReturnsPanel } from './order-returns-panel.tsx';
import { OrderShipmentsPanel } from './order-shipments-panel.tsx';

const PAYMENT_LABELS: Record<string, string> = {
  completed: 'Cobrado',
  refunded: 'Reembolsado',
  failed: 'Rechazado',
  in_progress: 'En proceso',
  charge_pending: 'Esperando 3-D Secure',
  unknown: 'Sin confirmar',
  error: 'Error (sin cargo)',
  cancelled: 'Cancelado en Openpay',
  chargeback_pending: 'Contracargo en disputa',
  chargeback_accepted: 'Contracargo perdido',
};

const PAYMENT_STATE_LABELS: Record<string, string> = {
  partially_refunded: 'Reembolso parcial',
  refunded: 'Pago reembolsado',
  in_dispute: 'Contracargo en disputa',
  lost: 'Contracargo perdido',
};

const PROVIDERS = ['Estafeta', 'DHL', 'FedEx', 'Paquetexpress', 'Redpack', 'Entrega propia'];

function ShipForm({ order }: { order: AdminOrderDetail }) {
  const action = useOrderAction(order.number);
  const flight = useSingleFlight();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ShipOrderInput>({
    // Raw values: the server parses them again with the same schema (it trusts nothing the browser sends).
    resolver: zodResolver(shipOrderSchema, undefined, { raw: true }),
    defaultValues: { trackingGuide: '', deliveryProvider: '', deliveryDate: '' },
  });
  const fields = serverFields(action.error);
  const error = (key: keyof ShipOrderInput) => errors[key]?.message ?? fields[key];
  const submit = handleSubmit((body) => flight.run(() => action.mutateAsync({ kind: 'ship', body })));
  return (
    <form onSubmit={submit} className="grid gap-3" aria-label="Enviar pedido" noValidate>
      <label className="text-sm font-medium text-slate-700">
        Guía de rastreo
        <input
          className={`${fieldClass} mt-1`}
          aria-invalid={Boolean(error('trackingGuide'))}
          {...register('trackingGuide')}
        />
        <FieldMessage message={error('trackingGuide')} />
      </label>
      <label className="text-sm font-medium text-slate-700">
        Paquetería
        <input
          className={`${fieldClass} mt-1`}
          list="paqueterias"
          aria-invalid={Boolean(error('deliveryProvider'))}
          {...register('deliveryProvider')}
        />
        <datalist id="paqueterias">
          {PROVIDERS.map((p) => (
            <option key={p} value={p} />
          ))}
        </datalist>
        <FieldMessage message={error('deliveryProvider')} />
      </label>
      <label className="text-sm font-medium text-slate-700">
        Fecha de entrega estimada
        <input
          type="date"
          className={`${fieldClass} mt-1`}
          aria-invalid={Boolean(error('deliveryDate'))}
          {...register('deliveryDate')}
        />
        <FieldMessage message={error('deliveryDate')} />
      </label>
      {action.error && Object.keys(fields).length === 0 ? (
        <Alert tone="danger">{action.error.message}</Alert>
      ) : null}
      <button type="submit" className={buttonClass.primary} disabled={flight.busy}>
        {flight.busy ? 'Guardando…' : 'Marcar enviado y avisar al cliente'}
      </button>
    </form>
  );
}

/**
 * A staff action on an order that needs a written reason (cancel with refund; release an unpaid order's stock):
 * a button that opens the form, the shared schema checked in the browser, the server's answer under the field.
 */
function ReasonAction(props: {
  order: AdminOrderDetail;
  kind: 'cancel' | 'release';
  schema: typeof adminCancelOrderSchema | typeof releaseUnpaidOrderSchema;
  open: string;
  title: string;
  intro: React.ReactNode;
  field: string;
  submit: [idle: string, busy: string];
  close: string;
  tone: 'danger' | 'warning';
}) {
  const action = useOrderAction(props.order.number);
  const flight = useSingleFlight();
  const [open, setOpen] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<AdminCancelOrderInput & ReleaseUnpaidOrderInput>({
    resolver: zodResolver(props.schema, undefined, { raw: true }),
    defaultValues: { reason: '' },
  });
  const fieldError = errors.reason?.message ?? serverFields(action.error).reason;
  const danger = props.tone === 'danger';
  if (!open) {
    return (
      <button
        type="button"
        className={danger ? buttonClass.danger : buttonClass.secondary}
        onClick={() => setOpen(true)}
      >
        {props.open}
      </button>
    );
  }
  return (
    <form
      className={`grid gap-3 rounded-lg border p-3 ${danger ? 'border-red-200 bg-red-50/50' : 'border-amber-200 bg-amber-50/60'}`}
      aria-label={props.title}
      noValidate
      onSubmit={handleSubmit((body) => flight.run(() => action.mutateAsync({ kind: props.kind, body })))}
    >
      <p className={`text-sm ${danger ? 'text-red-800' : 'text-amber-900'}`}>{props.intro}</p>
      <label className="text-sm font-medium text-slate-700">
        {props.field}
        <textarea
          className={`${fieldClass} mt-1`}
          rows={2}
          aria-invalid={Boolean(fieldError)}
          {...register('reason')}
        />
        <FieldMessage message={fieldError} />
      </label>
      {action.error && !fieldError ? <Alert tone="danger">{action.error.message}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        <button
          type="submit"
          className={danger ? buttonClass.danger : buttonClass.primary}
          disabled={flight.busy}
        >
          {flight.busy ? props.submit[1] : props.submit[0]}
        </button>
        <button type="button" className={buttonClass.secondary} onClick={() => setOpen(false)}>
          {props.close}
        </button>
      </div>
    </form>
  );
}

function CancelForm({ order }: { order: AdminOrderDetail }) {
  if (!order.actions.cancel) {
    return order.status === 'cancelled' ? null : (
      <p className="text-sm text-slate-500">
        Cancelar con reembolso no disponible: {order.actions.cancelBlockedReason}
      </p>
    );
  }
  return (
    <ReasonAction
      order={order}
      kind="cancel"
      schema={adminCancelOrderSchema}
      open="Cancelar con reembolso…"
      title="Cancelar pedido"
      intro={`${staffCancellationRefundSentence(order.paymentMethod, order.balances.keptCents)} La existencia vuelve al almacén y el cliente recibe un correo. No se puede deshacer.`}
      field="Motivo de la cancelación"
      submit={['Confirmar cancelación y reembolso', 'Reembolsando…']}
      close="No cancelar"
      tone="danger"
    />
  );
}

/**
 * 'Liberar existencias' (issue 37): an unpaid SPEI/store order holds its units until its deadline; staff cancel it
 * with a reason so others can buy them. Its reference stops counting; a payment that still arrives follows the
 * 'fuera de plazo' path.
 */
function ReleaseForm({ order }: { order: AdminOrderDetail }) {
  const units = order.lines.reduce((sum, l) => sum + l.quantity, 0);
  return (
    <ReasonAction
      order={order}
      kind="release"
      schema={releaseUnpaidOrderSchema}
      open="Liberar existencias…"
      title="Liberar existencias"
      intro={`El pedido se cancela sin cobro: su referencia de pago deja de valer y sus ${units} piezas vuelven a estar disponibles. Si el pago llega después, aparece en «Pago recibido fuera de plazo».`}
      field="Motivo"
      submit={['Confirmar y liberar existencias', 'Liberando…']}
      close="No liberar"
      tone="warning"
    />
  );
}

/** The single-guide form sends the whole order: not for a pickup, nor while goods are awaited (issue 35). */
const wholeShipmentFits = (order: AdminOrderDetail) =>
  order.delivery.method !== 'pickup' &&
  order.delivery.shipments.length === 0 &&
  order.delivery.lines.every((l) => l.awaited === 0);

const holdsStock = (order: AdminOrderDetail) =>
  order.status === 'pending_payment' && (order.paymentMethod === 'spei' || order.paymentMethod === 'cash');

function Actions({ order }: { order: AdminOrderDetail }) {
  const action = useOrderAction(order.number);
  const flight = useSingleFlight();
  // The steps are almacén's, cancelling (it refunds) contabilidad's: each hidden from a role without it.
  const can = useCan();
  const fulfil = can('pedidos.surtir');
  return (
    <Panel title="Acciones">
      <div className="grid gap-4">
        {fulfil && order.actions.prepare ? (
          <button
            type="button"
            className={buttonClass.primary}
            disabled={flight.busy}
            onClick={() => flight.run(() => action.mutateAsync({ kind: 'prepare' }))}
          >
            Marcar «En preparación»
          </button>
        ) : null}
        {fulfil && order.actions.ship && wholeShipmentFits(order) ? <ShipForm order={order} /> : null}
        {fulfil && order.actions.deliver ? (
          <button
            type="button"
            className={buttonClass.primary}
            disabled={flight.busy}
            onClick={() => flight.run(() => action.mutateAsync({ kind: 'deliver' }))}
          >
            Marcar «Entregado»
          </button>
        ) : null}
        {action.error ? <Alert tone="danger">{action.error.message}</Alert> : null}
        {!order.actions.prepare && !order.actions.ship && !order.actions.deliver ? (
          <p className="text-sm text-slate-500">
            {order.status === 'delivered'
              ? 'Pedido entregado: no hay más pasos.'
              : order.status === 'cancelled'
                ? 'Pedido cancelado.'
                : order.status === 'pending_payment' || order.status === 'payment_failed'
                  ? 'El pedido no está pagado.'
                  : 'Sin pasos pendientes.'}
          </p>
        ) : null}
        {holdsStock(order) ? (
          fulfil ? (
            <ReleaseForm order={order} />
          ) : null
        ) : can('dinero.reembolsar') ? (
          <CancelForm order={order} />
        ) : null}
      </div>
    </Panel>
  );
}

const Row = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <div className="grid grid-cols-[6.5rem_minmax(0,1fr)] gap-2 py-1 text-sm">
    <dt className="text-slate-500">{label}</dt>
    <dd className="min-w-0 break-words text-slate-900">{children}</dd>
  </div>
);

export function OrderDetailScreen() {
  const number = Number(useParams().number);
  useDocumentTitle(`Pedido #${number} — Administración`);
  const { data: order, isPending, error } = useAdminOrder(number);
  const can = useCan();
  if (isPending) return <Spinner />;
  if (error || !order) return <Alert tone="danger">{error?.message ?? 'Pedido no encontrado'}</Alert>;
  const a = order.address;
  return (
    <>
      <Link to="/admin/pedidos" className="text-sm text-brand-700 hover:underline">
        ← Pedidos
      </Link>
      <ScreenTitle
        title={
          <span className="flex flex-wrap items-center gap-3">
            Pedido #{order.number} <Badge tone={order.status}>{order.statusLabel}</Badge>
          </span>
        }
        subtitle={`Comprado el ${formatDateTime(order.date)}`}
      />
      <div className="grid grid-cols-[minmax(0,1fr)] gap-5 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-5">
          <Panel title="Artículos">
            <div className="overflow-x-auto">
              <table className="min-w-full text-sm">
                <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
                  <tr>
                    <th className="py-2 pr-3">Código</th>
                    <th className="py-2 pr-3">Descripción</th>
                    <th className="py-2 pr-3 text-right">Cant.</th>
                    <th className="py-2 pr-3 text-right">Precio</th>
                    <th className="py-2 text-right">Importe</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {order.lines.map((l) => (
                    <tr key={l.code}>
                      <td className="py-2 pr-3 whitespace-nowrap">
                        <Link
                          to={`/admin/productos/${encodeURIComponent(l.code)}`}
                          className="text-brand-700 hover:underline"
                        >
                          {l.code}
                        </Link>
                      </td>
                      <td className="py-2 pr-3">
                        {l.description}
                        {order.delivery.shipments.length === 0 && orderLineSplitText(l) && (
                          <span
                            className="block text-xs font-medium text-amber-800"
                            data-testid="line-backorder"
                          >
                            {orderLineSplitText(l)}
                          </span>
                        )}
                      </td>
                      <td className="py-2 pr-3 text-right tabular-nums">{l.quantity}</td>
                      <td className="py-2 pr-3 text-right tabular-nums whitespace-nowrap">
                        {formatMoney(l.unitPriceCents)}
                      </td>
                      <td className="py-2 text-right tabular-nums whitespace-nowrap">
                        {formatMoney(l.lineTotalCents)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {order.shipNowBy &&
                order.delivery.shipments.length === 0 &&
                order.lines.some((l) => l.backorderedQuantity > 0) && (
                  <p className="mt-2 text-sm text-slate-700">{shipNowText(order.shipNowBy)}.</p>
                )}
            </div>
            <dl className="ml-auto mt-3 max-w-xs text-sm">
              <Row label="Subtotal">{formatMoney(order.subtotalCents)}</Row>
              <Row label="Envío">{formatMoney(order.shippingCents)}</Row>
              <Row label="IVA incluido">{formatMoney(order.ivaCents)}</Row>
              <Row label="Total">
                <strong>{formatMoney(order.totalCents)}</strong>
              </Row>
              {order.refundedCents > 0 ? (
                <Row label="Reembolsado">{formatMoney(order.refundedCents)}</Row>
              ) : null}
            </dl>
          </Panel>
          <OrderShipmentsPanel order={order} />
          <OrderMoneyPanel order={order} />
          <div className="grid grid-cols-[minmax(0,1fr)] gap-5 md:grid-cols-2">
            <Panel title="Cliente">
              <dl>
                <Row label="Nombre">
                  <Link to={`/admin/clientes/${order.userId}`} className="text-brand-700 hover:underline">
                    {order.customerName}
                  </Link>
                </Row>
                <Row label="Correo">{order.email}</Row>
                <Row label="Teléfono">{order.phone}</Row>
                <Row label="Factura">
                  {order.invoiceState === 'issued'
                    ? `Facturado (${order.rfc})`
                    : order.invoiceState === 'cancelled'
                      ? 'Factura cancelada'
                      : 'Sin factura'}
                </Row>
              </dl>
            </Panel>
            <Panel title="Envío">
              <address className="text-sm not-italic leading-6 text-slate-800">
                {a.nombreEnvio}
                <br />
                {a.calleEnvio} {a.numExtEnvio}
                {a.numIntEnvio ? ` Int. ${a.numIntEnvio}` : ''}, {a.coloniaEnvio}
                <br />
                {a.cpEnvio} {a.municipioEnvio}, {a.estadoEnvio}
                <br />
                Tel. {a.telefonoEnvio}
              </address>
              <dl className="mt-3 border-t border-slate-100 pt-2">
                <Row label="Guía">{order.trackingGuide}</Row>
                <Row label="Paquetería">{order.deliveryProvider ?? '—'}</Row>
                <Row label="Entrega estimada">{formatDay(order.deliveryDate)}</Row>
                <Row label="Orden de compra">
                  <span data-testid="admin-purchase-order">{order.purchaseOrder ?? '—'}</span>
                </Row>
                {order.quotationFolio ? (
                  <Row label="Cotización">
                    <Link to={`/admin/cotizaciones/${order.quotationFolio}`} className="text-brand-700">
                      {order.quotationFolio}
                    </Link>
                  </Row>
                ) : null}
              </dl>
            </Panel>
          </div>
          {order.controlledDeclaration ? (
            <Panel title="Declaración de uso final (productos controlados)">
              <dl data-testid="admin-controlled-declaration">
                <Row label="Productos">
                  {order.controlledDeclaration.products.map((p) => (
                    <span key={p.code} className="block">
                      {p.quantity} × {p.name} <span className="text-slate-500">({p.code})</span>
                    </span>
                  ))}
                </Row>
                <Row label="RFC">
                  <span className="font-mono">{order.controlledDeclaration.rfc}</span>
                </Row>
                <Row label="Razón social">{order.controlledDeclaration.razonSocial}</Row>
                <Row label="Uso final">{order.controlledDeclaration.declaredUse}</Row>
                <Row label="Aceptada">
                  {formatDateTime(order.controlledDeclaration.acceptedAt)} · texto versión{' '}
                  {order.controlledDeclaration.textVersion}
                </Row>
              </dl>
              <details className="mt-2 text-xs text-slate-600">
                <summary className="cursor-pointer">Texto aceptado</summary>
                <p className="mt-1 leading-5">{order.controlledDeclaration.acceptedText}</p>
              </details>
            </Panel>
          ) : null}
          <Panel title="Pagos">
            {order.paymentState && PAYMENT_STATE_LABELS[order.paymentState] ? (
              <p className="mb-2">
                <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800">
                  {PAYMENT_STATE_LABELS[order.paymentState]}
                </span>
              </p>
            ) : null}
            {order.paymentAlerts.length > 0 ? (
              <div className="mb-3 grid gap-2">
                {order.paymentAlerts.map((alert) => (
                  <Alert key={`${alert.createdAt}-${alert.kind}`} tone="danger">
                    {formatDateTime(alert.createdAt)} · {alert.message}
                  </Alert>
                ))}
              </div>
            ) : null}
            {order.payments.length === 0 ? (
              <p className="text-sm text-slate-500">Sin intentos de pago.</p>
            ) : (
              <ul className="divide-y divide-slate-100 text-sm">
                {order.payments.map((p) => (
                  <li
                    key={`${p.createdAt}-${p.chargeId}`}
                    className="flex flex-wrap justify-between gap-2 py-2"
                  >
                    <span>
                      {formatDateTime(p.createdAt)} · {p.gateway} ·{' '}
                      <span className="font-mono text-xs">{p.chargeId ?? '—'}</span>
                    </span>
                    <span>
                      {PAYMENT_LABELS[p.status] ?? p.status} · {formatMoney(p.amountCents)}
                      {p.refundedCents ? ` (reembolsado ${formatMoney(p.refundedCents)})` : ''}
                    </span>
                  </li>
                ))}
              </ul>
            )}
            {order.cancelReason ? (
              <p className="mt-3 text-sm text-slate-700">
                <strong>Motivo de cancelación:</strong> {order.cancelReason}
              </p>
            ) : null}
          </Panel>
        </div>
        <div className="order-first grid content-start gap-5 lg:order-none">
          <Actions order={order} />
          {order.invoiceState === 'none' || !can('facturas.gestionar') ? null : (
            <InvoicePanel orderNumber={order.number} />
          )}
          {can('devoluciones.gestionar') ? <OrderReturnsPanel orderNumber={order.number} /> : null}
          <Panel title="Historial">
            <AuditList entries={order.history} empty="Sin acciones del personal todavía." />
          </Panel>
        </div>
      </div>
    </>
  );
}
