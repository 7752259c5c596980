import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { type CartItem, getCartItems, setCartItems } from '@/client/lib/cart-store.ts';
import { ControlledNotice } from '@/client/ui/controlled-notice.tsx';
import { type LeadTime, splitText } from '@/shared/backorder.ts';
import { formatMoney } from '@/shared/money.ts';
import { nextBreakMessage } from '@/shared/volume-prices.ts';
import { getProductStock } from '../api/get-product-stock.ts';
import { MESSAGES, removeFromCart, updateQuantity, validateQuantity } from '../cart-rules.ts';

function TrashIcon() {
  return (
    <svg
      className="size-4"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M3 6h18M8 6V4a1 1 0 0 1 1-1h6a1 1 0 0 1 1 1v2m2 0v14a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2V6M10 11v6M14 11v6" />
    </svg>
  );
}

export function StockText({ stock }: { stock: number }) {
  return stock > 0 ? (
    <span className="inline-flex items-center gap-1.5 text-sm text-green-700">
      <span className="size-2.5 rounded-full bg-accent-500" aria-hidden="true" />
      Entrega inmediata
    </span>
  ) : (
    <span className="text-sm text-amber-700">Consultar tiempo de envío</span>
  );
}

/**
 * One cart line. The quantity is typed (digits only) and applied on Enter, on leaving the field or with − / +:
 * refused when 0 or above the locally held stock, then checked against the server's stock ('Sin existencia').
 */
