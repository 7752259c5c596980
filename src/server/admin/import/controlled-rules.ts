import type { RowValues } from './columns.ts';
import type { StoredFacts } from './stored.ts';

// The controlled column of an import row (decision 030).

/**
 * The controlled flag of a row (decision 030): a base says its own (or keeps the stored one); a presentation
 * takes its family's — a cell saying otherwise is refused, since the law controls the substance, not the bottle.
 */
export function settleControlled(
  values: RowValues,
  family: string | null,
  stored: Map<string, StoredFacts>,
  fileControlled: Map<string, boolean>,
): string | null {
  if (family === null) {
    if (!fileControlled.has(values.code))
      fileControlled.set(values.code, values.controlled ?? stored.get(values.code)?.controlled ?? false);
    return null;
  }
  const familyValue = fileControlled.get(family) ?? stored.get(family)?.controlled ?? false;
  if (values.controlled !== undefined && values.controlled !== familyValue)
    return `Columna controlled: «${values.code}» es una presentación de «${family}», que ${familyValue ? 'es' : 'no es'} producto controlado; el control se define en la fila del producto base`;
  values.controlled = familyValue;
  return null;
}
