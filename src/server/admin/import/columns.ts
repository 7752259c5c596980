import { type LeadTime, MAX_LEAD_DAYS } from '../../../shared/backorder.ts';
import { parseCas } from '../../../shared/cas.ts';
import {
  GRADES,
  MAX_STATEMENTS,
  type PictogramCode,
  parseGrade,
  parseMolarMass,
  parsePictograms,
  parseSignalWord,
  parseStatementCodes,
  type SignalWord,
} from '../../../shared/ghs.ts';
import { parsePriceToCents } from '../../../shared/money.ts';
import {
  MAX_PRICE_CENTS,
  PRODUCT_CODE_PATTERN,
  parseDecimal,
  SAT_PRODUCT_KEY,
  SAT_UNIT_KEY,
} from '../../../shared/schemas/admin.ts';
import { type PriceBreak, parsePriceBreaks } from '../../../shared/volume-prices.ts';
import { sanitizeLongDescription } from '../../catalog/sanitize.ts';
import { ImportFileError } from './csv.ts';

/** The documented columns (docs/admin.md), with the Spanish names people also write. */
export const COLUMNS = [
  'code',
  'name',
  'brand',
  'group',
  'line',
  'type',
  'price',
  'stock',
  'weight_kg',
  'short_desc',
  'long_desc_html',
  'active',
  'sat_product_key',
  'sat_unit_key',
  'cas_number',
  'formula',
  'family',
  'presentation',
  'price_breaks',
  'molar_mass',
  'grade',
  'ghs_pictograms',
  'signal_word',
  'hazard_statements',
  'precautionary_statements',
  'storage_conditions',
  'backorder',
  'lead_time_days',
  'controlled',
] as const;
export type Column = (typeof COLUMNS)[number];

const ALIASES: Record<string, Column> = {
  codigo: 'code',
  nombre: 'name',
  marca: 'brand',
  grupo: 'group',
  clas: 'group',
  linea: 'line',
  tipo: 'type',
  precio: 'price',
  existencia: 'stock',
  peso_kg: 'weight_kg',
  descripcion_corta: 'short_desc',
  descripcion_larga_html: 'long_desc_html',
  activo: 'active',
  clave_producto_sat: 'sat_product_key',
  clave_unidad_sat: 'sat_unit_key',
  cas: 'cas_number',
  numero_cas: 'cas_number',
  formula_quimica: 'formula',
  familia: 'family',
  presentacion: 'presentation',
  precios_volumen: 'price_breaks',
  precios_por_volumen: 'price_breaks',
  masa_molar: 'molar_mass',
  peso_molecular: 'molar_mass',
  grado: 'grade',
  pictogramas: 'ghs_pictograms',
  pictogramas_sga: 'ghs_pictograms',
  palabra_de_advertencia: 'signal_word',
  palabra_advertencia: 'signal_word',
  indicaciones_de_peligro: 'hazard_statements',
  indicaciones_peligro: 'hazard_statements',
  frases_h: 'hazard_statements',
  consejos_de_prudencia: 'precautionary_statements',
  consejos_prudencia: 'precautionary_statements',
  frases_p: 'precautionary_statements',
  almacenamiento: 'storage_conditions',
  condiciones_de_almacenamiento: 'storage_conditions',
  sobre_pedido: 'backorder',
  tiempo_de_entrega: 'lead_time_days',
  dias_de_entrega: 'lead_time_days',
  dias_entrega: 'lead_time_days',
  controlado: 'controlled',
  precursor: 'controlled',
};

/** The reagent safety columns (decision 027): data of a family's base, never of a presentation. */
export const SAFETY_COLUMNS = [
  'molar_mass',
  'grade',
  'ghs_pictograms',
  'signal_word',
  'hazard_statements',
  'precautionary_statements',
  'storage_conditions',
] as const satisfies readonly Column[];

const normalizeHeader = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[\s-]+/g, '_');

/** Column index of each header cell; unknown or repeated columns reject the file (a typo would lose data). */
export function readHeader(cells: string[]): Map<Column, number> {
  const map = new Map<Column, number>();
  cells.forEach((cell, index) => {
    const name = normalizeHeader(cell);
    const column = (COLUMNS as readonly string[]).includes(name) ? (name as Column) : ALIASES[name];
    if (!column) {
      throw new ImportFileError(
        `Columna desconocida «${cell.trim()}» en el encabezado (línea 1). Columnas válidas: ${COLUMNS.join(', ')}`,
      );
    }
    if (map.has(column))
      throw new ImportFileError(`La columna «${column}» aparece dos veces en el encabezado`);
    map.set(column, index);
  });
  if (!map.has('code')) throw new ImportFileError('Falta la columna «code» en el encabezado (línea 1)');
  return map;
}

