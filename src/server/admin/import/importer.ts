import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { asc, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { DATASHEET_MAX_BYTES, IMAGE_MAX_BYTES, type ImportReport } from '../../../shared/schemas/admin.ts';
import { SAFETY_DOC_MAX_BYTES } from '../../../shared/schemas/documents.ts';
import { formatPriceBreaks, type PriceBreak, priceBreaksProblem } from '../../../shared/volume-prices.ts';
import { type Actor, writeAudit } from '../../audit/log.ts';
import { hasSafetyData } from '../../catalog/safety.ts';
import { syncFamilyControlled } from '../../controlled/rules.ts';
import type { Db } from '../../db/client.ts';
import {
  brands,
  groups,
  priceBreaks,
  productSafetySheets,
  products,
  stockMovements,
} from '../../db/schema.ts';
import { datasheetProblem, imageProblem, limitText, safetyDocProblem, sizeText } from '../media-checks.ts';
import { contentHash } from '../products-service.ts';
import { type Column, clearsSafety, type RowValues, readHeader, readRow, setsSafety } from './columns.ts';
import { decodeCsv, detectDelimiter, ImportFileError, parseCsv } from './csv.ts';

export { ImportFileError };

/**
 * Where the pictures, datasheets and safety data sheets named after product codes are (command line: --images,
 * --datasheets, --hds). An HDS belongs to a family (decision 028): it is named after the family's base code.
 */
export type MediaDirs = {
  images?: string | undefined;
  datasheets?: string | undefined;
  hds?: string | undefined;
};

export type ImportOptions = {
  filename: string;
  dryRun: boolean;
  /** Import nothing when any row is rejected. */
  strict?: boolean;
  actor: Actor;
  media?: MediaDirs;
  batchSize?: number;
  onProgress?: (done: number, total: number) => void;
};

const IMAGE_EXTS = ['.jpg', '.jpeg', '.png', '.webp'];

/** code (lower case) → file path, for files whose name is a product code. */
function indexDir(dir: string | undefined, exts: string[]): Map<string, string> {
  const index = new Map<string, string>();
  if (!dir) return index;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    throw new ImportFileError(`No se puede leer la carpeta ${dir}`);
  }
  for (const name of names) {
    const ext = extname(name).toLowerCase();
    if (!exts.includes(ext)) continue;
    index.set(name.slice(0, -ext.length).toLowerCase(), join(dir, name));
  }
  return index;
}

/** A media file's hash, or why it is refused (an oversized file is judged by its size, unread). */
async function checkFile(
  path: string,
  max: number,
  problemOf: (data: Buffer) => Promise<string | null>,
): Promise<{ hash: string } | { problem: string }> {
  const size = statSync(path).size;
  if (size > max) return { problem: `pesa ${sizeText(size)}; el límite es ${limitText(max)}` };
  const data = readFileSync(path);
  const problem = await problemOf(data);
  return problem ? { problem } : { hash: contentHash(data) };
}

type Accepted = {
  line: number;
  values: RowValues;
  image?: { path: string; hash: string };
  datasheet?: { path: string; hash: string };
  /** The family's HDS (the row is a family's base or a product without presentations). */
  hds?: { path: string; hash: string };
};

/** The product's columns an import reads, compares and writes: all but the file bytes and the timestamps. */
const {
  image: _image,
  datasheet: _datasheet,
  createdAt: _created,
  updatedAt: _updated,
  ...importedColumns
} = getTableColumns(products);
type Merged = { [K in keyof typeof importedColumns]: (typeof products.$inferSelect)[K] };
type Existing = Merged;

const keep = <T>(value: T | undefined, stored: T): T => (value === undefined ? stored : value);

