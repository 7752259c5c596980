import { inflateRawSync } from 'node:zlib';
import { badRequest } from '../http/errors.ts';

/**
 * The first sheet of an Excel workbook (.xlsx, Office Open XML) as text lines for the quick order (issue 18,
 * decision 031): one line per spreadsheet row, at the row's own number (so 'línea 7' is Excel's row 7), cells
 * separated by tabs. Read with Node's zlib only — the ZIP central directory, raw inflate of the few parts
 * needed (workbook, its relationships, the shared strings, the first sheet) and a reader for the handful of
 * SpreadsheetML elements that carry cell values. Nothing else in the file is looked at; nothing is evaluated.
 *
 * Caps (the upload itself is at most QUICK_ORDER_MAX_FILE_BYTES): at most MAX_ENTRIES entries in the archive,
 * each part read at most MAX_PART_BYTES once inflated (zlib stops there: maxOutputLength), at most
 * MAX_TOTAL_BYTES for all of them, and no part inflating more than MAX_RATIO times its compressed size (a
 * zip bomb). A formula cell is given to the line reader as '=…', which refuses it like a pasted formula.
 */

export const XLSX_MAX_ENTRIES = 200;
export const XLSX_MAX_PART_BYTES = 4 * 1024 * 1024;
export const XLSX_MAX_TOTAL_BYTES = 8 * 1024 * 1024;
export const XLSX_MAX_RATIO = 200;
/** Rows beyond this are not laid out line by line (the quick order reads at most 100 lines anyway). */
export const XLSX_MAX_ROW = 100_000;

const NOT_XLSX =
  'El archivo no es un libro de Excel (.xlsx) que podamos leer. En Excel elija «Guardar como» → «Libro de Excel (.xlsx)» o «CSV UTF-8», o copie las celdas y péguelas en el cuadro.';
const DAMAGED = 'El libro de Excel está dañado o incompleto: vuelva a guardarlo en Excel y súbalo de nuevo.';
const TOO_BIG =
  'El libro de Excel es demasiado grande una vez descomprimido: deje en la primera hoja solo las columnas de código y cantidad.';

type Entry = {
  name: string;
  method: number;
  flags: number;
  compressed: number;
  size: number;
  offset: number;
};

/** The archive's entries from its central directory (APPNOTE.TXT §4.3.12, §4.3.16); ZIP64 and multi-disk refused. */
function centralDirectory(zip: Buffer): Map<string, Entry> {
  const EOCD = 0x06054b50;
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i -= 1) {
    if (zip.readUInt32LE(i) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) throw badRequest(DAMAGED);
  const disk = zip.readUInt16LE(end + 4);
  const count = zip.readUInt16LE(end + 10);
  const size = zip.readUInt32LE(end + 12);
  let at = zip.readUInt32LE(end + 16);
  if (disk !== 0 || count === 0xffff || at === 0xffffffff) throw badRequest(NOT_XLSX);
  if (count > XLSX_MAX_ENTRIES) throw badRequest(NOT_XLSX);
  if (at + size > end) throw badRequest(DAMAGED);
  const entries = new Map<string, Entry>();
  for (let n = 0; n < count; n += 1) {
    if (at + 46 > end || zip.readUInt32LE(at) !== 0x02014b50) throw badRequest(DAMAGED);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    const entry: Entry = {
      flags: zip.readUInt16LE(at + 8),
      method: zip.readUInt16LE(at + 10),
      compressed: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24),
      offset: zip.readUInt32LE(at + 42),
      name: zip.toString('utf8', at + 46, Math.min(end, at + 46 + nameLength)),
    };
    entries.set(entry.name, entry);
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}

