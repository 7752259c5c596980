import { clearsSafety, type RowValues, setsSafety } from './columns.ts';
import type { StoredFacts } from './stored.ts';

// Safety data columns of an import row (decision 027).

/**
 * Safety data lives on the family's base (decision 027): a presentation row gives none, and a product with
 * safety data joins a family only when the same row empties every safety column.
 */
export function safetyProblem(
  values: RowValues,
  family: string | null,
  stored: StoredFacts | undefined,
): string | null {
  if (family === null) return null;
  if (setsSafety(values))
    return `Columnas de seguridad (molar_mass, grade, ghs_pictograms, signal_word, hazard_statements, precautionary_statements, storage_conditions): «${values.code}» es una presentación de «${family}»; los datos de seguridad se capturan en el producto base «${family}»`;
  if (stored?.hasSafety && stored.familyCode === null && !clearsSafety(values))
    return `Columna family: «${values.code}» tiene datos de seguridad propios; déjelos vacíos en esta fila para hacerlo presentación de «${family}» (se muestran los del producto base)`;
  return null;
}
