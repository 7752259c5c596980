import { useRef, useState } from 'react';
import { toast } from 'sonner';
import { ApiError } from '@/client/lib/api-client.ts';
import { Alert } from '@/client/ui/alert.tsx';
import type { PlaceOrder } from '@/shared/schemas/orders.ts';
import { placeOrder } from '../api/place-order.ts';
import { NETWORK_ERROR } from './card-payment.tsx';

type Extra = Pick<PlaceOrder, 'purchaseOrder' | 'quotation' | 'controlledDeclaration'>;

/**
 * «A crédito (N días)» (decision 060): one button places the order on the institution's credit line; it is confirmed
 * without payment and invoiced PPD. One attempt = one Idempotency-Key, as for the other ways of paying.
 */
export function CreditPayment({
  items,
  extra,
  days,
  disabled,
  onPlaced,
}: {
  items: { code: string; quantity: number }[];
  extra?: Extra;
  days: number | null;
  disabled: boolean;
  onPlaced: (number: number) => void;
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
      const result = await placeOrder(key.current, { items, ...extra, paymentMethod: 'credit' });
      key.current = null;
      onPlaced(result.number);
    } catch (error) {
      const lost = !(error instanceof ApiError) || error.status === 0;
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
        <li>Confirmamos su pedido sin pago y apartamos los productos.</li>
        <li>
          Al enviarlo emitimos la factura a nombre de la institución (método de pago PPD)
          {days ? `, con vencimiento a ${days} días` : ''}.
        </li>
        <li>Pague por transferencia; por cada pago le enviamos su CFDI de pago.</li>
      </ol>
      {failure && <Alert tone="danger">{failure}</Alert>}
      <button
        type="button"
        onClick={submit}
        disabled={processing || disabled}
        className="w-full rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
      >
        {processing ? 'Confirmando...' : 'Confirmar pedido a crédito'}
      </button>
    </div>
  );
}
