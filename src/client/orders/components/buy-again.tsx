import type { LineToAdd } from '@/client/lib/add-at-todays-prices.ts';
import { AddAtTodaysPricesButton } from '@/client/lib/add-at-todays-prices-button.tsx';
import type { OrderDetail } from '@/shared/schemas/orders.ts';
import { getOrder } from '../api/get-order.ts';

/**
 * 'Volver a comprar' (history and receipt): the order's products go to the cart at today's prices, under the cart's
 * stock rule; what changed since — price, no longer sold, less stock — is said line by line.
 */
const toLines = (order: OrderDetail): LineToAdd[] =>
  order.lines.map((l) => ({
    code: l.code,
    quantity: l.quantity,
    description: l.description,
    knownPriceCents: l.unitPriceCents,
  }));

export function BuyAgainButton({ number, className }: { number: number; className: string }) {
  return (
    <AddAtTodaysPricesButton
      label="Volver a comprar"
      testId="buy-again"
      className={className}
      load={async () => toLines(await getOrder(number))}
    />
  );
}
