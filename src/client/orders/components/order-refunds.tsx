import { zodResolver } from '@hookform/resolvers/zod';
import { type FieldPath, useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { SubmitButton, TextField } from '@/client/ui/form-field.tsx';
import { showServerError } from '@/client/ui/server-errors.ts';
import { CLABE_LENGTH, checkClabe } from '@/shared/clabe.ts';
import { REFUND_STATE_LABELS } from '@/shared/refund-routes.ts';
import {
  type RefundAccount,
  type RefundAccountInput,
  type RefundView,
  refundAccountSchema,
} from '@/shared/schemas/refunds.ts';
import { useSetRefundAccount } from '../api/set-refund-account.ts';

const STATE_TONES: Record<RefundView['state'], string> = {
  owed: 'bg-amber-100 text-amber-900',
  in_progress: 'bg-sky-100 text-sky-900',
  done: 'bg-green-100 text-green-800',
  failed: 'bg-red-100 text-red-800',
};

const EMPTY: RefundAccountInput = { clabe: '', holderName: '' };

/**
 * 'Cuenta para su reembolso': money that came by SPEI or cash goes back by transfer to a CLABE the buyer gives.
 * The same schema as the server (18 digits, Banxico's check digit, a known bank); the bank is named as soon as
 * the number is valid, so the buyer sees the account is the one they meant before sending it.
 */
function RefundAccountForm({ number }: { number: number }) {
  const save = useSetRefundAccount();
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors },
  } = useForm<RefundAccountInput, unknown, RefundAccount>({
    resolver: zodResolver(refundAccountSchema),
    defaultValues: EMPTY,
  });
  const typed = checkClabe(watch('clabe') ?? '');
  const submit = handleSubmit((account) =>
    save.mutate(
      { number, account },
      {
        // The answer is the refund's new sentence, which the list above now shows too: a toast is enough.
        onSuccess: (answer) => toast.success(answer.message),
        onError: (error) =>
          showServerError(error, 'No se pudo guardar la cuenta. Intente de nuevo.', (field, message) => {
            if (field in EMPTY) setError(field as FieldPath<RefundAccountInput>, { message });
          }),
      },
    ),
  );
  const titleId = `cuenta-reembolso-${number}`;
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-labelledby={titleId}
      className="mt-3 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h3 id={titleId} className="font-semibold text-slate-900">
        Cuenta para su reembolso
      </h3>
      <p className="mt-1 text-sm text-slate-600">
        Indíquenos la CLABE de una cuenta bancaria a su nombre; le transferiremos ahí el dinero.
      </p>
      <div className="mt-3 grid gap-4 sm:grid-cols-2">
        <TextField
          label="CLABE (18 dígitos)"
          digitsOnly
          maxLength={CLABE_LENGTH}
          autoComplete="off"
          spellCheck={false}
          error={errors.clabe?.message}
          hint={
            <span aria-live="polite" data-testid="clabe-bank">
              {typed.ok ? `Banco: ${typed.bank}` : 'Está en su estado de cuenta o en la app de su banco.'}
            </span>
          }
          {...register('clabe')}
        />
        <TextField
          label="Titular de la cuenta"
          autoComplete="name"
          error={errors.holderName?.message}
          {...register('holderName')}
        />
      </div>
      <SubmitButton loading={save.isPending} loadingLabel="Guardando" className="mt-4 w-full sm:w-auto">
        Guardar cuenta
      </SubmitButton>
    </form>
  );
}

/**
 * The order's refunds as the buyer reads them: each with its state and the server's sentence of where the money
 * goes (by its real route), and the account form while a transfer is owed without a CLABE.
 */
export function OrderRefunds({ number, refunds }: { number: number; refunds: readonly RefundView[] }) {
  if (refunds.length === 0) return null;
  // One account pays every transfer owed on the order (the server records it on all of them).
  const needsAccount = refunds.some((r) => r.route !== 'card' && r.state === 'owed' && r.clabeLast4 === null);
  return (
    <section aria-label="Reembolsos" className="mt-4 space-y-2" data-testid="order-refunds">
      <ul className="space-y-2">
        {refunds.map((r) => (
          <li
            key={r.id}
            className="rounded-lg border border-slate-200 bg-slate-50 px-3 py-2.5 text-sm"
            data-testid="refund"
          >
            <span
              className={`mr-2 inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${STATE_TONES[r.state]}`}
              data-testid="refund-state"
            >
              {REFUND_STATE_LABELS[r.state]}
            </span>
            <span className="text-slate-800" data-testid="refund-sentence">
              {r.sentence}
            </span>
          </li>
        ))}
      </ul>
      {needsAccount ? <RefundAccountForm number={number} /> : null}
    </section>
  );
}
