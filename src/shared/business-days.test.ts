import { describe, expect, it } from 'vitest';
import { leadTimeText, splitQuantity, splitText } from './backorder.ts';
import { addBusinessDays, isBusinessDay, mexicanHolidays } from './business-days.ts';
import { mexicoCityDate } from './mexico-time.ts';

describe('business days in Mexico (LFT art. 74)', () => {
  it('the rest days of 2026: fixed dates and the Mondays the law moves them to', () => {
    expect(mexicanHolidays(2026)).toEqual([
      '2026-01-01',
      '2026-02-02', // first Monday of February
      '2026-03-16', // third Monday of March
      '2026-05-01',
      '2026-09-16',
      '2026-11-16', // third Monday of November
      '2026-12-25',
    ]);
  });

  it('1 October counts only in a year the federal executive changes hands (2024, 2030)', () => {
    expect(mexicanHolidays(2030)).toContain('2030-10-01');
    expect(mexicanHolidays(2024)).toContain('2024-10-01');
    expect(mexicanHolidays(2027)).not.toContain('2027-10-01');
  });

  it('weekends and rest days are not business days', () => {
    expect(isBusinessDay('2026-11-14')).toBe(false); // Saturday
    expect(isBusinessDay('2026-11-16')).toBe(false); // Revolución, observed
    expect(isBusinessDay('2026-11-17')).toBe(true);
  });

  it('adding business days skips weekends and holidays', () => {
    expect(addBusinessDays('2026-11-13', 1)).toBe('2026-11-17');
    expect(addBusinessDays('2026-12-24', 1)).toBe('2026-12-28');
    expect(addBusinessDays('2026-11-13', 10)).toBe('2026-11-30');
    expect(addBusinessDays('2026-11-14', 0)).toBe('2026-11-17');
    expect(addBusinessDays('2026-12-31', 1)).toBe('2027-01-04');
  });

  it('the date is Mexico City’s, not the server’s UTC date', () => {
    expect(mexicoCityDate(new Date('2026-11-25T05:30:00Z'))).toBe('2026-11-24');
    expect(mexicoCityDate(new Date('2026-11-25T06:30:00Z'))).toBe('2026-11-25');
  });
});

describe('what ships now and what later', () => {
  it('splits a quantity by the stock and says it in Spanish', () => {
    expect(splitQuantity(3, 10)).toEqual({ now: 3, later: 7 });
    expect(splitQuantity(0, 4)).toEqual({ now: 0, later: 4 });
    expect(splitQuantity(12, 4)).toEqual({ now: 4, later: 0 });
    const lead = { minDays: 10, maxDays: 15 };
    expect(splitText(3, 7, lead)).toBe(
      'Disponibles ahora: 3 · 7 sobre pedido (entrega en 10–15 días hábiles)',
    );
    expect(splitText(0, 4, lead)).toBe('4 sobre pedido (entrega en 10–15 días hábiles)');
    expect(splitText(4, 0, lead)).toBeNull();
    expect(leadTimeText({ minDays: 5, maxDays: 5 })).toBe('entrega en 5 días hábiles');
  });
});