export function CartLine({
  item,
  previousPriceCents,
  error,
  volume,
  backorder,
  controlled = false,
  contract = false,
}: {
  item: CartItem;
  /** Set when the server's price differs from the price the item was added at. */
  previousPriceCents: number | undefined;
  /** The server quote's problem with this line (unknown product, not enough stock…). */
  error: string | null;
  /**
   * The server quote's pricing of this line (decision 021: list price, next volume price, the line's total), once
   * it answered for this quantity.
   */
  volume?:
    | {
        listPriceCents: number;
        nextBreak: { addUnits: number; unitPriceCents: number } | null;
        lineTotalCents: number;
      }
    | undefined;
  /** The server quote's 'sobre pedido' split of this line (decision 029), once it answered for this quantity. */
  backorder?: { stock: number; backordered: number; leadTime: LeadTime | null } | undefined;
  /** Under the precursor law (decision 030): the buyer is told what checkout will ask. */
  controlled?: boolean | undefined;
  /** The institution the session buys for has a contract price for it (decision 059). */
  contract?: boolean | undefined;
}) {
  const [draft, setDraft] = useState(String(item.quantity));
  const [checking, setChecking] = useState(false);
  useEffect(() => setDraft(String(item.quantity)), [item.quantity]);

  async function apply(text: string) {
    if (checking) return;
    const result = validateQuantity(item, text);
    if (!result.ok) {
      setDraft(String(item.quantity));
      if (result.reason === 'zero') toast.error(MESSAGES.zero);
      else if (result.reason === 'invalid') toast.error(MESSAGES.invalid);
      else toast.error(MESSAGES.noStock, { description: `Disponibles: ${item.stock}` });
      return;
    }
    if (result.quantity === item.quantity) {
      setDraft(String(item.quantity));
      return;
    }
    setChecking(true);
    const server = await getProductStock(item.code);
    setChecking(false);
    const serverStock = server?.stock ?? null;
    // 'Sobre pedido' (decision 029): beyond stock is fine, the quote then says what ships now and what later.
    if (server === null || (server.stock < result.quantity && !server.leadTime)) {
      setDraft(String(item.quantity));
      toast.error(
        MESSAGES.noStock,
        serverStock === null ? {} : { description: `Disponibles: ${serverStock}` },
      );
      if (serverStock !== null)
        setCartItems(updateQuantity(getCartItems(), item.code, item.quantity, serverStock));
      return;
    }
    setCartItems(updateQuantity(getCartItems(), item.code, result.quantity, server.stock));
  }

  const remove = () => setCartItems(removeFromCart(getCartItems(), item.code));
  const productUrl = `/productos/${encodeURIComponent(item.code)}`;
  const stepButton =
    'flex size-9 items-center justify-center text-lg text-slate-600 hover:bg-slate-100 disabled:cursor-not-allowed disabled:text-slate-300';

  return (
    <li className="flex gap-3 py-4 sm:gap-4" data-testid="cart-line" data-code={item.code}>
      <Link to={productUrl} className="shrink-0" tabIndex={-1} aria-hidden="true">
        {item.imageUrl ? (
          <img
            src={`${item.imageUrl}&w=160`}
            alt=""
            width={80}
            height={80}
            loading="lazy"
            className="size-16 rounded-md border border-slate-200 bg-white object-contain sm:size-24"
          />
        ) : (
          <span className="flex size-16 items-center justify-center rounded-md border border-slate-200 bg-slate-50 text-center text-xs text-slate-500 sm:size-24">
            Sin imagen
          </span>
        )}
      </Link>

      <div className="flex min-w-0 flex-1 flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 sm:flex-1">
          <Link to={productUrl} className="font-medium text-slate-900 hover:text-brand-700 hover:underline">
            {item.name}
          </Link>
          <p className="text-xs text-slate-500">Código: {item.code}</p>
          <p className="mt-1 text-sm text-slate-700">
            <span data-testid="unit-price">{formatMoney(item.priceCents)}</span>
            <span className="text-slate-500"> c/u</span>
            {contract && (
              <span className="ml-2 text-xs font-medium text-green-800" data-testid="contract-price">
                Precio de contrato de su institución
              </span>
            )}
            {volume && volume.listPriceCents > item.priceCents && (
              <span className="ml-2 text-xs font-medium text-green-800" data-testid="volume-applied">
                Precio por volumen (antes <s>{formatMoney(volume.listPriceCents)}</s>)
              </span>
            )}
          </p>
          {volume?.nextBreak && (
            <p className="mt-1 text-xs font-medium text-brand-800" data-testid="next-break">
              {nextBreakMessage({
                addUnits: volume.nextBreak.addUnits,
                priceCents: volume.nextBreak.unitPriceCents,
              })}
            </p>
          )}
          {controlled && <ControlledNotice compact />}
          {previousPriceCents !== undefined && !contract && (
            <p className="mt-1 text-xs font-medium text-amber-700" data-testid="price-changed">
              El precio cambió: antes {formatMoney(previousPriceCents)}, ahora {formatMoney(item.priceCents)}
            </p>
          )}
          <div className="mt-1">
            {backorder?.leadTime && backorder.backordered > 0 ? (
              <p className="text-sm font-medium text-amber-800" data-testid="backorder-split">
                {splitText(item.quantity - backorder.backordered, backorder.backordered, backorder.leadTime)}
              </p>
            ) : (
              <StockText stock={item.stock} />
            )}
          </div>
          {error && (
            <p className="mt-1 text-sm font-medium text-red-700" role="alert">
              {error}
            </p>
          )}
        </div>

        <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2 sm:flex-col sm:flex-nowrap sm:items-end">
          <div className="flex items-center">
            <div className="flex items-center overflow-hidden rounded-md border border-slate-300 bg-white">
              <button
                type="button"
                className={stepButton}
                aria-label={`Quitar uno de ${item.name}`}
                disabled={checking || item.quantity <= 1}
                onClick={() => apply(String(item.quantity - 1))}
              >
                −
              </button>
              <input
                type="text"
                inputMode="numeric"
                pattern="[0-9]*"
                maxLength={4}
                aria-label={`Cantidad de ${item.name}`}
                className="h-9 w-12 border-x border-slate-300 text-center text-sm focus:outline-none focus:ring-2 focus:ring-inset focus:ring-brand-500"
                value={draft}
                disabled={checking}
                onChange={(e) => setDraft(e.target.value.replace(/\D/g, ''))}
                onBlur={() => {
                  if (draft !== String(item.quantity)) void apply(draft);
                }}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') void apply(draft);
                }}
              />
              <button
                type="button"
                className={stepButton}
                aria-label={`Agregar uno de ${item.name}`}
                disabled={checking}
                onClick={() => apply(String(item.quantity + 1))}
              >
                +
              </button>
            </div>
            {checking && (
              <span
                className="ml-2 size-4 animate-spin rounded-full border-2 border-brand-100 border-t-brand-600"
                role="status"
                aria-label="Comprobando existencia"
              />
            )}
          </div>
          <p className="text-right font-semibold text-slate-900" data-testid="line-total">
            {formatMoney(volume?.lineTotalCents ?? item.priceCents * item.quantity)}
          </p>
          <button
            type="button"
            onClick={remove}
            className="inline-flex basis-full items-center gap-1 text-sm text-red-700 hover:text-red-800 hover:underline sm:basis-auto"
            aria-label={`Eliminar ${item.name} del carrito`}
          >
            <TrashIcon />
            Eliminar
          </button>
        </div>
      </div>
    </li>
  );
}
