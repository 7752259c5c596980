import type { LineToAdd } from '@/client/lib/add-at-todays-prices.ts';
import type { ListLine } from '@/shared/schemas/lists.ts';

/** A list's lines for 'Agregar todo al carrito': the price shown on the page is the one a change is said against. */
export const linesToAdd = (lines: readonly ListLine[]): LineToAdd[] =>
  lines.map((l) => ({
    code: l.code,
    quantity: l.quantity,
    description: l.product?.name ?? `Producto ${l.code}`,
    knownPriceCents: l.product?.priceCents ?? null,
  }));
