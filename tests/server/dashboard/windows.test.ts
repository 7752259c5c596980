import { describe, expect, it } from 'vitest';
import { aYearBefore, dashboardWindows } from '../../../src/server/dashboard/windows.ts';
import { fromMexicoWallClock } from '../../../src/shared/mexico-time.ts';

describe('the dashboard’s periods in Mexico City days', () => {
  it('a year before: the same calendar date and wall-clock time; 29 February becomes 28', () => {
    expect(aYearBefore('2026-03-15')).toBe('2025-03-15');
    expect(aYearBefore('2026-03-15T11:00:00')).toBe('2025-03-15T11:00:00');
    expect(aYearBefore('2028-02-29')).toBe('2027-02-28');
    expect(aYearBefore('2028-02-29T23:59:00')).toBe('2027-02-28T23:59:00');
  });

  it('one minute after midnight in Mexico City (06:01 UTC) is already the new day; last year ends at 00:01 too', () => {
    const now = new Date('2026-03-15T06:01:00Z');
    const { today, window, days } = dashboardWindows(now);
    expect(today).toBe('2026-03-15');
    expect(window(1).current).toEqual({ from: new Date('2026-03-15T06:00:00Z'), to: now });
    expect(window(1).lastYear).toEqual({
      from: new Date('2025-03-15T06:00:00Z'),
      to: new Date('2025-03-15T06:01:00Z'),
    });
    expect(window(30).current.from).toEqual(fromMexicoWallClock('2026-02-14T00:00:00'));
    expect(days).toHaveLength(30);
    expect([days[0], days[29]]).toEqual(['2026-02-14', '2026-03-15']);
  });

  it('one minute before midnight (05:59 UTC) is still the day before', () => {
    expect(dashboardWindows(new Date('2026-03-15T05:59:00Z')).today).toBe('2026-03-14');
  });
});
