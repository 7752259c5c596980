import { addDays, type Ymd } from './mexico-time.ts';
import { SALES_TERMS } from './sales-terms.ts';

/**
 * Returns (RMA, issue 35, decision 062): what a buyer may send back, why, and the states a return goes through.
 * The window is the one of the page /politica_de_devoluciones (SALES_TERMS.returnDays, config/shop.json →
 * returns.windowDays), counted in calendar days from the delivery's day in Mexico City.
 */

export const RETURN_REASONS = ['defective', 'wrong_item', 'not_needed'] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];
export const RETURN_REASON_LABELS: Record<ReturnReason, string> = {
  defective: 'Llegó defectuoso o dañado',
  wrong_item: 'No es lo que pedí',
  not_needed: 'Ya no lo necesito',
};

export const RETURN_STATES = [
  'requested',
  'authorized',
  'refused',
  'received',
  'refunded',
  'closed',
] as const;
export type ReturnState = (typeof RETURN_STATES)[number];
export const RETURN_STATE_LABELS: Record<ReturnState, string> = {
  requested: 'Solicitada',
  authorized: 'Autorizada: envíe la mercancía',
  refused: 'Rechazada',
  received: 'Recibida: en revisión',
  refunded: 'Reembolsada',
  closed: 'Cerrada sin reembolso',
};
/** A return still under way (its quantities count against what can still be returned). */
export const OPEN_RETURN_STATES: readonly ReturnState[] = ['requested', 'authorized', 'received'];

/** Where a received unit goes: back to sale, or set apart (not sellable) for inspection, the supplier or disposal. */
export const RESTOCK_DISPOSITIONS = ['sellable', 'quarantine'] as const;
export type RestockDisposition = (typeof RESTOCK_DISPOSITIONS)[number];
export const RESTOCK_LABELS: Record<RestockDisposition, string> = {
  sellable: 'A la venta',
  quarantine: 'Cuarentena (no se vende)',
};

export const RETURN_PHOTO_MAX_COUNT = 4;
export const RETURN_DESCRIPTION_MAX = 1000;

export const returnWindowDays = () => SALES_TERMS.returnDays;

/** The last day (Mexico City) a return of goods delivered on `deliveredOn` may be asked for. */
export const returnWindowEnd = (deliveredOn: Ymd): Ymd => addDays(deliveredOn, returnWindowDays());

/** What the policy needs to know of an order line to say whether it can come back, and why not. */
export type ReturnableFacts = {
  /** A chemical or biological reagent (has a CAS number). */
  reagent: boolean;
  /** A controlled chemical (decision 030). */
  controlled: boolean;
  /** Some of it was 'sobre pedido' (not 'mercancía de línea'). */
  backordered: boolean;
};

/**
 * The policy's exceptions (page /politica_de_devoluciones): a change of mind ('not_needed') only for mercancía de
 * línea that is not a reagent nor a controlled chemical, unopened; what arrived defective or is not what was
 * ordered comes back whatever it is (LFPC art. 92: the supplier answers for it). Null when allowed.
 */
export function returnRefusal(reason: ReturnReason, line: ReturnableFacts): string | null {
  if (reason !== 'not_needed') return null;
  if (line.controlled)
    return 'Los productos controlados solo se devuelven si llegaron defectuosos o no son lo que pidió';
  if (line.reagent)
    return 'No se aceptan devoluciones de reactivos químicos ni biológicos, salvo que lleguen defectuosos o no sean lo que pidió';
  if (line.backordered)
    return 'Los productos sobre pedido solo se devuelven si llegaron defectuosos o no son lo que pidió';
  return null;
}

/** Reagents and controlled chemicals that come back never go back to sale: their conservation cannot be vouched. */
export const mustQuarantine = (line: Pick<ReturnableFacts, 'reagent' | 'controlled'>) =>
  line.reagent || line.controlled;
