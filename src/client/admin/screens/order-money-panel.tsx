import { zodResolver } from '@hookform/resolvers/zod';
import { type ReactNode, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSingleFlight } from '@/client/lib/use-single-flight.ts';
import { Alert } from '@/client/ui/alert.tsx';
import { CLABE_LENGTH, checkClabe } from '@/shared/clabe.ts';
import { formatMoney } from '@/shared/money.ts';
import {
  REFUND_ROUTE_LABELS,
  REFUND_STATE_LABELS,
  staffPartialRefundRouteText,
} from '@/shared/refund-routes.ts';
import type { AdminOrderDetail } from '@/shared/schemas/admin.ts';
import {
  type PartialRefund,
  type PartialRefundFormInput,
  partialRefundFormSchema,
  type RefundAccount,
  type RefundAccountInput,
  type RefundTransferInput,
  type RefundView,
  refundAccountSchema,
  refundTransferSchema,
} from '@/shared/schemas/refunds.ts';
import { usePartialRefund } from '../api/partial-refund.ts';
import { usePayRefundByPayout } from '../api/pay-refund-payout.ts';
import { useRecordRefundTransfer } from '../api/record-refund-transfer.ts';
import { useSetOrderRefundAccount } from '../api/set-refund-account.ts';
import {
  buttonClass,
  FieldMessage,
  fieldClass,
  formatAgeHours,
  formatDateTime,
  hoursSince,
  Panel,
  serverFields,
} from '../components/admin-ui.tsx';

/**
 * 'Dinero del pedido' (decision 045): the ledger's balances, every refund with its route and state, and what staff
 * do about them — a partial refund, the customer's CLABE, paying what is owed by an Openpay payout or recording a
 * transfer made from the bank. Every figure is the server's; each action answers the order as it now stands.
 */

const STATE_TONES: Record<RefundView['state'], string> = {
  owed: 'bg-amber-50 text-amber-800 ring-amber-300',
  in_progress: 'bg-sky-50 text-sky-800 ring-sky-300',
  done: 'bg-green-50 text-green-800 ring-green-300',
  failed: 'bg-red-50 text-red-700 ring-red-200',
};

