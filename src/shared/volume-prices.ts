import { formatMoney, parsePriceToCents } from './money.ts';

/**
 * Volume prices (decision 021): a presentation's optional price breaks. From `minQuantity` units on, each unit
 * costs `priceCents` (IVA included); below the lowest break the presentation's own price holds. The one pricing
 * rule of the shop: the cart quote (src/server/cart/quote.ts) prices every line through `unitPriceFor`, and the
 * order line and the CFDI keep the unit price it gave.
 */
export type PriceBreak = { minQuantity: number; priceCents: number };

/** At most this many breaks per presentation (a table on the product page, not a price list). */
export const MAX_PRICE_BREAKS = 6;

const ascending = (breaks: readonly PriceBreak[]) =>
  [...breaks].sort((a, b) => a.minQuantity - b.minQuantity);

/**
 * The unit price for `quantity` units: the price of the highest break reached, else the base price. A break
 * never raises the price (one left above a lowered unit price is ignored): more units never cost more each.
 */
export function unitPriceFor(baseCents: number, breaks: readonly PriceBreak[], quantity: number): number {
  let price = baseCents;
  for (const b of ascending(breaks)) if (quantity >= b.minQuantity) price = Math.min(price, b.priceCents);
  return price;
}

/** The next break above `quantity`: how many more units reach it, and its unit price; null when none is left. */
export function nextBreak(
  breaks: readonly PriceBreak[],
  quantity: number,
): { addUnits: number; minQuantity: number; priceCents: number } | null {
  const next = ascending(breaks).find((b) => b.minQuantity > quantity);
  return next ? { addUnits: next.minQuantity - quantity, ...next } : null;
}

/** 'Agregue 3 más para pagar $1,350.00 c/u' */
export function nextBreakMessage(next: { addUnits: number; priceCents: number }): string {
  return `Agregue ${next.addUnits} más para pagar ${formatMoney(next.priceCents)} c/u`;
}

/** The rows of the product page's table: '1–9', '10–49', '50 o más', each with its unit price. */
export function priceTable(
  baseCents: number,
  breaks: readonly PriceBreak[],
): { range: string; priceCents: number }[] {
  const sorted = ascending(breaks);
  const starts = [{ minQuantity: 1, priceCents: baseCents }, ...sorted];
  return starts.map((b, i) => {
    const next = starts[i + 1];
    const range = next
      ? next.minQuantity - 1 === b.minQuantity
        ? String(b.minQuantity)
        : `${b.minQuantity}–${next.minQuantity - 1}`
      : `${b.minQuantity} o más`;
    return { range, priceCents: b.priceCents };
  });
}

/**
 * Why a set of breaks cannot be saved, in Spanish, or null when it can: whole quantities from 2 on, each
 * quantity once (no two breaks for the same units), prices above zero, each lower than the base price and
 * than the break before it (a larger quantity never costs more per unit).
 */
export function priceBreaksProblem(baseCents: number, breaks: readonly PriceBreak[]): string | null {
  if (breaks.length > MAX_PRICE_BREAKS) return `Se admiten hasta ${MAX_PRICE_BREAKS} precios por volumen`;
  const seen = new Set<number>();
  for (const b of breaks) {
    if (!Number.isInteger(b.minQuantity) || b.minQuantity < 2)
      return `La cantidad mínima de un precio por volumen debe ser un entero de 2 o más (se indicó ${b.minQuantity})`;
    if (seen.has(b.minQuantity)) return `Hay dos precios por volumen desde ${b.minQuantity} piezas`;
    seen.add(b.minQuantity);
    if (!Number.isInteger(b.priceCents) || b.priceCents <= 0)
      return `El precio por volumen desde ${b.minQuantity} piezas debe ser mayor que cero`;
  }
  let previous = baseCents;
  let previousLabel = 'el precio unitario';
  for (const b of ascending(breaks)) {
    if (b.priceCents >= previous)
      return `El precio desde ${b.minQuantity} piezas (${formatMoney(b.priceCents)}) debe ser menor que ${previousLabel} (${formatMoney(previous)})`;
    previous = b.priceCents;
    previousLabel = `el de ${b.minQuantity} piezas`;
  }
  return null;
}

/** The CSV form of the breaks: '10:145.00;50:130.00' (from 10 units $145.00 each, from 50 $130.00). */
export function formatPriceBreaks(breaks: readonly PriceBreak[]): string {
  return ascending(breaks)
    .map((b) => `${b.minQuantity}:${(b.priceCents / 100).toFixed(2)}`)
    .join(';');
}

/** '10:145.00;50:130,00' → breaks; null when the text is not of that form. */
export function parsePriceBreaks(text: string): PriceBreak[] | null {
  const out: PriceBreak[] = [];
  for (const part of text.split(';')) {
    const m = /^\s*(\d{1,7})\s*[:=]\s*(.+?)\s*$/.exec(part);
    if (!m) return null;
    const cents = parsePriceToCents(m[2]!);
    if (cents === null) return null;
    out.push({ minQuantity: Number(m[1]), priceCents: cents });
  }
  return out;
}
