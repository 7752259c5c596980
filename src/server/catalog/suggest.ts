import type { SuggestResponse } from '../../shared/schemas/catalog.ts';
import type { Db } from '../db/client.ts';
import { globalFacets, listProducts } from './listing.ts';
import { termKey } from './vocabulary.ts';

const PRODUCTS = 6;
const BRANDS = 3;
const GROUPS = 3;

/**
 * Suggestions while typing: the first products of the same search the results page runs (so the box never
 * promises what the page will not show), the categories those matches fall in, and brands whose name starts
 * with a typed word. Everything but the six cards comes from the selection cache (decision 008): a repeated
 * prefix costs the version read and one primary-key read. Not logged as a search miss: half-typed words are
 * not what people look for.
 */
export async function suggest(db: Db, q: string): Promise<SuggestResponse> {
  const [found, all] = await Promise.all([
    listProducts(
      db,
      { q, brand: [], group: [], line: [], type: [], sort: 'code', page: 1, pageSize: PRODUCTS },
      { explicitSort: false },
    ),
    globalFacets(db),
  ]);
  const words = termKey(q).split(' ').filter(Boolean);
  const startsWord = (name: string) => {
    const nameWords = termKey(name).split(' ');
    return words.length > 0 && words.every((w) => nameWords.some((n) => n.startsWith(w)));
  };
  return {
    q,
    total: found.total,
    products: found.items.map((p) => ({
      code: p.code,
      name: p.name,
      brand: p.brand,
      priceCents: p.priceCents,
      imageUrl: p.imageUrl,
    })),
    brands: all.brands
      .filter((b) => startsWord(b.label))
      .sort((a, b) => b.count - a.count)
      .slice(0, BRANDS)
      .map((b) => ({ name: b.value, productCount: b.count })),
    groups: [...found.facets.groups]
      .sort((a, b) => b.count - a.count)
      .slice(0, GROUPS)
      .map((g) => ({ clas: g.value, name: g.label, count: g.count })),
    searchNote: found.searchNote ?? null,
  };
}
