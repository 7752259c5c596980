import { zodResolver } from '@hookform/resolvers/zod';
import { type ReactNode, useId } from 'react';
import { useForm } from 'react-hook-form';
import { useSingleFlight } from '@/client/lib/use-single-flight.ts';
import { Alert } from '@/client/ui/alert.tsx';
import { CLABE_LENGTH, checkClabe } from '@/shared/clabe.ts';
import { formatMoney } from '@/shared/money.ts';
import { staffPartialRefundRouteText } from '@/shared/refund-routes.ts';
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
import { buttonClass, FieldMessage, fieldClass, serverFields } from '../components/admin-ui.tsx';

/**
 * What staff do about an order's money (the 'Dinero del pedido' panel): a partial refund typed in pesos, the
 * customer's CLABE, an Openpay payout of what is owed, or a transfer made from the bank. Each form checks the
 * shared schema first and shows the server's field messages under the same fields.
 */

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

export function PartialRefundForm({ order, onDone }: { order: AdminOrderDetail; onDone: () => void }) {
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

export function AccountForm({ order, onDone }: { order: AdminOrderDetail; onDone: () => void }) {
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

export function TransferForm({ refund, onDone }: { refund: RefundView; onDone: () => void }) {
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

export function PayoutConfirm({ refund, onDone }: { refund: RefundView; onDone: () => void }) {
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
