import { parseCas } from '../../../shared/cas.ts';
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
  controlado: 'controlled',
  precursor: 'controlled',
};

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
  /** Under the precursor law (decision 030); a presentation takes its family's value (importer.ts). */
  controlled?: boolean;
};

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
  const controlled = cell('controlled')?.toLowerCase();
  if (controlled) {
    if (TRUE.has(controlled)) values.controlled = true;
    else if (FALSE.has(controlled)) values.controlled = false;
    else reasons.push(`Columna controlled: valor inválido «${controlled}» (sí o no)`);
  }
  if (reasons.length > 0) return { values: null, reasons, code: code || null };
  return { values, reasons: [] };
}
