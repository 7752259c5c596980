import { useRef, useState } from 'react';
import { toast } from 'sonner';
import { ApiError } from '@/client/lib/api-client.ts';
import { Alert } from '@/client/ui/alert.tsx';
import { methodsThatCanPay, payableMethodsNote } from '@/shared/charge-limits.ts';
import {
  type DelayedMethod,
  delayedHoldHours,
  msiOptions,
  PAYMENT_METHOD_LABELS,
  type PaymentMethod,
} from '@/shared/payment-methods.ts';
import type { PlaceOrder } from '@/shared/schemas/orders.ts';
import { useCreditOffer } from '../api/get-credit-offer.ts';
import { placeOrder } from '../api/place-order.ts';
import { CardPayment, NETWORK_ERROR } from './card-payment.tsx';
import { CreditPayment } from './credit-payment.tsx';

type Items = { code: string; quantity: number }[];
/** More of the order, whatever the way of paying: the purchase-order number, the quotation, the invoice profile. */
type Extra = Pick<PlaceOrder, 'purchaseOrder' | 'quotation' | 'invoiceProfileId' | 'controlledDeclaration'>;

const HINTS: Record<PaymentMethod, string> = {
  card: 'Visa, Mastercard o American Express. Pago inmediato.',
  spei: `Transferencia desde su banco a una CLABE única. Apartamos sus productos al menos ${delayedHoldHours('spei')} h, hasta el final de un día hábil.`,
  cash: `OXXO, 7-Eleven, Walmart, farmacias y más tiendas Paynet. Apartamos sus productos al menos ${delayedHoldHours('cash')} h, hasta el final de un día hábil.`,
};

/**
 * SPEI or cash: one button makes the order and its payment reference (no card data). One attempt = one
 * Idempotency-Key, as for cards: a lost answer is asked again with the same key and never makes two orders.
 */
function DelayedPayment({
  method,
  items,
  extra,
  disabled,
  onAwaiting,
}: {
  method: DelayedMethod;
  items: Items;
  extra?: Extra;
  disabled: boolean;
  onAwaiting: (number: number) => void;
}) {
  const key = useRef<string | null>(null);
  const [processing, setProcessing] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const submit = async () => {
    if (processing || disabled) return;
    setProcessing(true);
    setFailure(null);
    key.current ??= crypto.randomUUID();
    try {
      const result = await placeOrder(key.current, { items, ...extra, paymentMethod: method });
      key.current = null;
      onAwaiting(result.number);
    } catch (error) {
      const lost = !(error instanceof ApiError) || error.status === 0 || error.code === 'payment_unknown';
      if (!lost) key.current = null;
      const message = error instanceof ApiError && error.status !== 0 ? error.message : NETWORK_ERROR;
      setFailure(message);
      toast.error(message);
    } finally {
      setProcessing(false);
    }
  };
  return (
    <div className="space-y-4">
      <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700">
        {method === 'spei' ? (
          <>
            <li>Al confirmar le damos una CLABE y una referencia para este pedido.</li>
            <li>Transfiera el importe exacto desde su banca en línea antes de la fecha límite.</li>
          </>
        ) : (
          <>
            <li>Al confirmar le damos una referencia y un código de barras.</li>
            <li>Pague en efectivo en cualquier tienda Paynet antes de la fecha límite.</li>
          </>
        )}
        <li>Confirmamos su pedido en cuanto recibimos el pago y le avisamos por correo.</li>
      </ol>
      {failure && <Alert tone="danger">{failure}</Alert>}
      <button
        type="button"
        onClick={submit}
        disabled={processing || disabled}
        className="w-full rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
      >
        {processing ? 'Generando referencia...' : 'Generar referencia de pago'}
      </button>
    </div>
  );
}

/**
 * /orden's payment (issue 21): card — optionally on meses sin intereses when the total allows — SPEI transfer,
 * or cash at a store. The server decides every amount and whether the months are allowed.
 */
