/**
 * Reading the catalogue CSV: encoding check and an RFC 4180 parser that keeps physical line numbers,
 * so every rejected row can be named by the line a person sees in their editor.
 */

/** A problem with the whole file: nothing is imported. */
export class ImportFileError extends Error {}

/** 1-based line of a byte offset. */
function lineAt(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < bytes.length; i += 1) if (bytes[i] === 0x0a) line += 1;
  return line;
}

/** Offset of the first byte that breaks UTF-8, or -1. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    let cp = b & (need === 1 ? 0x1f : need === 2 ? 0x0f : 0x07);
    for (let k = 1; k <= need; k += 1) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/**
 * The file's text, or an ImportFileError saying why it is not UTF-8 (a UTF-16 file from Excel's
 * "Unicode text", or Latin-1/Windows-1252 from "CSV (delimitado por comas)"). A UTF-8 BOM is dropped.
 */
export function decodeCsv(bytes: Uint8Array): string {
  if (bytes.length === 0) throw new ImportFileError('El archivo está vacío');
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new ImportFileError(
      'El archivo está en UTF-16. Guárdelo como «CSV UTF-8 (delimitado por comas)» y vuelva a intentarlo.',
    );
  }
  const bad = firstInvalidUtf8(bytes);
  if (bad !== -1) {
    const byte = bytes[bad]!;
    const latin1 =
      byte >= 0xa0
        ? ` (el byte 0x${byte.toString(16).toUpperCase()} es «${String.fromCharCode(byte)}» en Latin-1)`
        : '';
    throw new ImportFileError(
      `El archivo no está en UTF-8: la línea ${lineAt(bytes, bad)} tiene caracteres en otra codificación${latin1}, ` +
        'probablemente Latin-1 o Windows-1252. Guárdelo como «CSV UTF-8 (delimitado por comas)» y vuelva a intentarlo.',
    );
  }
  if (bytes.indexOf(0) !== -1) throw new ImportFileError('El archivo no es texto (contiene bytes nulos)');
  const text = new TextDecoder('utf-8').decode(bytes);
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

export type CsvRecord = { line: number; fields: string[]; error?: string };

/** ',' or ';' (Excel in Spanish saves with ';'), whichever the header line uses more outside quotes. */
export function detectDelimiter(text: string): ',' | ';' {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && ch === ',') commas += 1;
    else if (!quoted && ch === ';') semicolons += 1;
  }
  return semicolons > commas ? ';' : ',';
}

/**
 * RFC 4180 records (quoted fields may hold the delimiter, doubled quotes and line breaks). A badly
 * quoted field spoils only its record, which comes back with `error`; a quote left open until the end
 * of the file spoils the whole file.
 */
export function parseCsv(text: string, delimiter: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let line = 1;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const start = line;
    const fields: string[] = [];
    let error: string | undefined;
    let field = '';
    let atFieldStart = true;
    let quoted = false;
    let endOfRecord = false;
    while (i < n && !endOfRecord) {
      const ch = text[i]!;
      if (quoted) {
        if (ch === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          quoted = false;
          i += 1;
          const next = text[i];
          if (next !== undefined && next !== delimiter && next !== '\n' && next !== '\r' && !error) {
            error = `Texto después de unas comillas de cierre en la columna ${fields.length + 1}`;
          }
          continue;
        }
        if (ch === '\n') line += 1;
        field += ch;
        i += 1;
        continue;
      }
      if (ch === '"' && atFieldStart) {
        quoted = true;
        atFieldStart = false;
        i += 1;
        continue;
      }
      if (ch === '"' && !error) error = `Comillas mal colocadas en la columna ${fields.length + 1}`;
      if (ch === delimiter) {
        fields.push(field);
        field = '';
        atFieldStart = true;
        i += 1;
        continue;
      }
      if (ch === '\r' || ch === '\n') {
        i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
        line += 1;
        endOfRecord = true;
        continue;
      }
      field += ch;
      atFieldStart = false;
      i += 1;
    }
    if (quoted) {
      throw new ImportFileError(
        `CSV mal formado: las comillas que se abren en la línea ${start} no se cierran antes del final del archivo`,
      );
    }
    fields.push(field);
    const blank = fields.length === 1 && fields[0]!.trim() === '';
    if (!blank) records.push(error ? { line: start, fields, error } : { line: start, fields });
  }
  return records;
}
