import { describe, expect, it } from 'vitest';
import { safeRedirect } from './redirect-target.ts';

const shop = 'https://tienda.example';

/** What a browser does with the answer: window.location.assign(target) on the shop's page. */
const landsOn = (target: string) => new URL(target, `${shop}/ingresar`).origin;

describe('safeRedirect', () => {
  it.each([
    '/..//evil.example/',
    '/.//evil.example/',
    '/.//',
    '/%2e%2e//evil.example/',
    '/%2E%2E//evil.example/',
    '/a/..//evil.example/',
    '/.\\/evil.example/',
    '/..\\/evil.example/',
    '/a/../\\evil.example/',
    '/./%2e//evil.example/',
    '//evil.example/',
    '/\\evil.example/',
    'https://evil.example/',
    '\\\\evil.example/',
    'javascript:alert(1)',
    '/\t/evil.example',
    ' //evil.example',
  ])('%s stays on the shop and never starts with // or /\\', (value) => {
    const target = safeRedirect(value);
    expect(landsOn(target)).toBe(shop);
    expect(target.startsWith('/')).toBe(true);
    expect(target.startsWith('//')).toBe(false);
    expect(target.startsWith('/\\')).toBe(false);
  });

  it.each([
    ['/historial', '/historial'],
    ['/carrito?x=1#y', '/carrito?x=1#y'],
    ['/a/../orden', '/orden'],
    ['/productos/CRX-1%20a', '/productos/CRX-1%20a'],
  ])('%s is honoured as %s', (value, expected) => {
    expect(safeRedirect(value)).toBe(expected);
  });

  it('empty or missing is the home page', () => {
    expect(safeRedirect(null)).toBe('/');
    expect(safeRedirect('')).toBe('/');
  });
});