export function RefundStateBadge({ state }: { state: RefundView['state'] }) {
  return (
    <span
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STATE_TONES[state]}`}
      data-testid="refund-state"
    >
      {REFUND_STATE_LABELS[state]}
    </span>
  );
}

/** A refund still owed is not tied to a way of paying it yet: it goes to a CLABE, by payout or by transfer. */
export const refundRouteLabel = (r: Pick<RefundView, 'route' | 'state'>) =>
  r.route !== 'card' && r.state !== 'done' ? 'Transferencia a CLABE' : REFUND_ROUTE_LABELS[r.route];

/** A labelled field whose message is tied to it (aria-describedby), in the back office's style. */
function Field({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error: string | undefined;
  hint?: ReactNode;
  children: (props: { id: string; 'aria-invalid': boolean; 'aria-describedby': string }) => ReactNode;
}) {
  const id = useId();
  return (
    <div className="text-sm">
      <label htmlFor={id} className="font-medium text-slate-700">
        {label}
      </label>
      <div className="mt-1">
        {children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': `${id}-note` })}
      </div>
      <div id={`${id}-note`}>
        {error ? (
          <FieldMessage message={error} />
        ) : hint ? (
          <span className="mt-1 block text-xs text-slate-500">{hint}</span>
        ) : null}
      </div>
    </div>
  );
}

function Balances({ balances }: { balances: AdminOrderDetail['balances'] }) {
  const tiles: { key: string; label: string; cents: number; tone?: string }[] = [
    { key: 'paid', label: 'Pagado', cents: balances.paidCents },
    { key: 'refunded', label: 'Reembolsado', cents: balances.refundedCents },
    {
      key: 'due',
      label: 'Por reembolsar',
      cents: balances.refundDueCents,
      tone: balances.refundDueCents > 0 ? 'text-amber-800' : undefined,
    },
    { key: 'kept', label: 'Queda', cents: balances.keptCents },
    { key: 'invoiced', label: 'Facturado', cents: balances.invoicedCents },
    { key: 'credited', label: 'Notas de crédito', cents: balances.creditedCents },
  ];
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3">
      {tiles.map((t) => (
        <div key={t.key} className="rounded-lg border border-slate-100 bg-slate-50 px-3 py-2">
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{t.label}</dt>
          <dd
            className={`mt-0.5 font-semibold tabular-nums ${t.tone ?? 'text-slate-900'}`}
            data-testid={`balance-${t.key}`}
          >
            {formatMoney(t.cents)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function PartialRefundForm({ order, onDone }: { order: AdminOrderDetail; onDone: () => void }) {
  const refund = usePartialRefund(order.number);
  const flight = useSingleFlight();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<PartialRefundFormInput, unknown, PartialRefund>({
    resolver: zodResolver(partialRefundFormSchema),
    defaultValues: { amount: '', reason: '' },
  });
  const fields = serverFields(refund.error);
  const amountError = errors.amount?.message ?? fields.amountCents;
  const reasonError = errors.reason?.message ?? fields.reason;
  return (
    <form
      className="mt-4 grid gap-3 rounded-lg border border-slate-200 bg-slate-50/60 p-3"
      aria-label="Reembolso parcial"
      noValidate
      onSubmit={handleSubmit((body) => flight.run(() => refund.mutateAsync(body).then(onDone)))}
    >
      <p className="text-sm text-slate-700">
        Queda por reembolsar {formatMoney(order.balances.keptCents)}.{' '}
        {staffPartialRefundRouteText(order.paymentMethod)}
      </p>
      <Field label="Importe (pesos, IVA incluido)" error={amountError}>
        {(props) => (
          <div className="relative max-w-48">
            <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm text-slate-500">
              $
            </span>
            <input
              {...props}
              className={`${fieldClass} pl-7 tabular-nums`}
              inputMode="decimal"
              autoComplete="off"
              placeholder="0.00"
              {...register('amount')}
            />
          </div>
        )}
      </Field>
      <Field label="Motivo del reembolso" error={reasonError}>
        {(props) => <textarea {...props} className={fieldClass} rows={2} {...register('reason')} />}
      </Field>
      {refund.error && !amountError && !reasonError ? (
        <Alert tone="danger">{refund.error.message}</Alert>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={buttonClass.primary} disabled={flight.busy}>
          {flight.busy ? 'Reembolsando…' : 'Reembolsar'}
        </button>
        <button type="button" className={buttonClass.secondary} onClick={onDone}>
          Cancelar
        </button>
      </div>
    </form>
  );
}

function AccountForm({ order, onDone }: { order: AdminOrderDetail; onDone: () => void }) {
  const save = useSetOrderRefundAccount(order.number);
  const flight = useSingleFlight();
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<RefundAccountInput, unknown, RefundAccount>({
    resolver: zodResolver(refundAccountSchema),
    defaultValues: { clabe: '', holderName: '' },
  });
  const fields = serverFields(save.error);
  const clabeError = errors.clabe?.message ?? fields.clabe;
  const holderError = errors.holderName?.message ?? fields.holderName;
  const typed = checkClabe(watch('clabe') ?? '');
  return (
    <form
      className="mt-3 grid gap-3 rounded-lg border border-slate-200 bg-white p-3"
      aria-label="Registrar CLABE"
      noValidate
      onSubmit={handleSubmit((body) => flight.run(() => save.mutateAsync(body).then(onDone)))}
    >
      <Field
        label="CLABE (18 dígitos)"
        error={clabeError}
        hint={<span aria-live="polite">{typed.ok ? `Banco: ${typed.bank}` : 'La que dio el cliente.'}</span>}
      >
        {(props) => (
          <input
            {...props}
            className={`${fieldClass} font-mono`}
            inputMode="numeric"
            autoComplete="off"
            maxLength={CLABE_LENGTH + 4}
            {...register('clabe')}
          />
        )}
      </Field>
      <Field label="Titular de la cuenta" error={holderError}>
        {(props) => (
          <input {...props} className={fieldClass} autoComplete="off" {...register('holderName')} />
        )}
      </Field>
      {save.error && !clabeError && !holderError ? <Alert tone="danger">{save.error.message}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={buttonClass.primary} disabled={flight.busy}>
          {flight.busy ? 'Guardando…' : 'Guardar CLABE'}
        </button>
        <button type="button" className={buttonClass.secondary} onClick={onDone}>
          Cancelar
        </button>
      </div>
    </form>
  );
}

function TransferForm({ refund, onDone }: { refund: RefundView; onDone: () => void }) {
  const record = useRecordRefundTransfer(refund.id);
  const flight = useSingleFlight();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<RefundTransferInput>({
    resolver: zodResolver(refundTransferSchema, undefined, { raw: true }),
    defaultValues: { reference: '' },
  });
  const referenceError = errors.reference?.message ?? serverFields(record.error).reference;
  return (
    <form
      className="mt-3 grid gap-3 rounded-lg border border-slate-200 bg-white p-3"
      aria-label="Registrar transferencia"
      noValidate
      onSubmit={handleSubmit((body) => flight.run(() => record.mutateAsync(body).then(onDone)))}
    >
      <p className="text-sm text-slate-700">
        Registre la transferencia de {formatMoney(refund.amountCents)} que hizo desde el banco de la tienda.
        El cliente recibe un correo.
      </p>
      <Field label="Referencia o clave de rastreo" error={referenceError}>
        {(props) => (
          <input
            {...props}
            className={`${fieldClass} font-mono`}
            autoComplete="off"
            {...register('reference')}
          />
        )}
      </Field>
      {record.error && !referenceError ? <Alert tone="danger">{record.error.message}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={buttonClass.primary} disabled={flight.busy}>
          {flight.busy ? 'Guardando…' : 'Registrar transferencia'}
        </button>
        <button type="button" className={buttonClass.secondary} onClick={onDone}>
          Cancelar
        </button>
      </div>
    </form>
  );
}

function PayoutConfirm({ refund, onDone }: { refund: RefundView; onDone: () => void }) {
  const pay = usePayRefundByPayout();
  const flight = useSingleFlight();
  return (
    <div className="mt-3 grid gap-3 rounded-lg border border-brand-200 bg-brand-50/60 p-3 text-sm">
      <p className="text-slate-800">
        Openpay transferirá {formatMoney(refund.amountCents)} a la CLABE terminada en {refund.clabeLast4}
        {refund.holderName ? ` (${refund.holderName})` : ''}. El cliente recibe un correo cuando se ejecute.
      </p>
      {pay.error ? <Alert tone="danger">{pay.error.message}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={buttonClass.primary}
          disabled={flight.busy}
          onClick={() => flight.run(() => pay.mutateAsync(refund.id).then(onDone))}
        >
          {flight.busy ? 'Enviando a Openpay…' : 'Confirmar pago'}
        </button>
        <button type="button" className={buttonClass.secondary} onClick={onDone}>
          Cancelar
        </button>
      </div>
    </div>
  );
}

type Opened = 'account' | 'payout' | 'transfer' | null;

function RefundItem({ order, refund }: { order: AdminOrderDetail; refund: RefundView }) {
  const [opened, setOpened] = useState<Opened>(null);
  const owedToClabe = refund.route !== 'card' && refund.state === 'owed';
  const toggle = (what: Exclude<Opened, null>) => setOpened((now) => (now === what ? null : what));
  return (
    <li className="py-3" data-testid="admin-refund">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="flex flex-wrap items-center gap-2">
          <strong className="tabular-nums text-slate-900">{formatMoney(refund.amountCents)}</strong>
          <RefundStateBadge state={refund.state} />
          <span className="text-sm text-slate-600">{refundRouteLabel(refund)}</span>
        </span>
        <span className="text-xs text-slate-500">
          {refund.doneAt
            ? `Pagado el ${formatDateTime(refund.doneAt)}`
            : `Abierto hace ${formatAgeHours(hoursSince(refund.createdAt))}`}
        </span>
      </div>
      <dl className="mt-1.5 grid gap-x-4 gap-y-0.5 text-sm sm:grid-cols-[auto_minmax(0,1fr)]">
        <dt className="text-slate-500">Motivo</dt>
        <dd className="text-slate-800">{refund.reason}</dd>
        {refund.route !== 'card' ? (
          <>
            <dt className="text-slate-500">Cuenta</dt>
            <dd className="text-slate-800" data-testid="refund-account">
              {refund.clabeLast4 ? (
                `CLABE terminada en ${refund.clabeLast4}${refund.holderName ? ` · ${refund.holderName}` : ''}`
              ) : (
                <span className="font-medium text-amber-800">Sin CLABE</span>
              )}
            </dd>
          </>
        ) : null}
        {refund.reference ? (
          <>
            <dt className="text-slate-500">Referencia</dt>
            <dd className="break-all font-mono text-xs text-slate-800 sm:leading-5">{refund.reference}</dd>
          </>
        ) : null}
      </dl>
      {refund.errorMessage ? (
        <p className="mt-2 text-sm text-red-700">Último intento rechazado: {refund.errorMessage}</p>
      ) : null}
      {owedToClabe ? (
        <div className="mt-3 flex flex-wrap gap-2">
          <button type="button" className={buttonClass.secondary} onClick={() => toggle('account')}>
            {refund.clabeLast4 ? 'Cambiar CLABE' : 'Registrar CLABE'}
          </button>
          {refund.clabeLast4 ? (
            <button type="button" className={buttonClass.primary} onClick={() => toggle('payout')}>
              Pagar por Openpay
            </button>
          ) : null}
          <button type="button" className={buttonClass.secondary} onClick={() => toggle('transfer')}>
            Registrar transferencia
          </button>
        </div>
      ) : null}
      {owedToClabe && opened === 'account' ? (
        <AccountForm order={order} onDone={() => setOpened(null)} />
      ) : null}
      {owedToClabe && opened === 'payout' ? (
        <PayoutConfirm refund={refund} onDone={() => setOpened(null)} />
      ) : null}
      {owedToClabe && opened === 'transfer' ? (
        <TransferForm refund={refund} onDone={() => setOpened(null)} />
      ) : null}
    </li>
  );
}

export function OrderMoneyPanel({ order }: { order: AdminOrderDetail }) {
  const [partial, setPartial] = useState(false);
  // What is left to give back is the server's figure; the server refuses more anyway.
  const canRefund = order.balances.keptCents > 0 && order.paidAt !== null;
  return (
    <div data-testid="order-money">
      <Panel
        title="Dinero del pedido"
        actions={
          canRefund && !partial ? (
            <button type="button" className={buttonClass.secondary} onClick={() => setPartial(true)}>
              Reembolso parcial
            </button>
          ) : null
        }
      >
        <Balances balances={order.balances} />
        {partial ? <PartialRefundForm order={order} onDone={() => setPartial(false)} /> : null}
        <h3 className="mt-5 text-sm font-semibold text-slate-900">Reembolsos</h3>
        {order.refunds.length === 0 ? (
          <p className="mt-1 text-sm text-slate-500">Sin reembolsos.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {order.refunds.map((r) => (
              <RefundItem key={r.id} order={order} refund={r} />
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}
