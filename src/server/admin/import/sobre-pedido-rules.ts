import type { RowValues } from './columns.ts';
import { type Existing, keep, type Merged, type StoredFacts } from './stored.ts';

// 'Sobre pedido' columns of an import row (decision 029).

/** 'Sobre pedido' (decision 029): 'backorder = no' clears the lead time; an empty cell keeps the stored one. */
export function leadTimeColumns(
  v: RowValues,
  e: Existing | undefined,
): Pick<Merged, 'backorderable' | 'leadMinDays' | 'leadMaxDays'> {
  const backorderable = keep(v.backorderable, e?.backorderable ?? false);
  if (!backorderable) return { backorderable, leadMinDays: null, leadMaxDays: null };
  if (v.leadTime) return { backorderable, leadMinDays: v.leadTime.minDays, leadMaxDays: v.leadTime.maxDays };
  return { backorderable, leadMinDays: e?.leadMinDays ?? null, leadMaxDays: e?.leadMaxDays ?? null };
}

/** A row's 'sobre pedido' with what is stored: a flag needs a lead time, a lead time needs the flag. */
export function leadTimeProblem(values: RowValues, before: StoredFacts | undefined): string | null {
  const flagged = values.backorderable ?? before?.backorderable ?? false;
  const lead = values.leadTime === undefined ? (before?.hasLeadTime ?? false) : values.leadTime !== null;
  if (flagged && !lead)
    return 'Columna backorder: un producto sobre pedido necesita su tiempo de entrega en lead_time_days (p. ej. 10-15)';
  if (!flagged && values.leadTime)
    return 'Columna lead_time_days: el tiempo de entrega solo aplica a productos sobre pedido; indique backorder = sí';
  return null;
}
