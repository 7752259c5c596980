import { or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { products } from '../db/schema.ts';

export type Search = { where: SQL; rank: SQL };

/** Words of a query: letters and digits only, so nothing the shopper types reaches SQL as syntax. */
export function searchTokens(q: string): string[] {
  return (
    q
      .normalize('NFC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  )
    .slice(0, 8)
    .map((t) => t.slice(0, 40));
}

/** Provisional search (replaced by full-text search): every word in the code or name. */
export async function buildSearch(_db: Db, q: string): Promise<Search | 'none'> {
  const tokens = searchTokens(q);
  if (tokens.length === 0) return 'none';
  const conds = tokens.map(
    (t) => or(sql`${products.name} ilike ${`%${t}%`}`, sql`${products.code} ilike ${`%${t}%`}`)!,
  );
  return { where: sql.join(conds, sql` and `), rank: sql`-length(${products.name})` };
}
