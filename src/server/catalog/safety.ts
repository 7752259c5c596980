import { sql } from 'drizzle-orm';
import {
  gradeName,
  PICTOGRAMS,
  type PictogramCode,
  pictogramAlt,
  pictogramUrl,
  SIGNAL_WORDS,
  type SignalWord,
  statementText,
} from '../../shared/ghs.ts';
import type { ProductDetail } from '../../shared/schemas/catalog.ts';
import { products } from '../db/schema.ts';

/**
 * Reagent safety data (decision 027): the columns, whether a row has any (the negation of the check
 * products_safety_on_base, migration 0020, that keeps it off presentations), and the panel's facts.
 */
export const hasSafetyData = sql<boolean>`(${products.molarMass} is not null or ${products.grade} is not null or ${products.signalWord} is not null or ${products.storageConditions} is not null or cardinality(${products.ghsPictograms}) > 0 or cardinality(${products.hazardStatements}) > 0 or cardinality(${products.precautionaryStatements}) > 0)`;

export const safetyColumns = {
  molarMass: products.molarMass,
  grade: products.grade,
  ghsPictograms: products.ghsPictograms,
  signalWord: products.signalWord,
  hazardStatements: products.hazardStatements,
  precautionaryStatements: products.precautionaryStatements,
  storageConditions: products.storageConditions,
};
type SafetyRow = { [K in keyof typeof safetyColumns]: (typeof products.$inferSelect)[K] };

/** The safety panel's facts with their Spanish texts, or null when the product has none. */
export function toSafety(r: SafetyRow): ProductDetail['safety'] {
  const empty =
    r.molarMass === null &&
    r.grade === null &&
    r.signalWord === null &&
    !r.storageConditions &&
    r.ghsPictograms.length === 0 &&
    r.hazardStatements.length === 0 &&
    r.precautionaryStatements.length === 0;
  if (empty) return null;
  const pictograms = PICTOGRAMS.filter((p) => r.ghsPictograms.includes(p.code));
  const statements = (codes: string[]) => codes.map((code) => ({ code, text: statementText(code) }));
  return {
    molarMass: r.molarMass === null ? null : Number(r.molarMass),
    grade: r.grade ? { code: r.grade, name: gradeName(r.grade) } : null,
    pictograms: pictograms.map((p) => ({
      code: p.code,
      name: p.name,
      alt: pictogramAlt(p.code as PictogramCode),
      url: pictogramUrl(p.code as PictogramCode),
    })),
    signalWord: r.signalWord ? (SIGNAL_WORDS[r.signalWord as SignalWord] ?? null) : null,
    hazardStatements: statements(r.hazardStatements),
    precautionaryStatements: statements(r.precautionaryStatements),
    storageConditions: r.storageConditions,
  };
}
