import { describe, expect, it } from 'vitest';
import {
  formatPriceBreaks,
  nextBreak,
  nextBreakMessage,
  parsePriceBreaks,
  priceBreaksProblem,
  priceTable,
  unitPriceFor,
} from './volume-prices.ts';

const BREAKS = [
  { minQuantity: 50, priceCents: 13_000 },
  { minQuantity: 10, priceCents: 14_500 },
];

describe('volume prices', () => {
  it('the unit price of the highest break reached, else the base price', () => {
    expect([1, 9, 10, 49, 50, 500].map((q) => unitPriceFor(15_000, BREAKS, q))).toEqual([
      15_000, 15_000, 14_500, 14_500, 13_000, 13_000,
    ]);
    expect(unitPriceFor(15_000, [], 100)).toBe(15_000);
    // A break left above a lowered price never raises it.
    expect(unitPriceFor(12_000, BREAKS, 20)).toBe(12_000);
  });

  it('the next break and the cart’s sentence', () => {
    expect(nextBreak(BREAKS, 7)).toEqual({ addUnits: 3, minQuantity: 10, priceCents: 14_500 });
    expect(nextBreak(BREAKS, 10)).toEqual({ addUnits: 40, minQuantity: 50, priceCents: 13_000 });
    expect(nextBreak(BREAKS, 50)).toBeNull();
    expect(nextBreakMessage({ addUnits: 3, priceCents: 145_050 })).toBe(
      'Agregue 3 más para pagar $1,450.50 c/u',
    );
  });

  it('the product page’s table', () => {
    expect(priceTable(15_000, BREAKS)).toEqual([
      { range: '1–9', priceCents: 15_000 },
      { range: '10–49', priceCents: 14_500 },
      { range: '50 o más', priceCents: 13_000 },
    ]);
    expect(priceTable(15_000, [{ minQuantity: 2, priceCents: 14_000 }])[0]!.range).toBe('1');
  });

  it('refuses overlapping, non-positive, rising or too many breaks, in Spanish', () => {
    expect(priceBreaksProblem(15_000, BREAKS)).toBeNull();
    expect(priceBreaksProblem(15_000, [...BREAKS, { minQuantity: 10, priceCents: 14_000 }])).toBe(
      'Hay dos precios por volumen desde 10 piezas',
    );
    expect(priceBreaksProblem(15_000, [{ minQuantity: 10, priceCents: 0 }])).toBe(
      'El precio por volumen desde 10 piezas debe ser mayor que cero',
    );
    expect(priceBreaksProblem(15_000, [{ minQuantity: 1, priceCents: 100 }])).toContain('entero de 2 o más');
    expect(priceBreaksProblem(15_000, [{ minQuantity: 10, priceCents: 15_000 }])).toBe(
      'El precio desde 10 piezas ($150.00) debe ser menor que el precio unitario ($150.00)',
    );
    expect(
      priceBreaksProblem(15_000, [
        { minQuantity: 10, priceCents: 13_000 },
        { minQuantity: 50, priceCents: 14_000 },
      ]),
    ).toBe('El precio desde 50 piezas ($140.00) debe ser menor que el de 10 piezas ($130.00)');
    const many = Array.from({ length: 7 }, (_, i) => ({ minQuantity: 10 + i, priceCents: 14_000 - i }));
    expect(priceBreaksProblem(15_000, many)).toBe('Se admiten hasta 6 precios por volumen');
  });

  it('reads and writes the CSV form', () => {
    expect(parsePriceBreaks('10:145.00; 50 = 130,00')).toEqual([
      { minQuantity: 10, priceCents: 14_500 },
      { minQuantity: 50, priceCents: 13_000 },
    ]);
    expect(parsePriceBreaks('diez:145')).toBeNull();
    expect(parsePriceBreaks('10:abc')).toBeNull();
    expect(formatPriceBreaks(BREAKS)).toBe('10:145.00;50:130.00');
  });
});
