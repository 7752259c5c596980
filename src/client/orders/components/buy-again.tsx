import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '@/client/lib/api-client.ts';
import { addLines, orderableUpTo, type ProductForCart, quantityInCart } from '@/client/lib/cart-add.ts';
import { getCartItems, setCartItems } from '@/client/lib/cart-store.ts';
import { formatMoney } from '@/shared/money.ts';
import type { OrderDetail } from '@/shared/schemas/orders.ts';
import { quoteLines } from '../api/buy-again.ts';
import { getOrder } from '../api/get-order.ts';

type Outcome = { added: number; changes: string[] } | { error: string };

/**
 * 'Volver a comprar' (history and receipt): the order's products go to the cart at today's prices, under the cart's
 * stock rule; what changed since — price, no longer sold, less stock — is said line by line.
 */
export async function buyAgain(order: OrderDetail): Promise<{ added: number; changes: string[] }> {
  const quote = await quoteLines(order.lines.map((l) => ({ code: l.code, quantity: l.quantity })));
  const cart = getCartItems();
  const changes: string[] = [];
  const lines: { product: ProductForCart; quantity: number }[] = [];
  for (const old of order.lines) {
    const today = quote.lines.find((q) => q.code === old.code);
    if (!today || today.name === null) {
      changes.push(`${old.description}: ya no está a la venta.`);
      continue;
    }
    // 'Sobre pedido' (decision 029): beyond stock is fine (up to the most units per line).
    const room = Math.max(0, orderableUpTo(today) - quantityInCart(cart, old.code));
    if (room === 0) {
      changes.push(
        `${today.name}: sin existencia${today.stock > 0 ? ' (ya tiene en el carrito lo disponible)' : ''}.`,
      );
      continue;
    }
    if (today.unitPriceCents !== old.unitPriceCents) {
      changes.push(
        `${today.name}: antes ${formatMoney(old.unitPriceCents)}, hoy ${formatMoney(today.unitPriceCents)}.`,
      );
    }
    const quantity = Math.min(old.quantity, room);
    if (quantity < old.quantity)
      changes.push(
        `${today.name}: solo hay ${room} disponibles; se agregaron ${quantity} de ${old.quantity}.`,
      );
    lines.push({
      product: {
        code: old.code,
        name: today.name,
        priceCents: today.unitPriceCents,
        stock: today.stock,
        imageUrl: today.imageUrl,
        leadTime: today.leadTime,
      },
      quantity,
    });
  }
  const result = addLines(cart, lines);
  setCartItems(result.items);
  return { added: result.added.length, changes };
}

export function BuyAgainButton({ number, className }: { number: number; className: string }) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  async function run() {
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome(await buyAgain(await getOrder(number)));
    } catch (e) {
      setOutcome({
        error:
          e instanceof ApiError ? e.message : 'No pudimos consultar los precios de hoy. Intente de nuevo.',
      });
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      <button
        type="button"
        onClick={() => void run()}
        disabled={busy}
        className={className}
        data-testid="buy-again"
      >
        {busy ? 'Agregando…' : 'Volver a comprar'}
      </button>
      {outcome && (
        <div role="status" className="basis-full text-sm" data-testid="buy-again-result">
          {'error' in outcome ? (
            <p className="text-red-700">{outcome.error}</p>
          ) : (
            <>
              <p className="text-slate-800">
                {outcome.added === 0
                  ? 'No se agregó ningún producto.'
                  : `Se ${outcome.added === 1 ? 'agregó 1 producto' : `agregaron ${outcome.added} productos`} al carrito a los precios de hoy.`}{' '}
                {outcome.added > 0 && (
                  <Link to="/carrito" className="font-semibold text-brand-700 hover:underline">
                    Ver carrito
                  </Link>
                )}
              </p>
              {outcome.changes.length > 0 && (
                <ul className="mt-1 list-disc pl-5 text-amber-900">
                  {outcome.changes.map((c) => (
                    <li key={c}>{c}</li>
                  ))}
                </ul>
              )}
            </>
          )}
        </div>
      )}
    </>
  );
}