/** What one row says about a product; undefined = the column is absent or the cell empty (keep). */
export type RowValues = {
  code: string;
  name?: string;
  brand?: string | null;
  groupClas?: string;
  line?: string | null;
  type?: string | null;
  priceCents?: number;
  stock?: number;
  weightKg?: number;
  shortDesc?: string;
  longDescHtml?: string;
  active?: boolean;
  satProductKey?: string | null;
  satUnitKey?: string | null;
  casNumber?: string | null;
  formula?: string | null;
  /** The family's base code (decision 021); null makes the product its own family. */
  familyCode?: string | null;
  presentationLabel?: string | null;
  /** Volume prices, checked against the price once the stored one is known (importer.ts). */
  priceBreaks?: PriceBreak[];
  /** Reagent safety data (decision 027); an empty cell clears it (null or no codes). */
  molarMass?: number | null;
  grade?: string | null;
  ghsPictograms?: PictogramCode[];
  signalWord?: SignalWord | null;
  hazardStatements?: string[];
  precautionaryStatements?: string[];
  storageConditions?: string | null;
  /** 'Sobre pedido' (decision 029); checked against the stored product in importer.ts (a flag needs a lead time). */
  backorderable?: boolean;
  /** Business days; null clears it (empty cell). */
  leadTime?: LeadTime | null;
  /** Under the precursor law (decision 030); a presentation takes its family's value (importer.ts). */
  controlled?: boolean;
};

/** Does this row give any safety value that is not empty? */
export const setsSafety = (v: RowValues) =>
  (v.molarMass ?? null) !== null ||
  (v.grade ?? null) !== null ||
  (v.signalWord ?? null) !== null ||
  (v.storageConditions ?? null) !== null ||
  (v.ghsPictograms?.length ?? 0) > 0 ||
  (v.hazardStatements?.length ?? 0) > 0 ||
  (v.precautionaryStatements?.length ?? 0) > 0;

/** Does this row empty every safety column (each present and blank)? */
export const clearsSafety = (v: RowValues) =>
  v.molarMass === null &&
  v.grade === null &&
  v.signalWord === null &&
  v.storageConditions === null &&
  v.ghsPictograms?.length === 0 &&
  v.hazardStatements?.length === 0 &&
  v.precautionaryStatements?.length === 0;

/**
 * A lead time cell: '10-15' (also '10–15' or '10 a 15') or '10'; whole business days from 1 to MAX_LEAD_DAYS, the
 * first not above the second. Answers the lead time or the Spanish reason naming the column.
 */
export function parseLeadTime(text: string): LeadTime | string {
  const m = /^(-?\d+(?:[.,]\d+)?)(?:\s*(?:-|–|—|a)\s*(-?\d+(?:[.,]\d+)?))?$/.exec(text.trim());
  const example = '(días hábiles, p. ej. 10-15 o 10)';
  if (!m) return `Columna lead_time_days: «${text}» no se entiende ${example}`;
  const parts = [m[1]!, m[2] ?? m[1]!];
  if (parts.some((p) => /[.,]/.test(p)))
    return `Columna lead_time_days: «${text}» debe ser un número entero de días hábiles`;
  const [min, max] = parts.map(Number) as [number, number];
  if (min < 0 || max < 0) return `Columna lead_time_days: «${text}» no puede ser negativo`;
  if (min < 1) return `Columna lead_time_days: «${text}»: el mínimo es 1 día hábil`;
  if (max > MAX_LEAD_DAYS)
    return `Columna lead_time_days: «${text}»: el máximo es ${MAX_LEAD_DAYS} días hábiles`;
  if (min > max)
    return `Columna lead_time_days: «${text}»: el mínimo (${min}) es mayor que el máximo (${max})`;
  return { minDays: min, maxDays: max };
}

const TRUE = new Set(['1', 'si', 'sí', 's', 'true', 'verdadero', 'activo', 'yes', 'y', 'x']);
const FALSE = new Set(['0', 'no', 'n', 'false', 'falso', 'inactivo']);

/**
 * Checks one record against the rules; returns the values or the reasons it is rejected. Empty cells of
 * optional text columns clear the field; empty name, group, price, stock, weight or active keep the
 * stored value (for a new product: name, group and price are required; stock 0, weight 0, active yes).
 */
