/**
 * Mexico City's clock: the one home of the shop's dates (SAT deadlines, monthly global CFDIs, day filters,
 * quotation validity, order dates). Mexico City has had no daylight saving time since 2022, but dates are read
 * through the time-zone database, never by a fixed UTC−6 offset, so that older instants (before 2022, when there
 * was DST) and any future change of the law come out right.
 */

/** A calendar date, 'YYYY-MM-DD'. */
export type Ymd = string;

/** The IANA zone of the shop's clock (also for SQL's `at time zone`). */
export const MEXICO_CITY_ZONE = 'America/Mexico_City';
const ZONE = MEXICO_CITY_ZONE;

const DATE = /* @__PURE__ */ new Intl.DateTimeFormat('en-CA', {
  timeZone: ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

const WALL_CLOCK = /* @__PURE__ */ new Intl.DateTimeFormat('en-US', {
  timeZone: ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

const pad = (n: number) => String(n).padStart(2, '0');

/** The calendar date in Mexico City at `instant`. */
export function mexicoCityDate(instant: Date): Ymd {
  return DATE.format(instant);
}

/** Today's date in Mexico City. */
export const mexicoCityToday = (): Ymd => mexicoCityDate(new Date());

/** Mexico City's wall clock at `instant`, 'YYYY-MM-DDTHH:MM:SS' (no offset). */
export function mexicoWallClock(instant: Date): string {
  const p: Record<string, string> = {};
  for (const { type, value } of WALL_CLOCK.formatToParts(instant)) p[type] = value;
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
}

/** Milliseconds Mexico City's wall clock is ahead of UTC at `utcMs` (negative: it is behind). */
function offsetAt(utcMs: number): number {
  const wall = mexicoWallClock(new Date(utcMs));
  return Date.parse(`${wall}Z`) - Math.floor(utcMs / 1000) * 1000;
}

/** The instant at which Mexico City's wall clock reads `wallClock` ('YYYY-MM-DD' or 'YYYY-MM-DDTHH:MM[:SS]'). */
export function fromMexicoWallClock(wallClock: string): Date {
  const asUtc = Date.parse(`${wallClock.length === 10 ? `${wallClock}T00:00:00` : wallClock}Z`);
  // Two passes: the offset of the guess, then the offset at the corrected instant (right across a DST change).
  const first = asUtc - offsetAt(asUtc);
  return new Date(asUtc - offsetAt(first));
}

/** 00:00 of `day` in Mexico City. */
export const mexicoDayStart = (day: Ymd): Date => fromMexicoWallClock(day);

/** The calendar date `n` days after `day` (n may be negative). */
export function addDays(day: Ymd, n: number): Ymd {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d + n));
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** The last millisecond of `day` in Mexico City. */
export const mexicoDayEnd = (day: Ymd): Date => new Date(mexicoDayStart(addDays(day, 1)).getTime() - 1);

/** [start, end) of a calendar month (1–12) in Mexico City. */
export function mexicoMonth(year: number, month: number): { start: Date; end: Date } {
  const next = month === 12 ? { y: year + 1, m: 1 } : { y: year, m: month + 1 };
  return {
    start: mexicoDayStart(`${year}-${pad(month)}-01`),
    end: mexicoDayStart(`${next.y}-${pad(next.m)}-01`),
  };
}

/** The month before `now`'s month, in Mexico City. */
export function previousMexicoMonth(now: Date): { year: number; month: number } {
  const [year, month] = mexicoCityDate(now).split('-').map(Number) as [number, number];
  return month === 1 ? { year: year - 1, month: 12 } : { year, month: month - 1 };
}

/** A date in words as the shop prints it: «31 de marzo de 2026», in Mexico City. */
export const mexicoLongDate = (instant: Date): string =>
  new Intl.DateTimeFormat('es-MX', { timeZone: ZONE, dateStyle: 'long' }).format(instant);

const MONTH_NAMES = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
];

/** A calendar month in words: «octubre de 2026» (the factura global's period, the accountant's month). */
export const periodName = (year: number, month: number) => `${MONTH_NAMES[month - 1]} de ${year}`;
