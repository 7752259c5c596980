import { leadTimeColumns } from './sobre-pedido-rules.ts';
import { type Accepted, type Existing, keep, type Merged } from './stored.ts';

// A row merged with the stored product, and the columns it changes.

export function merge(row: Accepted, e: Existing | undefined): Merged {
  const v = row.values;
  return {
    code: v.code,
    name: keep(v.name, e?.name ?? ''),
    brand: keep(v.brand, e?.brand ?? null),
    groupClas: keep(v.groupClas, e?.groupClas ?? null),
    line: keep(v.line, e?.line ?? null),
    type: keep(v.type, e?.type ?? null),
    priceCents: keep(v.priceCents, e?.priceCents ?? 0),
    stock: keep(v.stock, e?.stock ?? 0),
    weightKg: keep(v.weightKg, e?.weightKg ?? 0),
    shortDesc: keep(v.shortDesc, e?.shortDesc ?? ''),
    longDescHtml: keep(v.longDescHtml, e?.longDescHtml ?? ''),
    active: keep(v.active, e?.active ?? true),
    satProductKey: keep(v.satProductKey, e?.satProductKey ?? null),
    satUnitKey: keep(v.satUnitKey, e?.satUnitKey ?? null),
    casNumber: keep(v.casNumber, e?.casNumber ?? null),
    formula: keep(v.formula, e?.formula ?? null),
    familyCode: keep(v.familyCode, e?.familyCode ?? null),
    presentationLabel: keep(v.presentationLabel, e?.presentationLabel ?? null),
    molarMass: keep(v.molarMass, e?.molarMass ?? null),
    grade: keep(v.grade, e?.grade ?? null),
    ghsPictograms: keep(v.ghsPictograms, e?.ghsPictograms ?? []),
    signalWord: keep(v.signalWord, e?.signalWord ?? null),
    hazardStatements: keep(v.hazardStatements, e?.hazardStatements ?? []),
    precautionaryStatements: keep(v.precautionaryStatements, e?.precautionaryStatements ?? []),
    storageConditions: keep(v.storageConditions, e?.storageConditions ?? null),
    ...leadTimeColumns(v, e),
    controlled: keep(v.controlled, e?.controlled ?? false),
    imageHash: row.image?.hash ?? e?.imageHash ?? null,
    datasheetHash: row.datasheet?.hash ?? e?.datasheetHash ?? null,
  };
}

export const FIELD_LABELS: Record<keyof Merged, string> = {
  code: 'code',
  name: 'name',
  brand: 'brand',
  groupClas: 'group',
  line: 'line',
  type: 'type',
  priceCents: 'price',
  stock: 'stock',
  weightKg: 'weight_kg',
  shortDesc: 'short_desc',
  longDescHtml: 'long_desc_html',
  active: 'active',
  satProductKey: 'sat_product_key',
  satUnitKey: 'sat_unit_key',
  casNumber: 'cas_number',
  formula: 'formula',
  familyCode: 'family',
  presentationLabel: 'presentation',
  molarMass: 'molar_mass',
  grade: 'grade',
  ghsPictograms: 'ghs_pictograms',
  signalWord: 'signal_word',
  hazardStatements: 'hazard_statements',
  precautionaryStatements: 'precautionary_statements',
  storageConditions: 'storage_conditions',
  backorderable: 'backorder',
  leadMinDays: 'lead_time_days',
  leadMaxDays: 'lead_time_days',
  controlled: 'controlled',
  imageHash: 'imagen',
  datasheetHash: 'ficha técnica',
};

export function changedFields(m: Merged, e: Existing): string[] {
  const before = merge({ line: 0, values: { code: e.code } }, e);
  // Lists of codes (pictograms, H and P statements) compare by content.
  const same = (a: unknown, b: unknown) =>
    Array.isArray(a) && Array.isArray(b) ? a.join(' ') === b.join(' ') : a === b;
  const labels = (Object.keys(m) as (keyof Merged)[])
    .filter((k) => !same(m[k], before[k]))
    .map((k) => FIELD_LABELS[k]);
  return [...new Set(labels)];
}
