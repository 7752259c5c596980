import { addBusinessDays, formatLongDate } from './business-days.ts';
import { mexicoCityDate, type Ymd } from './mexico-time.ts';

/**
 * 'Sobre pedido' (decision 029): a presentation staff mark as orderable beyond its stock, with a lead time in
 * business days. The split of a quantity into what ships now and what later, the promised dates, and the Spanish
 * texts every screen (product page, cards, cart, checkout, order, receipt, mails, back office) shows — one home.
 */
export type LeadTime = { minDays: number; maxDays: number };

/** The longest lead time staff may set, in business days (also the database's check). */
export const MAX_LEAD_DAYS = 180;

/** What ships from stock is sent within this many business days of the order (the shop's usual dispatch). */
export const SHIP_NOW_BUSINESS_DAYS = 1;

/** The lead time of a product row, or null when it is not 'sobre pedido'. */
export function leadTimeOf(row: {
  backorderable: boolean;
  leadMinDays: number | null;
  leadMaxDays: number | null;
}): LeadTime | null {
  if (!row.backorderable || row.leadMinDays === null || row.leadMaxDays === null) return null;
  return { minDays: row.leadMinDays, maxDays: row.leadMaxDays };
}

/**
 * The back office's check of a presentation's 'sobre pedido' fields (the import's cells are read by
 * src/server/admin/import/columns.ts): the flag needs both days, days need the flag, 1 ≤ min ≤ max ≤ MAX_LEAD_DAYS.
 */
export function leadTimeFieldsProblem(f: {
  backorderable: boolean;
  leadMinDays: number | null;
  leadMaxDays: number | null;
}): { field: 'leadMinDays' | 'leadMaxDays'; message: string } | null {
  const { leadMinDays: min, leadMaxDays: max } = f;
  if (!f.backorderable) {
    if (min !== null || max !== null)
      return {
        field: min !== null ? 'leadMinDays' : 'leadMaxDays',
        message:
          'El tiempo de entrega solo aplica a productos sobre pedido: marque «Sobre pedido» o deje los días vacíos',
      };
    return null;
  }
  if (min === null)
    return { field: 'leadMinDays', message: 'Un producto sobre pedido necesita los días mínimos de entrega' };
  if (max === null)
    return { field: 'leadMaxDays', message: 'Un producto sobre pedido necesita los días máximos de entrega' };
  if (min < 1) return { field: 'leadMinDays', message: 'Los días mínimos de entrega son al menos 1' };
  if (max > MAX_LEAD_DAYS)
    return { field: 'leadMaxDays', message: `Los días máximos de entrega son a lo más ${MAX_LEAD_DAYS}` };
  if (min > max)
    return {
      field: 'leadMinDays',
      message: `Los días mínimos (${min}) no pueden ser más que los máximos (${max})`,
    };
  return null;
}

/** How many of `quantity` ship now (from stock) and how many later; never sold beyond stock without a lead time. */
export function splitQuantity(stock: number, quantity: number): { now: number; later: number } {
  const now = Math.max(0, Math.min(stock, quantity));
  return { now, later: quantity - now };
}

const days = ({ minDays, maxDays }: LeadTime) =>
  minDays === maxDays ? `${minDays}` : `${minDays}–${maxDays}`;

/** 'entrega en 10–15 días hábiles' */
export function leadTimeText(lead: LeadTime): string {
  return `entrega en ${days(lead)} ${lead.maxDays === 1 ? 'día hábil' : 'días hábiles'}`;
}

/** 'Disponibles ahora: 3 · 7 sobre pedido (entrega en 10–15 días hábiles)'; null when all ship now. */
export function splitText(now: number, later: number, lead: LeadTime): string | null {
  if (later <= 0) return null;
  if (now <= 0) return `${later} sobre pedido (${leadTimeText(lead)})`;
  return `Disponibles ahora: ${now} · ${later} sobre pedido (${leadTimeText(lead)})`;
}

/** What a product page, picker or card says of a 'sobre pedido' presentation before a quantity is chosen. */
export function availabilityText(stock: number, lead: LeadTime): string {
  const text = leadTimeText(lead);
  if (stock <= 0) return `Sobre pedido · ${text.charAt(0).toUpperCase()}${text.slice(1)}`;
  return `Disponibles ahora: ${stock} · más sobre pedido (${text})`;
}

/** The promised dates of an order placed at `placedAt` (business days, Mexico City). */
export function promisedDates(placedAt: Date): {
  shipNowBy: Ymd;
  window: (lead: LeadTime) => { from: Ymd; to: Ymd };
} {
  const today = mexicoCityDate(placedAt);
  return {
    shipNowBy: addBusinessDays(today, SHIP_NOW_BUSINESS_DAYS),
    window: (lead) => ({
      from: addBusinessDays(today, lead.minDays),
      to: addBusinessDays(today, lead.maxDays),
    }),
  };
}

/** An order line's split as the buyer reads it: 'Se envían ahora: 3 · 7 sobre pedido, entrega entre … y …'. */
export function orderLineSplitText(line: {
  quantity: number;
  backorderedQuantity: number;
  backorderFrom: Ymd | null;
  backorderTo: Ymd | null;
}): string | null {
  if (line.backorderedQuantity <= 0 || !line.backorderFrom || !line.backorderTo) return null;
  const now = line.quantity - line.backorderedQuantity;
  const window =
    line.backorderFrom === line.backorderTo
      ? `entrega el ${formatLongDate(line.backorderFrom)}`
      : `entrega entre el ${formatLongDate(line.backorderFrom)} y el ${formatLongDate(line.backorderTo)}`;
  const later = `${line.backorderedQuantity} sobre pedido, ${window}`;
  return now > 0 ? `Se envían ahora: ${now} · ${later}` : `${later[0]?.toUpperCase()}${later.slice(1)}`;
}

/** 'Lo disponible se envía a más tardar el 25 de noviembre de 2026' */
export function shipNowText(shipNowBy: Ymd): string {
  return `Lo disponible se envía a más tardar el ${formatLongDate(shipNowBy)}`;
}
