import { describe, expect, it } from 'vitest';
import { isBusinessDay } from './business-days.ts';
import { fromMexicoWallClock, mexicoWallClock } from './mexico-time.ts';
import { delayedPaymentDeadline, formatDeadline } from './payment-methods.ts';
import { shop } from './shop.ts';

/** The deadline, as Mexico City's wall clock reads it. */
const due = (method: 'spei' | 'cash', placedAt: string) =>
  mexicoWallClock(delayedPaymentDeadline(method, fromMexicoWallClock(placedAt)));

describe('the SPEI/store reference’s deadline ends at the close of a business day, Mexico City time', () => {
  it('the configured hours the tests below assume (SPEI 48 h, store 72 h)', () => {
    expect(shop.paymentMethods.speiHours).toBe(48);
    expect(shop.paymentMethods.storeHours).toBe(72);
  });

  it('an order on Saturday at 03:14 is due at the close of Monday, not on Monday at 03:14', () => {
    expect(due('spei', '2026-11-28T03:14:00')).toBe('2026-11-30T23:59:59');
    // The store's 72 h end on Tuesday at 03:14: the close of Tuesday.
    expect(due('cash', '2026-11-28T03:14:00')).toBe('2026-12-01T23:59:59');
  });

  it('an order on a weekday is due at the close of the day its hours end, never earlier than those hours', () => {
    expect(due('spei', '2026-11-24T10:00:00')).toBe('2026-11-26T23:59:59');
    expect(due('spei', '2026-11-25T23:30:00')).toBe('2026-11-27T23:59:59');
    // Friday evening: 48 h end on Sunday; the weekend is skipped.
    expect(due('spei', '2026-11-27T18:00:00')).toBe('2026-11-30T23:59:59');
  });

  it('the calendar’s rest days are skipped: Revolución (Monday 16 Nov 2026) and Christmas', () => {
    // Friday 13 Nov + 48 h = Sunday 15; Monday 16 is a rest day (LFT art. 74): the close of Tuesday 17.
    expect(due('spei', '2026-11-13T10:00:00')).toBe('2026-11-17T23:59:59');
    // Wednesday 23 Dec + 48 h = Friday 25 (Christmas), then the weekend: the close of Monday 28.
    expect(due('spei', '2026-12-23T20:00:00')).toBe('2026-12-28T23:59:59');
    // New Year: Wednesday 30 Dec + 72 h = Saturday 2 Jan 2027 → Monday 4 Jan.
    expect(due('cash', '2026-12-30T09:00:00')).toBe('2027-01-04T23:59:59');
  });

  it('always a business day, at 23:59:59, in whole seconds, and at least the configured hours away', () => {
    for (let h = 0; h < 24 * 14; h += 7) {
      const placedAt = new Date(Date.UTC(2026, 11, 20, h, 14, 0));
      for (const method of ['spei', 'cash'] as const) {
        const deadline = delayedPaymentDeadline(method, placedAt);
        const wall = mexicoWallClock(deadline);
        expect(wall.slice(11)).toBe('23:59:59');
        expect(isBusinessDay(wall.slice(0, 10))).toBe(true);
        expect(deadline.getTime() % 1000).toBe(0);
        const hours = method === 'spei' ? 48 : 72;
        expect(deadline.getTime() - placedAt.getTime()).toBeGreaterThanOrEqual(hours * 3_600_000);
      }
    }
  });

  it('the buyer reads it in Mexico City time', () => {
    const deadline = delayedPaymentDeadline('spei', fromMexicoWallClock('2026-11-28T03:14:00'));
    expect(formatDeadline(deadline)).toMatch(
      /^lunes, 30 de noviembre de 2026, 11:59\sp\.\s?m\. \(hora del centro de México\)$/,
    );
  });
});
