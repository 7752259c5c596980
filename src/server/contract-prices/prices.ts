import { and, desc, eq, gte, inArray, lte } from 'drizzle-orm';
import { mexicoCityDate } from '../../shared/mexico-time.ts';
import type { Db } from '../db/client.ts';
import { institutionPrices } from '../db/schema.ts';

/**
 * The contract prices of an institution valid on `at`'s day in Mexico City, by product code (decision 059). When
 * two periods overlap, the one that starts later wins. Read by the one pricing rule (`cart/quote.ts`) only.
 */
export async function contractPricesOn(
  db: Db,
  institutionId: number,
  codes: readonly string[],
  at: Date,
): Promise<Map<string, number>> {
  if (codes.length === 0) return new Map();
  const day = mexicoCityDate(at);
  const rows = await db
    .select({ code: institutionPrices.productCode, priceCents: institutionPrices.priceCents })
    .from(institutionPrices)
    .where(
      and(
        eq(institutionPrices.institutionId, institutionId),
        inArray(institutionPrices.productCode, [...codes]),
        lte(institutionPrices.validFrom, day),
        gte(institutionPrices.validTo, day),
      ),
    )
    .orderBy(desc(institutionPrices.validFrom));
  const prices = new Map<string, number>();
  for (const r of rows) if (!prices.has(r.code)) prices.set(r.code, r.priceCents);
  return prices;
}
