import { describe, expect, it } from 'vitest';
import { clearFacets, readListState, toggleFacet, withPage, withSort } from './list-url.ts';

describe('list state in the URL', () => {
  it('reads repeated facets, the sort and the page', () => {
    const s = new URLSearchParams('marca=Metrion&marca=Cristalux&tipo=Vidrio&orden=precio_desc&pagina=3');
    expect(readListState(s)).toEqual({
      brand: ['Metrion', 'Cristalux'],
      line: [],
      type: ['Vidrio'],
      sort: 'price_desc',
      page: 3,
    });
  });

  it('falls back to the default order and page 1 on nonsense', () => {
    const s = new URLSearchParams('orden=DROP&pagina=-4');
    expect(readListState(s)).toMatchObject({ sort: null, page: 1 });
    expect(readListState(new URLSearchParams('orden=codigo')).sort).toBe('code');
    expect(readListState(new URLSearchParams('pagina=2.5')).page).toBe(1);
    expect(readListState(new URLSearchParams('pagina=abc')).page).toBe(1);
  });

  it('toggling a facet adds or removes the value and goes back to page 1', () => {
    const on = toggleFacet(new URLSearchParams('pagina=4&orden=precio_asc'), 'line', 'Clase A');
    expect(on.getAll('linea')).toEqual(['Clase A']);
    expect(on.get('pagina')).toBeNull();
    expect(on.get('orden')).toBe('precio_asc');
    const off = toggleFacet(new URLSearchParams('linea=Clase A&linea=Clase B'), 'line', 'Clase A');
    expect(off.getAll('linea')).toEqual(['Clase B']);
  });

  it('sorting resets the page; the default order leaves no parameter', () => {
    expect(withSort(new URLSearchParams('pagina=2'), 'price_asc').toString()).toBe('orden=precio_asc');
    expect(withSort(new URLSearchParams('orden=precio_asc'), null).toString()).toBe('');
    expect(withSort(new URLSearchParams(''), 'code').toString()).toBe('orden=codigo');
  });

  it('page 1 has no parameter; clearing keeps the sort', () => {
    expect(withPage(new URLSearchParams('pagina=5'), 1).toString()).toBe('');
    expect(withPage(new URLSearchParams('marca=A'), 2).toString()).toBe('marca=A&pagina=2');
    expect(clearFacets(new URLSearchParams('marca=A&tipo=B&orden=precio_asc&pagina=2')).toString()).toBe(
      'orden=precio_asc',
    );
  });
});
