import type { Ymd } from './mexico-time.ts';

/**
 * Business days in Mexico (decision 029): the one home of the rule, for every promise the shop makes in 'días
 * hábiles' (today: the 'sobre pedido' delivery windows of src/shared/backorder.ts).
 *
 * A business day is a Monday to Friday that is not a mandatory rest day of the Ley Federal del Trabajo, art. 74:
 *   I    1 January
 *   II   the first Monday of February (for 5 February)
 *   III  the third Monday of March (for 21 March)
 *   IV   1 May
 *   V    16 September
 *   VI   the third Monday of November (for 20 November)
 *   VII  1 October every six years, when the federal executive changes hands (2024, 2030, …)
 *   VIII 25 December
 *   IX   election days set by the electoral laws — not computable from the calendar; not counted here.
 * Days are calendar dates in Mexico City time ('YYYY-MM-DD'); Mexico City has no daylight saving since 2022, but
 * the date is read through the time-zone database, never by a fixed offset.
 */

const pad = (n: number) => String(n).padStart(2, '0');
const ymd = (y: number, m: number, d: number): Ymd => `${y}-${pad(m)}-${pad(d)}`;
const parts = (date: Ymd) => date.split('-').map(Number) as [number, number, number];
/** Day of week of a calendar date (0 = Sunday), independent of any time zone. */
const weekday = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).getUTCDay();

/** The n-th Monday (1-based) of a month. */
function nthMonday(y: number, m: number, n: number): number {
  const first = weekday(y, m, 1);
  return 1 + ((8 - first) % 7) + (n - 1) * 7;
}

/** The mandatory rest days of LFT art. 74 (fractions I–VIII) in year `y`. */
export function mexicanHolidays(y: number): Ymd[] {
  const days = [
    ymd(y, 1, 1),
    ymd(y, 2, nthMonday(y, 2, 1)),
    ymd(y, 3, nthMonday(y, 3, 3)),
    ymd(y, 5, 1),
    ymd(y, 9, 16),
    ymd(y, 11, nthMonday(y, 11, 3)),
    ymd(y, 12, 25),
  ];
  if (y >= 2024 && (y - 2024) % 6 === 0) days.push(ymd(y, 10, 1));
  return days.sort();
}

export function isBusinessDay(date: Ymd): boolean {
  const [y, m, d] = parts(date);
  const dow = weekday(y, m, d);
  if (dow === 0 || dow === 6) return false;
  return !mexicanHolidays(y).includes(date);
}

/** The date `n` business days after `date` (n ≥ 0; 0 is the date itself, moved to a business day if it is not one). */
export function addBusinessDays(date: Ymd, n: number): Ymd {
  const [y, m, d] = parts(date);
  const cursor = new Date(Date.UTC(y, m - 1, d));
  const next = () => {
    cursor.setUTCDate(cursor.getUTCDate() + 1);
    return ymd(cursor.getUTCFullYear(), cursor.getUTCMonth() + 1, cursor.getUTCDate());
  };
  let current = date;
  if (n === 0) {
    while (!isBusinessDay(current)) current = next();
    return current;
  }
  for (let left = n; left > 0; ) {
    current = next();
    if (isBusinessDay(current)) left -= 1;
  }
  return current;
}

/** '9 de diciembre de 2026' for a calendar date (read as that date, whatever the reader's time zone). */
export function formatLongDate(date: Ymd): string {
  const [y, m, d] = parts(date);
  return new Intl.DateTimeFormat('es-MX', {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(new Date(Date.UTC(y, m - 1, d)));
}