/** One entry's bytes, inflated under the caps. */
function readEntry(zip: Buffer, entry: Entry, budget: { left: number }): string {
  if (entry.flags & 0x1)
    throw badRequest(
      'El libro de Excel está protegido con contraseña: quite la protección o guárdelo como CSV.',
    );
  if (entry.size > XLSX_MAX_PART_BYTES || entry.size > budget.left) throw badRequest(TOO_BIG);
  if (entry.size > 1024 * 1024 && entry.size > entry.compressed * XLSX_MAX_RATIO) throw badRequest(TOO_BIG);
  const local = entry.offset;
  if (local + 30 > zip.length || zip.readUInt32LE(local) !== 0x04034b50) throw badRequest(DAMAGED);
  const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
  if (start + entry.compressed > zip.length) throw badRequest(DAMAGED);
  const data = zip.subarray(start, start + entry.compressed);
  let out: Buffer;
  if (entry.method === 0) out = data;
  else if (entry.method === 8) {
    try {
      // The declared size may lie: zlib itself stops at the cap.
      out = inflateRawSync(data, { maxOutputLength: Math.min(XLSX_MAX_PART_BYTES, budget.left) });
    } catch (error) {
      throw badRequest(error instanceof RangeError ? TOO_BIG : DAMAGED);
    }
  } else throw badRequest(NOT_XLSX);
  if (out.length !== entry.size) throw badRequest(DAMAGED);
  budget.left -= out.length;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(out);
  } catch {
    throw badRequest(DAMAGED);
  }
}

/** XML character references and the five predefined entities; no DTDs are read (a part with one is refused). */
function unescapeXml(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]{1,6}|#\d{1,7}|lt|gt|amp|quot|apos);/g, (_, e: string) => {
    if (e === 'lt') return '<';
    if (e === 'gt') return '>';
    if (e === 'amp') return '&';
    if (e === 'quot') return '"';
    if (e === 'apos') return "'";
    const code = e[1] === 'x' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
    return code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
  });
}