export function readRow(
  fields: string[],
  header: Map<Column, number>,
  knownGroups: ReadonlySet<string>,
): { values: RowValues; reasons: [] } | { values: null; reasons: string[]; code: string | null } {
  const reasons: string[] = [];
  const cell = (c: Column): string | undefined => {
    const index = header.get(c);
    return index === undefined ? undefined : (fields[index] ?? '').trim();
  };
  const code = cell('code') ?? '';
  if (code === '') reasons.push('Falta el código');
  else if (!PRODUCT_CODE_PATTERN.test(code))
    reasons.push(`Código inválido «${code}»: letras, números y - . _ / (hasta 64)`);
  const values: RowValues = { code };

  const name = cell('name');
  if (name) {
    if (name.length > 200) reasons.push('El nombre admite hasta 200 caracteres');
    else values.name = name;
  }
  const optional = (c: 'brand' | 'line' | 'type', label: string) => {
    const v = cell(c);
    if (v === undefined) return;
    if (v.length > 80) reasons.push(`${label} admite hasta 80 caracteres`);
    else values[c] = v === '' ? null : v;
  };
  optional('brand', 'La marca');
  optional('line', 'La línea');
  optional('type', 'El tipo');

  const group = cell('group');
  if (group) {
    if (!knownGroups.has(group))
      reasons.push(`Grupo desconocido «${group}» (use la clave CLAS de un grupo existente)`);
    else values.groupClas = group;
  }
  const price = cell('price');
  if (price) {
    const cents = parsePriceToCents(price);
    if (cents === null || cents > MAX_PRICE_CENTS)
      reasons.push(`Precio inválido «${price}» (p. ej. 1234.50 o 1234,50)`);
    else values.priceCents = cents;
  }
  const stock = cell('stock');
  if (stock) {
    if (/^-\d+$/.test(stock)) reasons.push(`La existencia no puede ser negativa (${stock})`);
    else if (!/^\d{1,7}$/.test(stock)) reasons.push(`Existencia inválida «${stock}» (un número entero)`);
    else values.stock = Number(stock);
  }
  const weight = cell('weight_kg');
  if (weight) {
    const kg = parseDecimal(weight);
    if (kg === null) reasons.push(`Peso inválido «${weight}» (kg, p. ej. 1.25 o 1,25)`);
    else values.weightKg = kg;
  }
  const short = cell('short_desc');
  if (short !== undefined) {
    if (short.length > 500) reasons.push('La descripción corta admite hasta 500 caracteres');
    else values.shortDesc = short;
  }
  const long = cell('long_desc_html');
  if (long !== undefined) {
    if (long.length > 100_000) reasons.push('La descripción larga admite hasta 100,000 caracteres');
    else values.longDescHtml = sanitizeLongDescription(long);
  }
  const active = cell('active')?.toLowerCase();
  if (active) {
    if (TRUE.has(active)) values.active = true;
    else if (FALSE.has(active)) values.active = false;
    else reasons.push(`Valor de «active» inválido «${active}» (sí o no)`);
  }
  const satProduct = cell('sat_product_key');
  if (satProduct !== undefined) {
    if (satProduct !== '' && !SAT_PRODUCT_KEY.test(satProduct))
      reasons.push(`Clave de producto SAT inválida «${satProduct}» (8 dígitos)`);
    else values.satProductKey = satProduct || null;
  }
  const satUnit = cell('sat_unit_key')?.toUpperCase();
  if (satUnit !== undefined) {
    if (satUnit !== '' && !SAT_UNIT_KEY.test(satUnit))
      reasons.push(`Clave de unidad SAT inválida «${satUnit}» (p. ej. H87)`);
    else values.satUnitKey = satUnit || null;
  }
  const cas = cell('cas_number');
  if (cas !== undefined) {
    const parsed = cas === '' ? null : parseCas(cas);
    if (cas !== '' && parsed === null)
      reasons.push(`Número CAS inválido «${cas}» (p. ej. 7664-93-9; el dígito verificador no corresponde)`);
    else values.casNumber = parsed;
  }
  const formula = cell('formula');
  if (formula !== undefined) {
    if (formula.length > 100) reasons.push('La fórmula admite hasta 100 caracteres');
    else values.formula = formula || null;
  }
  const family = cell('family');
  if (family !== undefined) {
    if (family !== '' && !PRODUCT_CODE_PATTERN.test(family))
      reasons.push(`Columna family: código de familia inválido «${family}»`);
    else if (family === code) values.familyCode = null;
    else values.familyCode = family || null;
  }
  const presentation = cell('presentation');
  if (presentation !== undefined) {
    if (presentation.length > 60) reasons.push('Columna presentation: admite hasta 60 caracteres');
    else values.presentationLabel = presentation || null;
  }
  const breaks = cell('price_breaks');
  if (breaks !== undefined) {
    const parsed = breaks === '' ? [] : parsePriceBreaks(breaks);
    if (parsed === null)
      reasons.push(
        `Columna price_breaks: «${breaks}» no se entiende (cantidad:precio separados por ;, p. ej. 10:145.00;50:130.00)`,
      );
    else values.priceBreaks = parsed;
  }
  readSafety(cell, values, reasons);
  const backorder = cell('backorder')?.toLowerCase();
  if (backorder) {
    if (TRUE.has(backorder)) values.backorderable = true;
    else if (FALSE.has(backorder)) values.backorderable = false;
    else reasons.push(`Columna backorder: valor inválido «${backorder}» (sí o no)`);
  }
  const lead = cell('lead_time_days');
  if (lead !== undefined) {
    const parsed = lead === '' ? null : parseLeadTime(lead);
    if (typeof parsed === 'string') reasons.push(parsed);
    else if (parsed && values.backorderable === false)
      reasons.push(
        `Columna lead_time_days: «${lead}» sin sobre pedido; el tiempo de entrega solo aplica con backorder = sí`,
      );
    else values.leadTime = parsed;
  }
  const controlled = cell('controlled')?.toLowerCase();
  if (controlled) {
    if (TRUE.has(controlled)) values.controlled = true;
    else if (FALSE.has(controlled)) values.controlled = false;
    else reasons.push(`Columna controlled: valor inválido «${controlled}» (sí o no)`);
  }
  if (reasons.length > 0) return { values: null, reasons, code: code || null };
  return { values, reasons: [] };
}

