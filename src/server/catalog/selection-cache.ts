import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/**
 * What a listing needs besides its page of products — the total, the facet counts, the search plan and the
 * first codes in each order — kept per selection (filters and search words, not page or page size) while
 * the catalogue's version holds. The version (migration 0007_catalogue-version) changes at the commit of
 * anything that could alter those facts, on whichever instance made it; every listing reads it (one
 * primary-key row), so a cached fact is never older than the catalogue. A page's cards are kept the same way
 * but for their stock, which does not change the version and is read at every request (decision 033).
 */
export const TOP_CODES = 1000;
const MAX_ENTRIES = 500;

const versionReads = new WeakMap<Db, Promise<string>>();

/**
 * Reads the catalogue version (a bigint, kept as text). Requests that arrive while a read is on its way
 * share it: the answer is then at most one round trip older than the request, never older than a change
 * the same client saw committed before asking.
 */
export function catalogueVersion(db: Db): Promise<string> {
  let read = versionReads.get(db);
  if (!read) {
    // catalogue_state (migration 0007) is kept by triggers and is not part of the Drizzle schema.
    read = db
      .execute<{ v: string }>(sql`select version::text as v from catalogue_state`)
      .then(({ rows }) => rows[0]?.v ?? '0')
      .finally(() => versionReads.delete(db));
    versionReads.set(db, read);
  }
  return read;
}

/**
 * A small LRU of computations keyed by selection and version. Concurrent requests for the same missing key
 * share one computation; a failed computation is not kept.
 */
export class SelectionCache<T> {
  private readonly entries = new Map<string, { version: string; value: Promise<T> }>();

  constructor(private readonly maxEntries = MAX_ENTRIES) {}

  get size(): number {
    return this.entries.size;
  }

  /** The entry of a key whatever its version (to start work optimistically), without touching the LRU. */
  peek(key: string): { version: string; value: Promise<T> } | undefined {
    return this.entries.get(key);
  }

  async get(key: string, version: string, compute: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && hit.version === version) {
      // Refresh its place in the LRU order.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value;
    }
    const value = compute();
    this.entries.delete(key);
    this.entries.set(key, { version, value });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }
}

/** One cache per database handle (tests open many databases in one process). */
export function cacheFor<T>(store: WeakMap<Db, SelectionCache<T>>, db: Db): SelectionCache<T> {
  let cache = store.get(db);
  if (!cache) {
    cache = new SelectionCache<T>();
    store.set(db, cache);
  }
  return cache;
}
