import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { inArray, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { DATASHEET_MAX_BYTES, IMAGE_MAX_BYTES, type ImportReport } from '../../../shared/schemas/admin.ts';
import { SAFETY_DOC_MAX_BYTES } from '../../../shared/schemas/documents.ts';
import { formatPriceBreaks, type PriceBreak, priceBreaksProblem } from '../../../shared/volume-prices.ts';
import { type Actor, writeAudit } from '../../audit/log.ts';
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
import { datasheetProblem, imageProblem, safetyDocProblem } from '../media-checks.ts';
import { type Column, readHeader, readRow } from './columns.ts';
import { settleControlled } from './controlled-rules.ts';
import { decodeCsv, detectDelimiter, ImportFileError, parseCsv } from './csv.ts';
import { familyBases, familyProblem } from './family-rules.ts';
import { checkFile, IMAGE_EXTS, indexDir } from './media.ts';
import { changedFields, merge } from './merge.ts';
import { safetyProblem } from './safety-rules.ts';
import { leadTimeProblem } from './sobre-pedido-rules.ts';
import { type Accepted, type Existing, existingRows, type Merged, storedFacts } from './stored.ts';

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
