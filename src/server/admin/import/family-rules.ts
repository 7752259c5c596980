import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { products } from '../../db/schema.ts';
import type { RowValues } from './columns.ts';
import type { StoredFacts } from './stored.ts';

// Presentations: the family column of an import row (decision 021).

/** Of these codes, those that are the base of a stored family (they cannot join another family). */
export async function familyBases(db: Db, codes: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < codes.length; i += 1000) {
    const chunk = codes.slice(i, i + 1000);
    const list = await db
      .selectDistinct({ code: products.familyCode })
      .from(products)
      .where(inArray(products.familyCode, chunk));
    for (const r of list) if (r.code) found.add(r.code);
  }
  return found;
}

/**
 * The family of a row (decision 021): an existing product or one on an earlier line of the file, itself no
 * presentation of another; a product that is the base of a family does not join another.
 */
export function familyProblem(
  values: RowValues,
  family: string | null,
  facts: {
    stored: Map<string, StoredFacts>;
    bases: Set<string>;
    fileFamily: Map<string, string | null>;
    named: Set<string>;
  },
): string | null {
  if (family === null) return null;
  const code = values.code;
  const inFile = facts.fileFamily.has(family);
  const stored = facts.stored.get(family);
  if (!inFile && !stored)
    return `Columna family: el producto «${family}» no existe (debe existir o ir en una línea anterior del archivo)`;
  const familyOfFamily = inFile ? facts.fileFamily.get(family) : stored?.familyCode;
  if (familyOfFamily)
    return `Columna family: «${family}» es a su vez una presentación de «${familyOfFamily}»; indique la familia «${familyOfFamily}»`;
  const ownMembers = facts.bases.has(code) || facts.named.has(code);
  if (ownMembers)
    return `Columna family: «${code}» tiene presentaciones propias y no puede pasar a otra familia`;
  return null;
}