function merge(row: Accepted, e: Existing | undefined): Merged {
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

/** 'Sobre pedido' (decision 029): 'backorder = no' clears the lead time; an empty cell keeps the stored one. */
function leadTimeColumns(
  v: RowValues,
  e: Existing | undefined,
): Pick<Merged, 'backorderable' | 'leadMinDays' | 'leadMaxDays'> {
  const backorderable = keep(v.backorderable, e?.backorderable ?? false);
  if (!backorderable) return { backorderable, leadMinDays: null, leadMaxDays: null };
  if (v.leadTime) return { backorderable, leadMinDays: v.leadTime.minDays, leadMaxDays: v.leadTime.maxDays };
  return { backorderable, leadMinDays: e?.leadMinDays ?? null, leadMaxDays: e?.leadMaxDays ?? null };
}

/** A row's 'sobre pedido' with what is stored: a flag needs a lead time, a lead time needs the flag. */
function leadTimeProblem(values: RowValues, before: StoredFacts | undefined): string | null {
  const flagged = values.backorderable ?? before?.backorderable ?? false;
  const lead = values.leadTime === undefined ? (before?.hasLeadTime ?? false) : values.leadTime !== null;
  if (flagged && !lead)
    return 'Columna backorder: un producto sobre pedido necesita su tiempo de entrega en lead_time_days (p. ej. 10-15)';
  if (!flagged && values.leadTime)
    return 'Columna lead_time_days: el tiempo de entrega solo aplica a productos sobre pedido; indique backorder = sí';
  return null;
}

const FIELD_LABELS: Record<keyof Merged, string> = {
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

function changedFields(m: Merged, e: Existing): string[] {
  const before = merge({ line: 0, values: { code: e.code } }, e);
  // Lists of codes (pictograms, H and P statements) compare by content.
  const same = (a: unknown, b: unknown) =>
    Array.isArray(a) && Array.isArray(b) ? a.join(' ') === b.join(' ') : a === b;
  const labels = (Object.keys(m) as (keyof Merged)[])
    .filter((k) => !same(m[k], before[k]))
    .map((k) => FIELD_LABELS[k]);
  return [...new Set(labels)];
}

async function existingRows(db: Db, codes: string[], lock: boolean): Promise<Map<string, Existing>> {
  if (codes.length === 0) return new Map();
  const query = db
    .select(importedColumns)
    .from(products)
    .where(inArray(products.code, codes))
    .orderBy(asc(products.code));
  const list = lock ? await query.for('update') : await query;
  return new Map(list.map((r) => [r.code, r]));
}

/** What the checks of a row need to know of the stored product: price, family, safety data, lead time, control. */
type StoredFacts = {
  priceCents: number;
  familyCode: string | null;
  hasSafety: boolean;
  backorderable: boolean;
  hasLeadTime: boolean;
  controlled: boolean;
};

async function storedFacts(db: Db, codes: string[]): Promise<Map<string, StoredFacts>> {
  const found = new Map<string, StoredFacts>();
  for (let i = 0; i < codes.length; i += 1000) {
    const chunk = codes.slice(i, i + 1000);
    const list = await db
      .select({
        code: products.code,
        priceCents: products.priceCents,
        familyCode: products.familyCode,
        hasSafety: hasSafetyData,
        backorderable: products.backorderable,
        leadMinDays: products.leadMinDays,
        controlled: products.controlled,
      })
      .from(products)
      .where(inArray(products.code, chunk));
    for (const r of list)
      found.set(r.code, {
        priceCents: r.priceCents,
        familyCode: r.familyCode,
        hasSafety: r.hasSafety,
        backorderable: r.backorderable,
        hasLeadTime: r.leadMinDays !== null,
        controlled: r.controlled,
      });
  }
  return found;
}

/** Of these codes, those that are the base of a stored family (they cannot join another family). */
async function familyBases(db: Db, codes: string[]): Promise<Set<string>> {
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
function familyProblem(
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

/**
 * Safety data lives on the family's base (decision 027): a presentation row gives none, and a product with
 * safety data joins a family only when the same row empties every safety column.
 */
function safetyProblem(
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

/**
 * The controlled flag of a row (decision 030): a base says its own (or keeps the stored one); a presentation
 * takes its family's — a cell saying otherwise is refused, since the law controls the substance, not the bottle.
 */
function settleControlled(
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

/**
 * Imports a catalogue CSV (docs/admin.md): checks the whole file first (encoding, header, every row and
 * its files), then upserts the accepted rows by code, one transaction per batch; stock changes become
 * 'import' ledger rows and each landed batch one audit row. A dry run reads and compares only.
 */
export async function importCatalogue(
  db: Db,
  bytes: Uint8Array,
  options: ImportOptions,
): Promise<ImportReport> {
  const text = decodeCsv(bytes);
  const records = parseCsv(text, detectDelimiter(text));
  const headerRecord = records[0];
  if (!headerRecord) throw new ImportFileError('El archivo no tiene encabezado ni filas');
  if (headerRecord.error)
    throw new ImportFileError(`Encabezado mal formado (línea 1): ${headerRecord.error}`);
  const header = readHeader(headerRecord.fields);
  const data = records.slice(1);
  if (data.length === 0)
    throw new ImportFileError('El archivo no tiene filas de productos, solo el encabezado');

  const knownGroups = new Set((await db.select({ clas: groups.clas }).from(groups)).map((g) => g.clas));
  const images = indexDir(options.media?.images, IMAGE_EXTS);
  const datasheets = indexDir(options.media?.datasheets, ['.pdf']);
  const safetySheets = indexDir(options.media?.hds, ['.pdf']);
  const codesInFile = data.map((r) => (r.fields[header.get('code')!] ?? '').trim()).filter(Boolean);
  const familyIndex = header.get('family');
  const familyCodes =
    familyIndex === undefined ? [] : data.map((r) => (r.fields[familyIndex] ?? '').trim()).filter(Boolean);
  const stored = await storedFacts(db, [...new Set([...codesInFile, ...familyCodes])]);
  const bases =
    familyIndex === undefined ? new Set<string>() : await familyBases(db, [...new Set(codesInFile)]);
  /** Code → family of the rows read so far (accepted or not: a rejected base still is no family to join). */
  const fileFamily = new Map<string, string | null>();
  /** The families named by the rows read so far. */
  const named = new Set<string>();
  /** Code → controlled, as the rows read so far leave it (decision 030: a presentation takes its base's). */
  const fileControlled = new Map<string, boolean>();

  const rejected: ImportReport['rejected'] = [];
  const accepted: Accepted[] = [];
  const seen = new Map<string, number>();
  for (const record of data) {
    const codeCell = (record.fields[header.get('code')!] ?? '').trim() || null;
    if (record.error) {
      rejected.push({ line: record.line, code: codeCell, reasons: [`CSV mal formado: ${record.error}`] });
      continue;
    }
    if (record.fields.length !== header.size) {
      rejected.push({
        line: record.line,
        code: codeCell,
        reasons: [`La fila tiene ${record.fields.length} columnas y el encabezado ${header.size}`],
      });
      continue;
    }
    const read = readRow(record.fields, header, knownGroups);
    const reasons = [...read.reasons];
    const values = read.values;
    const code = values?.code ?? codeCell;
    if (code && seen.has(code)) reasons.push(`Código repetido: ya aparece en la línea ${seen.get(code)}`);
    if (code && !seen.has(code)) seen.set(code, record.line);
    let rowFamily: string | null = null;
    if (values) {
      const before = stored.get(values.code);
      const family = values.familyCode === undefined ? (before?.familyCode ?? null) : values.familyCode;
      rowFamily = family;
      const problem = familyProblem(values, family, { stored, bases, fileFamily, named });
      if (problem) reasons.push(problem);
      const safety = safetyProblem(values, family, before);
      if (safety) reasons.push(safety);
      const leadProblem = leadTimeProblem(values, before);
      if (leadProblem) reasons.push(leadProblem);
      const price = values.priceCents ?? before?.priceCents;
      if (values.priceBreaks && price !== undefined) {
        const breaksProblem = priceBreaksProblem(price, values.priceBreaks);
        if (breaksProblem) reasons.push(`Columna price_breaks: ${breaksProblem}`);
      }
      const controlledProblem = settleControlled(values, family, stored, fileControlled);
      if (controlledProblem) reasons.push(controlledProblem);
      if (!fileFamily.has(values.code)) fileFamily.set(values.code, family);
      if (family) named.add(family);
    }
    if (values && !stored.has(values.code)) {
      const missing = (['name', 'groupClas', 'priceCents'] as const).filter((k) => values[k] === undefined);
      const labels: Record<string, Column> = { name: 'name', groupClas: 'group', priceCents: 'price' };
      if (missing.length > 0)
        reasons.push(
          `Producto nuevo sin ${missing.map((m) => labels[m]).join(', ')} (obligatorios para crearlo)`,
        );
    }
    const row: Accepted | null = values ? { line: record.line, values } : null;
    if (code) {
      const imagePath = images.get(code.toLowerCase());
      if (imagePath) {
        const checked = await checkFile(imagePath, IMAGE_MAX_BYTES, imageProblem);
        if ('problem' in checked) reasons.push(`Imagen ${basename(imagePath)}: ${checked.problem}`);
        else if (row) row.image = { path: imagePath, hash: checked.hash };
      }
      const pdfPath = datasheets.get(code.toLowerCase());
      if (pdfPath) {
        const checked = await checkFile(pdfPath, DATASHEET_MAX_BYTES, async (d) => datasheetProblem(d));
        if ('problem' in checked) reasons.push(`Ficha técnica ${basename(pdfPath)}: ${checked.problem}`);
        else if (row) row.datasheet = { path: pdfPath, hash: checked.hash };
      }
      const hdsPath = safetySheets.get(code.toLowerCase());
      if (hdsPath) {
        const checked = await checkFile(hdsPath, SAFETY_DOC_MAX_BYTES, (d) =>
          safetyDocProblem(d, 'La hoja de datos de seguridad'),
        );
        if ('problem' in checked) reasons.push(`HDS ${basename(hdsPath)}: ${checked.problem}`);
        else if (rowFamily)
          reasons.push(
            `HDS ${basename(hdsPath)}: la comparten las presentaciones de la familia; nombre el archivo con el código de la base «${rowFamily}»`,
          );
        else if (row) row.hds = { path: hdsPath, hash: checked.hash };
      }
    }
    if (reasons.length > 0 || !row) rejected.push({ line: record.line, code, reasons });
    else accepted.push(row);
  }

  const report: ImportReport = {
    dryRun: options.dryRun,
    rows: data.length,
    created: 0,
    updated: 0,
    unchanged: 0,
    rejected,
    batches: [],
    brandsCreated: [],
    changes: [],
    message: '',
  };
  if (options.strict && rejected.length > 0) {
    report.message = `No se importó nada: ${rejected.length} ${rejected.length === 1 ? 'fila rechazada' : 'filas rechazadas'} y se pidió importar solo un archivo sin errores`;
    return report;
  }

  const size = options.batchSize ?? 500;
  const total = accepted.length;
  options.onProgress?.(0, total);
  for (let start = 0; start < total; start += size) {
    const batch = accepted.slice(start, start + size);
    const info = {
      index: report.batches.length + 1,
      firstLine: batch[0]!.line,
      lastLine: batch[batch.length - 1]!.line,
      rows: batch.length,
      landed: false,
      error: null as string | null,
    };
    try {
      const outcome = options.dryRun
        ? await planBatch(db, batch, false)
        : await db.transaction(async (tx) => {
            const plan = await planBatch(tx, batch, true);
            await writeBatch(tx, plan, options, info);
            return plan;
          });
      info.landed = !options.dryRun;
      report.created += outcome.created.length;
      report.updated += outcome.updated.length;
      report.unchanged += outcome.unchanged;
      report.brandsCreated.push(...outcome.newBrands.filter((b) => !report.brandsCreated.includes(b)));
      for (const c of [...outcome.created, ...outcome.updated]) {
        if (report.changes.length < 200) report.changes.push(c.change);
      }
    } catch (error) {
      info.error = error instanceof Error ? error.message.slice(0, 300) : String(error);
    }
    report.batches.push(info);
    options.onProgress?.(Math.min(total, start + batch.length), total);
  }
  report.message = summary(report);
  return report;
}

function summary(r: ImportReport): string {
  const failed = r.batches.filter((b) => b.error !== null).length;
  const counts = r.dryRun
    ? `Simulación: se crearían ${r.created}, se actualizarían ${r.updated} y ${r.unchanged} quedarían sin cambios`
    : `Importación: ${r.created} creados, ${r.updated} actualizados, ${r.unchanged} sin cambios`;
  const rejected = r.rejected.length
    ? `; ${r.rejected.length} ${r.rejected.length === 1 ? 'fila rechazada' : 'filas rechazadas'}`
    : '';
  const batches = r.dryRun
    ? ''
    : `; ${r.batches.length - failed} de ${r.batches.length} ${r.batches.length === 1 ? 'lote aplicado' : 'lotes aplicados'}`;
  return `${counts}${rejected}${batches}.`;
}

type Planned = {
  merged: Merged;
  row: Accepted;
  existing: Existing | undefined;
  change: ImportReport['changes'][number];
};
type Plan = { created: Planned[]; updated: Planned[]; unchanged: number; newBrands: string[] };

async function planBatch(db: Db, batch: Accepted[], lock: boolean): Promise<Plan> {
  const existing = await existingRows(
    db,
    batch.map((r) => r.values.code),
    lock,
  );
  const storedBreaks = await breaksOf(
    db,
    batch.filter((r) => r.values.priceBreaks !== undefined).map((r) => r.values.code),
  );
  const storedSheets = await safetySheetHashes(
    db,
    batch.filter((r) => r.hds).map((r) => r.values.code),
  );
  const plan: Plan = { created: [], updated: [], unchanged: 0, newBrands: [] };
  for (const row of batch) {
    const e = existing.get(row.values.code);
    const merged = merge(row, e);
    const newBreaks = row.values.priceBreaks;
    const breaksChanged =
      newBreaks !== undefined &&
      formatPriceBreaks(newBreaks) !== formatPriceBreaks(storedBreaks.get(row.values.code) ?? []);
    if (!e) {
      plan.created.push({
        merged,
        row,
        existing: e,
        change: { line: row.line, code: merged.code, kind: 'created', fields: [] },
      });
      continue;
    }
    const hdsChanged = row.hds !== undefined && row.hds.hash !== storedSheets.get(row.values.code);
    const fields = [
      ...changedFields(merged, e),
      ...(breaksChanged ? ['price_breaks'] : []),
      ...(hdsChanged ? ['hds'] : []),
    ];
    if (fields.length === 0) plan.unchanged += 1;
    else
      plan.updated.push({
        merged,
        row,
        existing: e,
        change: { line: row.line, code: merged.code, kind: 'updated', fields },
      });
  }
  const names = [
    ...new Set([...plan.created, ...plan.updated].map((p) => p.merged.brand).filter((b): b is string => !!b)),
  ];
  if (names.length > 0) {
    const known = new Set(
      (await db.select({ name: brands.name }).from(brands).where(inArray(brands.name, names))).map(
        (b) => b.name,
      ),
    );
    plan.newBrands = names.filter((n) => !known.has(n));
  }
  return plan;
}

/** The stored HDS hash of these families. */
async function safetySheetHashes(db: Db, codes: string[]): Promise<Map<string, string>> {
  if (codes.length === 0) return new Map();
  const rows = await db
    .select({ code: productSafetySheets.familyCode, hash: productSafetySheets.hash })
    .from(productSafetySheets)
    .where(inArray(productSafetySheets.familyCode, codes));
  return new Map(rows.map((r) => [r.code, r.hash]));
}

async function breaksOf(db: Db, codes: string[]): Promise<Map<string, PriceBreak[]>> {
  const out = new Map<string, PriceBreak[]>();
  if (codes.length === 0) return out;
  const rows = await db
    .select({
      code: priceBreaks.productCode,
      minQuantity: priceBreaks.minQuantity,
      priceCents: priceBreaks.priceCents,
    })
    .from(priceBreaks)
    .where(inArray(priceBreaks.productCode, codes));
  for (const r of rows) out.set(r.code, [...(out.get(r.code) ?? []), r]);
  return out;
}

/** The value an upsert proposed for this column (`excluded.<column>`). */
const excluded = (column: PgColumn) => sql.raw(`excluded.${JSON.stringify(column.name)}`);

async function writeBatch(
  tx: Db,
  plan: Plan,
  options: ImportOptions,
  info: { index: number; firstLine: number; lastLine: number },
) {
  const changed = [...plan.created, ...plan.updated];
  if (changed.length === 0) return;
  if (plan.newBrands.length > 0) {
    await tx
      .insert(brands)
      .values(plan.newBrands.map((name) => ({ name })))
      .onConflictDoNothing();
  }
  const now = new Date();
  await tx
    .insert(products)
    .values(
      changed.map(({ merged: m, row }) => ({
        code: m.code,
        name: m.name,
        brand: m.brand,
        groupClas: m.groupClas,
        line: m.line,
        type: m.type,
        priceCents: m.priceCents,
        stock: m.stock,
        weightKg: m.weightKg,
        shortDesc: m.shortDesc,
        longDescHtml: m.longDescHtml,
        active: m.active,
        satProductKey: m.satProductKey,
        satUnitKey: m.satUnitKey,
        casNumber: m.casNumber,
        formula: m.formula,
        familyCode: m.familyCode,
        presentationLabel: m.presentationLabel,
        molarMass: m.molarMass,
        grade: m.grade,
        ghsPictograms: m.ghsPictograms,
        signalWord: m.signalWord,
        hazardStatements: m.hazardStatements,
        precautionaryStatements: m.precautionaryStatements,
        storageConditions: m.storageConditions,
        backorderable: m.backorderable,
        leadMinDays: m.leadMinDays,
        leadMaxDays: m.leadMaxDays,
        controlled: m.controlled,
        image: row.image ? readFileSync(row.image.path) : null,
        imageHash: row.image?.hash ?? null,
        datasheet: row.datasheet ? readFileSync(row.datasheet.path) : null,
        datasheetHash: row.datasheet?.hash ?? null,
        updatedAt: now,
      })),
    )
    .onConflictDoUpdate({
      target: products.code,
      set: {
        name: excluded(products.name),
        brand: excluded(products.brand),
        groupClas: excluded(products.groupClas),
        line: excluded(products.line),
        type: excluded(products.type),
        priceCents: excluded(products.priceCents),
        stock: excluded(products.stock),
        weightKg: excluded(products.weightKg),
        shortDesc: excluded(products.shortDesc),
        longDescHtml: excluded(products.longDescHtml),
        active: excluded(products.active),
        satProductKey: excluded(products.satProductKey),
        satUnitKey: excluded(products.satUnitKey),
        casNumber: excluded(products.casNumber),
        formula: excluded(products.formula),
        familyCode: excluded(products.familyCode),
        presentationLabel: excluded(products.presentationLabel),
        molarMass: excluded(products.molarMass),
        grade: excluded(products.grade),
        ghsPictograms: excluded(products.ghsPictograms),
        signalWord: excluded(products.signalWord),
        hazardStatements: excluded(products.hazardStatements),
        precautionaryStatements: excluded(products.precautionaryStatements),
        storageConditions: excluded(products.storageConditions),
        backorderable: excluded(products.backorderable),
        leadMinDays: excluded(products.leadMinDays),
        leadMaxDays: excluded(products.leadMaxDays),
        controlled: excluded(products.controlled),
        // A row without a file keeps the stored one.
        image: sql`coalesce(${excluded(products.image)}, ${products.image})`,
        imageHash: sql`coalesce(${excluded(products.imageHash)}, ${products.imageHash})`,
        datasheet: sql`coalesce(${excluded(products.datasheet)}, ${products.datasheet})`,
        datasheetHash: sql`coalesce(${excluded(products.datasheetHash)}, ${products.datasheetHash})`,
        updatedAt: excluded(products.updatedAt),
      },
    });
  // A base whose flag changed passes it to its stored presentations (decision 030).
  await syncFamilyControlled(
    tx,
    changed.filter(({ merged }) => merged.familyCode === null).map(({ merged }) => merged.code),
  );
  // The family's HDS lands with its row, in the same transaction (decision 028).
  for (const { merged, row } of changed) {
    if (!row.hds) continue;
    const data = readFileSync(row.hds.path);
    const values = {
      data,
      hash: row.hds.hash,
      bytes: data.length,
      uploadedAt: now,
      uploadedBy: options.actor.userId,
    };
    await tx
      .insert(productSafetySheets)
      .values({ familyCode: merged.code, ...values })
      .onConflictDoUpdate({ target: productSafetySheets.familyCode, set: values });
  }
  const withBreaks = changed.filter(({ row }) => row.values.priceBreaks !== undefined);
  if (withBreaks.length > 0) {
    await tx.delete(priceBreaks).where(
      inArray(
        priceBreaks.productCode,
        withBreaks.map(({ merged }) => merged.code),
      ),
    );
    const rows = withBreaks.flatMap(({ merged, row }) =>
      (row.values.priceBreaks ?? []).map((b) => ({ productCode: merged.code, ...b })),
    );
    if (rows.length > 0) await tx.insert(priceBreaks).values(rows);
  }
  const ledger = changed
    .map(({ merged, existing }) => ({
      code: merged.code,
      delta: merged.stock - (existing?.stock ?? 0),
    }))
    .filter((m) => m.delta !== 0);
  if (ledger.length > 0) {
    await tx.insert(stockMovements).values(
      ledger.map((m) => ({
        productCode: m.code,
        delta: m.delta,
        reason: 'import',
        note: options.filename.slice(0, 200),
        actorUserId: options.actor.userId,
      })),
    );
  }
  await writeAudit(tx, options.actor, {
    action: 'catalogue.import',
    entityType: 'catalogue',
    entityId: options.filename.slice(0, 200),
    after: {
      batch: info.index,
      lines: [info.firstLine, info.lastLine],
      created: plan.created.map((p) => p.merged.code),
      updated: plan.updated.map((p) => ({ code: p.merged.code, fields: p.change.fields })),
      brandsCreated: plan.newBrands,
    },
  });
}