export function PaymentChoice({
  items,
  totalCents,
  extra,
  disabled,
  onPaid,
  onAwaiting,
}: {
  items: Items;
  totalCents: number;
  extra?: Extra;
  disabled: boolean;
  onPaid: (number: number) => void;
  onAwaiting: (number: number) => void;
}) {
  const [picked, setPicked] = useState<PaymentMethod | 'credit'>('card');
  // Only the ways of payment whose maximum the server's total fits (decision 048); the server refuses the others.
  const payable = methodsThatCanPay(totalCents);
  const payableNote = payableMethodsNote(totalCents);
  // Buying for an institution with a credit line (decision 060): «A crédito (N días)», or why not, as the server says.
  const credit = useCreditOffer(totalCents).data;
  const showCredit = credit !== undefined && (credit.offered || credit.reason !== null);
  const method =
    picked === 'credit'
      ? credit?.offered
        ? 'credit'
        : (payable[0] ?? 'card')
      : payable.includes(picked)
        ? picked
        : (payable[0] ?? picked);
  const days = credit?.label ? Number(credit.label.match(/\d+/)?.[0] ?? 0) || null : null;
  const [months, setMonths] = useState<0 | 3 | 6 | 9 | 12>(0);
  const plans = msiOptions(totalCents) as readonly (3 | 6 | 9 | 12)[];
  const chosenMonths = plans.includes(months as 3) ? (months as 3 | 6 | 9 | 12) : undefined;
  return (
    <div className="space-y-4">
      {payableNote && <Alert tone={payable.length === 0 ? 'danger' : 'info'}>{payableNote}</Alert>}
      <fieldset>
        <legend className="sr-only">Forma de pago</legend>
        <div className="grid gap-2">
          {(['card', 'spei', 'cash'] as const).map((m) => (
            <label
              key={m}
              className={`flex items-start gap-3 rounded-lg border p-3 ${
                !payable.includes(m)
                  ? 'cursor-not-allowed border-slate-200 opacity-50'
                  : method === m
                    ? 'cursor-pointer border-brand-600 bg-brand-50'
                    : 'cursor-pointer border-slate-200 hover:border-slate-300'
              }`}
            >
              <input
                type="radio"
                name="forma-de-pago"
                value={m}
                checked={method === m}
                disabled={!payable.includes(m)}
                onChange={() => setPicked(m)}
                className="mt-1 accent-brand-700"
              />
              <span>
                <span className="block font-medium text-slate-900">{PAYMENT_METHOD_LABELS[m]}</span>
                <span className="block text-xs text-slate-600">{HINTS[m]}</span>
              </span>
            </label>
          ))}
          {showCredit && (
            <label
              className={`flex items-start gap-3 rounded-lg border p-3 ${
                !credit.offered
                  ? 'cursor-not-allowed border-slate-200'
                  : method === 'credit'
                    ? 'cursor-pointer border-brand-600 bg-brand-50'
                    : 'cursor-pointer border-slate-200 hover:border-slate-300'
              }`}
            >
              <input
                type="radio"
                name="forma-de-pago"
                value="credit"
                checked={method === 'credit'}
                disabled={!credit.offered}
                onChange={() => setPicked('credit')}
                className="mt-1 accent-brand-700"
              />
              <span>
                <span className={`block font-medium ${credit.offered ? 'text-slate-900' : 'text-slate-500'}`}>
                  {credit.label ?? 'A crédito'}
                </span>
                <span className="block text-xs text-slate-600" data-testid="credit-hint">
                  {credit.offered
                    ? 'Factura a nombre de la institución, pago por transferencia al vencimiento.'
                    : credit.reason}
                </span>
              </span>
            </label>
          )}
        </div>
      </fieldset>
      {method === 'credit' ? (
        <CreditPayment
          items={items}
          extra={
            extra
              ? {
                  purchaseOrder: extra.purchaseOrder,
                  quotation: extra.quotation,
                  controlledDeclaration: extra.controlledDeclaration,
                }
              : undefined
          }
          days={days}
          disabled={disabled}
          onPlaced={onPaid}
        />
      ) : method === 'card' ? (
        <>
          {plans.length > 0 && (
            <label className="block text-sm">
              <span className="mb-1 block font-medium text-slate-800">Meses sin intereses</span>
              <select
                value={months}
                onChange={(e) => setMonths(Number(e.target.value) as 0 | 3 | 6 | 9 | 12)}
                className="w-full rounded-lg border border-slate-300 px-3 py-2"
                aria-label="Meses sin intereses"
              >
                <option value={0}>Una sola exhibición</option>
                {plans.map((n) => (
                  <option key={n} value={n}>
                    {n} meses sin intereses
                  </option>
                ))}
              </select>
              <span className="mt-1 block text-xs text-slate-500">
                Solo con tarjetas de crédito participantes; su banco difiere el cargo total.
              </span>
            </label>
          )}
          <CardPayment
            items={items}
            extra={extra}
            disabled={disabled}
            onPaid={onPaid}
            msiMonths={chosenMonths}
          />
        </>
      ) : (
        <DelayedPayment
          key={method}
          method={method}
          items={items}
          extra={extra}
          disabled={disabled}
          onAwaiting={onAwaiting}
        />
      )}
    </div>
  );
}
