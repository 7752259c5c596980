import { zodResolver } from '@hookform/resolvers/zod';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { ApiError } from '@/client/lib/api-client.ts';
import { Alert } from '@/client/ui/alert.tsx';
import { SubmitButton, TextField } from '@/client/ui/form-field.tsx';
import type { PlaceOrder } from '@/shared/schemas/orders.ts';
import { type CardForm, cardFormSchema } from '@/shared/schemas/payments.ts';
import { usePaymentsConfig } from '../api/get-payments-config.ts';
import { placeOrder } from '../api/place-order.ts';
import { CardTokenError, createCardToken } from '../lib/card-token.ts';

const FORM_ID = 'pago-con-tarjeta';
/** Remembered across the 3-D Secure round trip so /resumen knows the cart can be emptied. */
export const PENDING_ORDER_KEY = 'pendingOrder';

type Attempt = { key: string; body: PlaceOrder };

/** The order's request got no answer: the same attempt (same key) is asked again, never charged twice. */
export const NETWORK_ERROR =
  'Error de red al crear la orden. Revise su conexión e intente de nuevo: no se cobrará dos veces.';

/** Spec §4: a completed charge shows the success message and the notice of the redirect. */
export function PaymentSuccess() {
  return (
    <div role="status" className="rounded-xl border border-green-200 bg-green-50 p-8 text-center">
      <span className="mx-auto mb-3 flex size-12 items-center justify-center rounded-full bg-green-600 text-2xl text-white">
        ✓
      </span>
      <p className="text-lg font-semibold text-green-800">Pago realizado con éxito</p>
      <p className="mt-1 text-sm text-green-900">
        Será redirigido a la página de confirmación de compra en breve.
      </p>
    </div>
  );
}

/**
 * The card form (spec §5) and the payment (spec §4): digits only, number ≤ 16, month and year 2,
 * CVC ≤ 4 masked; 'Procesando...' while paying. One attempt = one Idempotency-Key: a double click or
 * a retry after a lost answer sends the same key and body, so the card is charged at most once.
 */
export function CardPayment({
  items,
  extra,
  disabled,
  onPaid,
  msiMonths,
}: {
  items: { code: string; quantity: number }[];
  /** More of the order: the purchase-order number, the quotation converted (issue 20). */
  extra?: Pick<PlaceOrder, 'purchaseOrder' | 'quotation' | 'invoiceProfileId'>;
  disabled: boolean;
  onPaid: (number: number) => void;
  /** Meses sin intereses chosen beside the form (issue 21); undefined: one payment. */
  msiMonths?: 3 | 6 | 9 | 12 | undefined;
}) {
  const config = usePaymentsConfig();
  const attempt = useRef<Attempt | null>(null);
  const [processing, setProcessing] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [paid, setPaid] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<CardForm>({
    resolver: zodResolver(cardFormSchema),
    defaultValues: { holder_name: '', card_number: '', expiration_month: '', expiration_year: '', cvv2: '' },
  });

  // Digits only, cut at the field's length after removing spaces or dashes (a pasted "4111 1111 …").
  const digits = (name: keyof CardForm, max: number) => {
    const field = register(name);
    return {
      ...field,
      inputMode: 'numeric' as const,
      onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
        e.target.value = e.target.value.replace(/\D/g, '').slice(0, max);
        return field.onChange(e);
      },
    };
  };

  const pay = async (card: CardForm) => {
    if (processing || paid || disabled || !config.data) return;
    setProcessing(true);
    setFailure(null);
    try {
      if (!attempt.current) {
        const { token, deviceSessionId } = await createCardToken(config.data, FORM_ID, card);
        attempt.current = {
          key: crypto.randomUUID(),
          body: { items, ...extra, cardToken: token, deviceSessionId, ...(msiMonths ? { msiMonths } : {}) },
        };
      }
      const { key, body } = attempt.current;
      const result = await placeOrder(key, body);
      if ('redirectUrl' in result) {
        if (!result.redirectUrl) {
          attempt.current = null;
          toast.error('No se pudo redireccionar.');
          setFailure('No se pudo redireccionar.');
          return;
        }
        sessionStorage.setItem(PENDING_ORDER_KEY, String(result.number));
        window.location.assign(result.redirectUrl);
        return;
      }
      attempt.current = null;
      setPaid(true);
      onPaid(result.number);
    } catch (error) {
      // A lost answer (network, 503 unknown): keep the attempt, the next click asks again with the same key.
      // 'payment_error' (the payment failed on our side, nothing charged, the order released) is an answer:
      // the next click is a new attempt.
      const unknown =
        !(error instanceof CardTokenError) &&
        (!(error instanceof ApiError) ||
          error.status === 0 ||
          (error.status === 503 && error.code !== 'payment_error'));
      if (!unknown || (error instanceof ApiError && error.code === 'idempotency_mismatch'))
        attempt.current = null;
      // Only the bank or the gateway declines a card; a request that never got its answer is a network error.
      const message =
        error instanceof CardTokenError || (error instanceof ApiError && error.status !== 0)
          ? error.message
          : NETWORK_ERROR;
      setFailure(message);
      toast.error(message);
    } finally {
      setProcessing(false);
    }
  };

  if (paid) return <PaymentSuccess />;

  return (
    <form
      id={FORM_ID}
      noValidate
      onSubmit={handleSubmit(pay)}
      className="space-y-4"
      aria-label="Pago con tarjeta"
    >
      {config.data?.gateway === 'sandbox' && (
        <Alert tone="info">
          Modo de pruebas: use la tarjeta de crédito 4111 1111 1111 1111 (o la de débito 5555 5555 5555 4444,
          que no admite meses sin intereses) con cualquier fecha futura y CVC. Ninguna tarjeta real se cobra.
        </Alert>
      )}
      <TextField
        label="Nombre del titular"
        autoComplete="cc-name"
        error={errors.holder_name?.message}
        {...register('holder_name')}
      />
      <TextField
        label="Número de tarjeta"
        autoComplete="cc-number"
        error={errors.card_number?.message}
        {...digits('card_number', 16)}
      />
      <div className="grid grid-cols-3 gap-3">
        <TextField
          label="Mes"
          placeholder="MM"
          autoComplete="cc-exp-month"
          error={errors.expiration_month?.message}
          {...digits('expiration_month', 2)}
        />
        <TextField
          label="Año"
          placeholder="AA"
          autoComplete="cc-exp-year"
          error={errors.expiration_year?.message}
          {...digits('expiration_year', 2)}
        />
        <TextField
          label="CVC"
          type="password"
          autoComplete="cc-csc"
          error={errors.cvv2?.message}
          {...digits('cvv2', 4)}
        />
      </div>
      {failure && <Alert tone="danger">{failure}</Alert>}
      <SubmitButton
        loading={processing}
        loadingLabel="Procesando..."
        className={`w-full py-3 ${disabled || !config.data ? 'pointer-events-none opacity-60' : ''}`}
      >
        Pagar
      </SubmitButton>
      <p className="flex items-center justify-center gap-1.5 text-xs text-slate-500">
        <span aria-hidden="true">🔒</span> Los datos de su tarjeta van cifrados directamente al procesador de
        pagos.
      </p>
    </form>
  );
}
