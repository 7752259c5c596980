import type { FacetCount, SuggestResponse } from '../../shared/schemas/catalog.ts';
import type { Db } from '../db/client.ts';
import { globalFacets, listProducts, searchTextKey } from './listing.ts';
import { cacheFor, catalogueVersion, type SelectionCache } from './selection-cache.ts';
import { termKey } from './vocabulary.ts';

const PRODUCTS = 6;
const BRANDS = 3;
const GROUPS = 3;

/** The answer but the echoed text: it holds no stock, so all of it is kept per catalogue version. */
type Answer = Omit<SuggestResponse, 'q'>;

const answers = new WeakMap<Db, SelectionCache<Answer>>();

/**
 * Suggestions while typing: the first products of the same search the results page runs (so the box never
 * promises what the page will not show), the categories those matches fall in, and brands whose name starts
 * with a typed word. Nothing in it is stock: every field changes only with the catalogue version, so the
 * whole answer is kept per search text and version (decision 033) and a repeated prefix costs the version
 * read alone. Not logged as a search miss: half-typed words are not what people look for.
 */
export async function suggest(db: Db, q: string): Promise<SuggestResponse> {
  const version = await catalogueVersion(db);
  const answer = await cacheFor(answers, db).get(searchTextKey(q), version, () => compute(db, q));
  return { q, ...answer };
}

async function compute(db: Db, q: string): Promise<Answer> {
  const [found, all] = await Promise.all([
    listProducts(
      db,
      { q, brand: [], group: [], line: [], type: [], sort: 'code', page: 1, pageSize: PRODUCTS },
      { explicitSort: false },
    ),
    globalFacets(db),
  ]);
  const words = termKey(q).split(' ').filter(Boolean);
  const labels = brandWords(all.brands);
  const startsWord = (label: string) => {
    const nameWords = labels.get(label) ?? [];
    return words.length > 0 && words.every((w) => nameWords.some((n) => n.startsWith(w)));
  };
  return {
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

/** Each brand label's words, normalised once per catalogue version (the brand facet is kept per version). */
const normalisedBrands = new WeakMap<FacetCount[], Map<string, string[]>>();
function brandWords(brands: FacetCount[]): Map<string, string[]> {
  let words = normalisedBrands.get(brands);
  if (!words) {
    words = new Map(brands.map((b) => [b.label, termKey(b.label).split(' ')]));
    normalisedBrands.set(brands, words);
  }
  return words;
}
