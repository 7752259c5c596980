import {
  addDays,
  fromMexicoWallClock,
  mexicoCityDate,
  mexicoMonth,
  periodName,
} from '../../shared/mexico-time.ts';
import type { PeriodQuery } from '../../shared/schemas/accounting.ts';

/** A period of the accountant's screens: [start, end) instants and the days it names, in Mexico City. */
export type Period = { start: Date; end: Date; from: string; to: string; label: string; slug: string };

/** The instants of a month (its first day at 00:00 to the next month's) or of a range of days, both ends included. */
export function periodOf(query: Pick<PeriodQuery, 'month' | 'from' | 'to'>): Period {
  if (query.month) {
    const [year, month] = query.month.split('-').map(Number) as [number, number];
    const { start, end } = mexicoMonth(year, month);
    return {
      start,
      end,
      from: `${query.month}-01`,
      to: mexicoCityDate(new Date(end.getTime() - 1)),
      label: periodName(year, month),
      slug: query.month,
    };
  }
  const from = query.from!;
  const to = query.to!;
  return {
    start: fromMexicoWallClock(from),
    end: fromMexicoWallClock(addDays(to, 1)),
    from,
    to,
    label: `del ${from} al ${to}`,
    slug: `${from}_${to}`,
  };
}
