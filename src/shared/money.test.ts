import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatAmount,
  formatDecimal,
  formatPriceCard,
  formatPriceDetail,
  groupThousands,
  includedIva,
  parsePriceToCents,
} from './money.ts';

describe('money', () => {
  it('formats prices as the spec shows them', () => {
    expect(formatPriceCard(123456)).toBe('$1,234.56 mxn');
    expect(formatPriceDetail(18_500_000)).toBe('$185,000.00 MXN');
    expect(formatPriceCard(1250)).toBe('$12.50 mxn');
  });

  it('writes amounts and counts exactly as Intl en-US does (without paying for Intl in the browser)', () => {
    const intl = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    for (const cents of [0, 1, 5, 99, 100, 101, 99_999, 100_000, 123_456_789, -1, -150, -123_456_789])
      expect(formatAmount(cents)).toBe(intl.format(cents / 100));
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 50), max: 2 ** 50 }), (n) => {
        if (n !== 0) expect(formatAmount(n)).toBe(intl.format(n / 100));
        expect(groupThousands(n)).toBe(n.toLocaleString('en-US'));
      }),
    );
    expect(groupThousands(24_175)).toBe('24,175');
  });

  it('writes quantities with up to two (or four) decimals exactly as Intl es-MX does', () => {
    const intl = new Intl.NumberFormat('es-MX', { maximumFractionDigits: 2 });
    for (const n of [
      0, 0.5, 1, 1.25, 12.345, 1.005, 2.999, 1000, 1234.5, 10_000.1, 1_234_567.891, 0.004, -3.5,
    ])
      expect(formatDecimal(n)).toBe(intl.format(n));
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e9, noNaN: true }), (n) => {
        expect(formatDecimal(n)).toBe(intl.format(n));
      }),
    );
    const four = new Intl.NumberFormat('es-MX', { maximumFractionDigits: 4 });
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e6, noNaN: true }), (n) => {
        expect(formatDecimal(n, 4)).toBe(four.format(n));
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (grams) => {
        expect(formatDecimal(grams / 1000)).toBe(intl.format(grams / 1000));
      }),
    );
  });

  it('takes the included IVA out of an IVA-included total', () => {
    expect(includedIva(11600)).toBe(1600);
    expect(includedIva(0)).toBe(0);
    expect(includedIva(100)).toBe(14);
  });

  it('reads prices with a Spanish decimal comma', () => {
    expect(parsePriceToCents('1234,50')).toBe(123450);
    expect(parsePriceToCents('1,234.50')).toBe(123450);
    expect(parsePriceToCents('$ 12.5')).toBe(1250);
    expect(parsePriceToCents('1.234,5')).toBe(123450);
    expect(parsePriceToCents('abc')).toBeNull();
    expect(parsePriceToCents('-5')).toBeNull();
  });
});
