import { describe, expect, it } from 'vitest';
import { casCheckDigitOk, looksLikeCas, parseCas } from './cas';

describe('CAS registry numbers', () => {
  it.each([
    ['7664-93-9', 'ácido sulfúrico'],
    ['7647-01-0', 'ácido clorhídrico'],
    ['1310-73-2', 'hidróxido de sodio'],
    ['67-64-1', 'acetona'],
    ['7722-64-7', 'permanganato de potasio'],
    ['64-17-5', 'etanol'],
    ['7732-18-5', 'agua'],
  ])('accepts %s (%s) by its check digit', (cas) => {
    expect(casCheckDigitOk(cas)).toBe(true);
    expect(parseCas(cas)).toBe(cas);
  });

  it('refuses a wrong check digit, a wrong shape and empty text', () => {
    expect(parseCas('7664-93-8')).toBeNull();
    expect(parseCas('67-64-2')).toBeNull();
    expect(parseCas('7664-9-39')).toBeNull();
    expect(parseCas('abc')).toBeNull();
    expect(parseCas('')).toBeNull();
  });

  it('canonicalises spaces, bare digits and leading zeros', () => {
    expect(parseCas(' 7664-93-9 ')).toBe('7664-93-9');
    expect(parseCas('7664939')).toBe('7664-93-9');
    expect(parseCas('0067-64-1')).toBe('67-64-1');
  });

  it('tells a CAS-looking query from a product code or a word', () => {
    expect(looksLikeCas('7664-93-9')).toBe(true);
    expect(looksLikeCas('7664939')).toBe(false);
    expect(looksLikeCas('balanza')).toBe(false);
  });
});