const attr = (attrs: string, name: string) =>
  new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`)
    .exec(attrs)
    ?.slice(1)
    .find((v) => v !== undefined);

/** The text of the <t> runs of a string item (shared string or inline string), without phonetic runs. */
const textOf = (xml: string) =>
  unescapeXml(
    [
      ...xml
        .replace(/<(\w+:)?rPh\b[\s\S]*?<\/(\w+:)?rPh>/g, '')
        .matchAll(/<(?:\w+:)?t(?:\s[^>]*)?>([\s\S]*?)<\/(?:\w+:)?t>/g),
    ]
      .map((m) => m[1])
      .join(''),
  );

/** 'C12' → column 3 (1-based), or null. */
function columnOf(ref: string | undefined): number | null {
  const m = ref ? /^([A-Z]{1,3})\d+$/.exec(ref) : null;
  if (!m) return null;
  let n = 0;
  for (const ch of m[1]!) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

/** A number cell as a person reads it: '5', '1E+3' → '1000', '2.5'. */
function numberText(v: string): string {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) return v;
  return Number.isInteger(n) && Math.abs(n) < 1e15 ? String(n) : String(n);
}

function part(
  zip: Buffer,
  entries: Map<string, Entry>,
  name: string,
  budget: { left: number },
): string | null {
  const entry = entries.get(name);
  if (!entry) return null;
  const xml = readEntry(zip, entry, budget);
  if (/<!DOCTYPE/i.test(xml)) throw badRequest(NOT_XLSX);
  return xml;
}

/** Resolves a relationship target ('worksheets/sheet1.xml', '/xl/worksheets/sheet1.xml') against xl/. */
function targetPath(target: string): string {
  const path = target.startsWith('/') ? target.slice(1) : `xl/${target}`;
  const parts: string[] = [];
  for (const p of path.split('/')) {
    if (p === '..') parts.pop();
    else if (p !== '.' && p !== '') parts.push(p);
  }
  return parts.join('/');
}

export function xlsxToText(bytes: Buffer): { text: string; notes: string[] } {
  const entries = centralDirectory(bytes);
  const budget = { left: XLSX_MAX_TOTAL_BYTES };
  const workbook = part(bytes, entries, 'xl/workbook.xml', budget);
  if (workbook === null) throw badRequest(NOT_XLSX);
  const sheets = [...workbook.matchAll(/<(?:\w+:)?sheet\s([^>]*?)\/?>/g)].map((m) => m[1]!);
  const first = sheets[0];
  if (!first) throw badRequest(NOT_XLSX);
  const sheetName = unescapeXml(attr(first, 'name') ?? '');
  const relId = /(?:^|\s)\w+:id\s*=\s*"([^"]*)"/.exec(first)?.[1];
  const rels = part(bytes, entries, 'xl/_rels/workbook.xml.rels', budget) ?? '';
  let sheetPath = 'xl/worksheets/sheet1.xml';
  for (const m of rels.matchAll(/<(?:\w+:)?Relationship\s([^>]*?)\/?>/g)) {
    if (relId && attr(m[1]!, 'Id') === relId) {
      const target = attr(m[1]!, 'Target');
      if (target) sheetPath = targetPath(target);
    }
  }
  const sheet = part(bytes, entries, sheetPath, budget);
  if (sheet === null) throw badRequest(NOT_XLSX);
  const sharedXml = part(bytes, entries, 'xl/sharedStrings.xml', budget);
  const shared = sharedXml
    ? [...sharedXml.matchAll(/<(?:\w+:)?si(?:\s[^>]*)?>([\s\S]*?)<\/(?:\w+:)?si>|<(?:\w+:)?si\s*\/>/g)].map(
        (m) => textOf(m[1] ?? ''),
      )
    : [];

  const rows = new Map<number, string[]>();
  let nextRow = 1;
  let maxRow = 0;
  for (const r of sheet.matchAll(/<(?:\w+:)?row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?row>)/g)) {
    const declared = Number(attr(r[1]!, 'r'));
    const rowNumber = Number.isInteger(declared) && declared >= 1 ? declared : nextRow;
    nextRow = rowNumber + 1;
    if (rowNumber > XLSX_MAX_ROW)
      throw badRequest('La hoja tiene demasiadas filas: el pedido rápido lee hasta 100 productos.');
    const cells: string[] = [];
    let nextColumn = 1;
    for (const c of (r[2] ?? '').matchAll(/<(?:\w+:)?c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?c>)/g)) {
      const attrs = c[1]!;
      const body = c[2] ?? '';
      const column = columnOf(attr(attrs, 'r')) ?? nextColumn;
      nextColumn = column + 1;
      if (column > 64) continue;
      const type = attr(attrs, 't') ?? 'n';
      const formula = /<(?:\w+:)?f\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?f>)/.exec(body);
      const v = /<(?:\w+:)?v(?:\s[^>]*)?>([\s\S]*?)<\/(?:\w+:)?v>/.exec(body)?.[1];
      let text: string;
      if (formula) text = `=${unescapeXml(formula[2] ?? '')}`;
      else if (type === 's') {
        const index = Number(v);
        if (!Number.isInteger(index) || index < 0 || index >= shared.length) throw badRequest(DAMAGED);
        text = shared[index]!;
      } else if (type === 'inlineStr') text = textOf(body);
      else if (type === 'str' || type === 'e') text = unescapeXml(v ?? '');
      else if (type === 'b') text = v === '1' ? 'VERDADERO' : 'FALSO';
      else text = numberText(unescapeXml(v ?? ''));
      cells[column - 1] = text.replace(/[\t\r\n]+/g, ' ');
    }
    if (cells.some((c) => c !== undefined && c.trim() !== '')) {
      rows.set(
        rowNumber,
        Array.from(cells, (c) => c ?? ''),
      );
      maxRow = Math.max(maxRow, rowNumber);
    }
  }
  const lines: string[] = [];
  for (let i = 1; i <= maxRow; i += 1) lines.push(rows.get(i)?.join('\t') ?? '');
  const notes = [
    `Se leyó la hoja «${sheetName || 'Hoja1'}» del libro de Excel${sheets.length > 1 ? ` (la primera de ${sheets.length}; las demás no se leen)` : ''}.`,
  ];
  return { text: lines.join('\n'), notes };
}
