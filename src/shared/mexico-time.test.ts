import { describe, expect, it } from 'vitest';
import {
  addDays,
  fromMexicoWallClock,
  mexicoCityDate,
  mexicoDayEnd,
  mexicoDayStart,
  mexicoMonth,
  mexicoWallClock,
  previousMexicoMonth,
} from './mexico-time.ts';

describe("Mexico City's clock", () => {
  it('starts a day at 06:00 UTC since 2022 and at 05:00 UTC on a summer day of the old DST', () => {
    expect(mexicoDayStart('2026-03-01').toISOString()).toBe('2026-03-01T06:00:00.000Z');
    // Until October 2022 Mexico City had summer time (UTC−5): a filter or a stamp of that summer is read right.
    expect(mexicoDayStart('2021-07-01').toISOString()).toBe('2021-07-01T05:00:00.000Z');
    expect(fromMexicoWallClock('2021-07-01T10:15:00').toISOString()).toBe('2021-07-01T15:15:00.000Z');
  });

  it('gives the date and wall clock of an instant, and whole months', () => {
    expect(mexicoCityDate(new Date('2026-01-01T05:59:59Z'))).toBe('2025-12-31');
    expect(mexicoWallClock(new Date('2026-01-01T06:00:00Z'))).toBe('2026-01-01T00:00:00');
    expect(mexicoDayEnd('2026-02-28').toISOString()).toBe('2026-03-01T05:59:59.999Z');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(mexicoMonth(2025, 12)).toEqual({
      start: new Date('2025-12-01T06:00:00Z'),
      end: new Date('2026-01-01T06:00:00Z'),
    });
    expect(previousMexicoMonth(new Date('2026-01-01T05:00:00Z'))).toEqual({ year: 2025, month: 11 });
  });
});