/** The reagent safety columns of one row (decision 027): codes only, each checked against src/shared/ghs.ts. */
function readSafety(cell: (c: Column) => string | undefined, values: RowValues, reasons: string[]) {
  const mass = cell('molar_mass');
  if (mass !== undefined) {
    const parsed = mass === '' ? null : parseMolarMass(mass);
    if (mass !== '' && parsed === null)
      reasons.push(
        `Columna molar_mass: masa molar inválida «${mass}» (g/mol, un número mayor que cero, p. ej. 36.46)`,
      );
    else values.molarMass = parsed;
  }
  const grade = cell('grade');
  if (grade !== undefined) {
    const parsed = grade === '' ? null : parseGrade(grade);
    if (grade !== '' && parsed === null)
      reasons.push(
        `Columna grade: grado desconocido «${grade}» (use ${GRADES.map((g) => g.code).join(', ')})`,
      );
    else values.grade = parsed;
  }
  const pictograms = cell('ghs_pictograms');
  if (pictograms !== undefined) {
    const parsed = parsePictograms(pictograms);
    if ('unknown' in parsed)
      reasons.push(
        `Columna ghs_pictograms: pictograma desconocido «${parsed.unknown}» (use GHS01 a GHS09, separados por espacios)`,
      );
    else values.ghsPictograms = parsed.codes;
  }
  const signal = cell('signal_word');
  if (signal !== undefined) {
    const parsed = signal === '' ? null : parseSignalWord(signal);
    if (signal !== '' && parsed === null)
      reasons.push(`Columna signal_word: «${signal}» no es una palabra de advertencia (Peligro o Atención)`);
    else values.signalWord = parsed;
  }
  const statements = (column: 'hazard_statements' | 'precautionary_statements', kind: 'H' | 'P') => {
    const text = cell(column);
    if (text === undefined) return;
    const parsed = parseStatementCodes(text, kind);
    const what = kind === 'H' ? 'una indicación de peligro' : 'un consejo de prudencia';
    const example = kind === 'H' ? 'H290 H314 H335' : 'P280 P305+P351+P338';
    if ('unknown' in parsed)
      reasons.push(
        `Columna ${column}: «${parsed.unknown}» no es ${what} de la lista oficial del SGA (p. ej. ${example})`,
      );
    else if ('tooMany' in parsed)
      reasons.push(`Columna ${column}: ${parsed.tooMany} códigos; el máximo es ${MAX_STATEMENTS}`);
    else if (kind === 'H') values.hazardStatements = parsed.codes;
    else values.precautionaryStatements = parsed.codes;
  };
  statements('hazard_statements', 'H');
  statements('precautionary_statements', 'P');
  const storage = cell('storage_conditions');
  if (storage !== undefined) {
    if (storage.length > 300) reasons.push('Columna storage_conditions: admite hasta 300 caracteres');
    else values.storageConditions = storage || null;
  }
}
