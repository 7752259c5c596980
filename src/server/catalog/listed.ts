import { sql } from 'drizzle-orm';
import { products } from '../db/schema.ts';

/**
 * The rows a listing, a search and the facet counts see (decision 021): active products that are not a
 * presentation of another. One card per family; its other presentations show on the product page. The
 * listing indexes of migration 0015 are partial on exactly this condition.
 */
export const listed = sql`(${products.active} and ${products.familyCode} is null)`;
