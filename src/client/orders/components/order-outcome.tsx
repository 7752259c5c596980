import { formatMoney } from '@/shared/money.ts';
import type { OrderDetail, OrderStatus } from '@/shared/schemas/orders.ts';

/**
 * What an order's state means to the shopper, told the same way on /resumen/{n} and in the receipt: only a
 * paid order shows the green mark and 'Fecha de compra'; a cancelled one is red, an unpaid one (declined,
 * abandoned, still waiting for the bank) is amber and never reads as a purchase.
 */
export type Outcome = 'bought' | 'cancelled' | 'failed' | 'pending';

export function outcomeOf(status: OrderStatus): Outcome {
  if (status === 'cancelled') return 'cancelled';
  if (status === 'payment_failed') return 'failed';
  if (status === 'pending_payment') return 'pending';
  return 'bought';
}

export const OUTCOME_HEADINGS: Record<Outcome, string> = {
  bought: '¡Pedido comprado con éxito!',
  cancelled: 'Pedido cancelado',
  failed: 'El pago no se completó',
  pending: 'Pago pendiente',
};

/** The line under the heading on /resumen. */
export function outcomeText(
  order: Pick<OrderDetail, 'status' | 'refundedCents' | 'refunds' | 'payment'>,
): string {
  if (order.status === 'pending_payment' && order.payment?.instructions) {
    return 'Sus productos están apartados. Realice el pago con las instrucciones de abajo antes de la fecha límite.';
  }
  // On credit (decision 060): nothing was charged; the invoice PPD comes with the shipment.
  if (order.status === 'on_credit')
    return 'Confirmado a crédito, sin cargo. Le enviaremos la factura a nombre de su institución (PPD) cuando se envíe el pedido.';
  switch (outcomeOf(order.status)) {
    case 'bought':
      return 'Le enviamos la confirmación a su correo electrónico.';
    case 'cancelled':
      // The server's sentence of the latest refund names its real route (card, or transfer to a CLABE).
      // Refunds recorded before refunds had their own rows (decision 045's migration) have only the amount.
      return (
        order.refunds.at(-1)?.sentence ??
        (order.refundedCents > 0
          ? `Reembolsamos ${formatMoney(order.refundedCents)}.`
          : 'El pedido no se enviará.')
      );
    case 'failed':
      return 'El banco no aprobó el pago y no se hizo ningún cargo. Puede intentarlo de nuevo desde su carrito.';
    case 'pending':
      return 'Esperamos la confirmación de su banco; no se ha hecho ningún cargo todavía.';
  }
}

/** Colours of the banner and of the mark, per outcome. */
export const OUTCOME_STYLES: Record<Outcome, { box: string; mark: string; text: string; sign: string }> = {
  bought: { box: 'border-green-200 bg-green-50', mark: 'bg-green-600', text: 'text-green-900', sign: '✓' },
  cancelled: { box: 'border-red-200 bg-red-50', mark: 'bg-red-600', text: 'text-red-900', sign: '✕' },
  failed: { box: 'border-red-200 bg-red-50', mark: 'bg-red-600', text: 'text-red-900', sign: '!' },
  pending: { box: 'border-amber-200 bg-amber-50', mark: 'bg-amber-500', text: 'text-amber-950', sign: '…' },
};

/** The round mark beside or above an order's state (an image to screen readers, named by the state). */
export function OutcomeMark({
  outcome,
  size = 'size-11 text-xl',
  label,
}: {
  outcome: Outcome;
  size?: string;
  label: string;
}) {
  const style = OUTCOME_STYLES[outcome];
  return (
    <span
      className={`flex shrink-0 items-center justify-center rounded-full font-bold text-white ${size} ${style.mark}`}
      role="img"
      aria-label={label}
      data-testid={`outcome-${outcome}`}
    >
      {style.sign}
    </span>
  );
}
