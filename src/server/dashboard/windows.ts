import {
  addDays,
  fromMexicoWallClock,
  mexicoCityDate,
  mexicoDayStart,
  mexicoWallClock,
  type Ymd,
} from '../../shared/mexico-time.ts';
import type { DashboardPeriod } from '../../shared/schemas/dashboard.ts';

/**
 * The dashboard's periods, in Mexico City days (shared/mexico-time.ts is the one home of the clock): today, the
 * last 7 and the last 30 days — each from 00:00 of its first day to `now` — and the same periods a year before,
 * from 00:00 of the same calendar day to the same wall-clock time a year earlier (today at 11:00 is compared with
 * the same day last year until 11:00, not with the whole day). 29 February maps onto 28 February.
 */

export const PERIOD_DAYS: Record<DashboardPeriod, number> = { today: 1, '7d': 7, '30d': 30 };
export const SERIES_DAYS = 30;

/** The same calendar date (or wall-clock 'YYYY-MM-DDTHH:MM:SS') one year earlier. */
export function aYearBefore(wall: string): string {
  const shifted = `${Number(wall.slice(0, 4)) - 1}${wall.slice(4)}`;
  return shifted.slice(5, 10) === '02-29' ? `${shifted.slice(0, 8)}28${shifted.slice(10)}` : shifted;
}

export type Window = { from: Date; to: Date };

export function dashboardWindows(now: Date) {
  const today = mexicoCityDate(now);
  const lastYearNow = fromMexicoWallClock(aYearBefore(mexicoWallClock(now)));
  const firstDay = (n: number): Ymd => addDays(today, -(n - 1));
  const window = (n: number) => ({
    current: { from: mexicoDayStart(firstDay(n)), to: now },
    lastYear: { from: mexicoDayStart(aYearBefore(firstDay(n))), to: lastYearNow },
  });
  const days = Array.from({ length: SERIES_DAYS }, (_, i) => addDays(today, i - SERIES_DAYS + 1));
  return { today, firstDay, window, days };
}
