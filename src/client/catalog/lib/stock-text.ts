import { groupThousands } from '@/shared/money.ts';
/** Spec §2: below 1 'Sin inventario'; otherwise the count with 'disponible' (one) or 'disponibles'. */
export function stockText(stock: number): string {
  if (stock < 1) return 'Sin inventario';
  return stock === 1 ? '1 disponible' : `${groupThousands(stock)} disponibles`;
}
