import { formatMoney } from '@/shared/money.ts';

/** A limit in centavos as the form shows it in pesos ('15000.50'); no limit: ''. */
export const pesosText = (cents: number | null) => (cents === null ? '' : (cents / 100).toFixed(2));
export const limitLabel = (cents: number | null) => (cents === null ? 'Sin límite' : formatMoney(cents));
