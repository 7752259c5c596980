import { describe, expect, it } from 'vitest';
import { formatPriceCard, formatPriceDetail, includedIva, parsePriceToCents } from './money.ts';

describe('money', () => {
  it('formats prices as the spec shows them', () => {
    expect(formatPriceCard(123456)).toBe('$1,234.56 mxn');
    expect(formatPriceDetail(18_500_000)).toBe('$185,000.00 MXN');
    expect(formatPriceCard(1250)).toBe('$12.50 mxn');
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
