import { expect, it } from 'vitest';
import { stockText } from './stock-text.ts';

it('says how many are available, in Spanish singular and plural', () => {
  expect(stockText(0)).toBe('Sin inventario');
  expect(stockText(-2)).toBe('Sin inventario');
  expect(stockText(1)).toBe('1 disponible');
  expect(stockText(2)).toBe('2 disponibles');
  expect(stockText(1500)).toBe('1,500 disponibles');
});
