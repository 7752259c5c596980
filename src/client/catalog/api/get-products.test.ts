import { expect, it } from 'vitest';
import { productsSearchParams } from './get-products.ts';

it('repeats multi-valued facets and leaves defaults out of the API query', () => {
  expect(
    productsSearchParams({
      group: ['VID'],
      brand: ['Metrion', 'Cristalux'],
      type: ['Clase A'],
      page: 1,
    }).toString(),
  ).toBe('brand=Metrion&brand=Cristalux&group=VID&type=Clase+A');
  // No sort: the server orders by code, or by relevance for a search.
  expect(productsSearchParams({ q: 'matraz', page: 3 }).toString()).toBe('q=matraz&page=3');
  expect(productsSearchParams({ q: 'matraz', sort: 'code' }).toString()).toBe('q=matraz&sort=code');
});
