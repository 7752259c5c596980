/**
 * SAT's c_CodigoPostal (catCFDI, CFDI 4.0): the postal codes a CFDI may carry as DomicilioFiscalReceptor.
 * Shipped in the repo in a compact text form (catalogs/c_CodigoPostal.txt), rebuilt from SAT's catalogue by
 * scripts/update-sat-postal-codes.ts:
 *
 *   # comment lines (source, date)
 *   01000-01020     a run of consecutive codes, both ends included
 *   01028           a single code
 *
 * Loaded once into a 100,000-bit table (12.5 kB). An empty catalogue checks nothing (see decision 015).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const DEFAULT_POSTAL_CODES_FILE = join(import.meta.dirname, 'catalogs', 'c_CodigoPostal.txt');

export type PostalCatalogue = {
  /** Number of codes in the catalogue; 0 = no catalogue, nothing is checked. */
  readonly size: number;
  /** The source line of the file ('# fuente: …'), for logs and the decision record. */
  readonly source: string | null;
  has(cp: string): boolean;
};

const CP = /^\d{5}$/;

export function parsePostalCatalogue(text: string): PostalCatalogue {
  const bits = new Uint8Array(100_000 / 8);
  let size = 0;
  let source: string | null = null;
  const set = (n: number) => {
    const byte = n >> 3;
    const mask = 1 << (n & 7);
    if (((bits[byte] ?? 0) & mask) === 0) {
      bits[byte] = (bits[byte] ?? 0) | mask;
      size++;
    }
  };
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      const found = /^#\s*fuente:\s*(.+)$/i.exec(line);
      if (found && source === null) source = found[1] ?? null;
      continue;
    }
    const [from = '', to = from] = line.split('-');
    if (!CP.test(from) || !CP.test(to) || to < from) {
      throw new Error(`c_CodigoPostal: línea ${index + 1} inválida: ${line}`);
    }
    for (let n = Number(from); n <= Number(to); n++) set(n);
  }
  return {
    size,
    source,
    has: (cp: string) => CP.test(cp) && ((bits[Number(cp) >> 3] ?? 0) & (1 << (Number(cp) & 7))) !== 0,
  };
}

/** The compact text of a set of codes (sorted, runs of consecutive codes joined), under the header lines. */
export function compactPostalCodes(codes: Iterable<string>, header: string[]): string {
  const sorted = [...new Set([...codes].filter((c) => CP.test(c)))].sort();
  const lines = header.map((h) => `# ${h}`);
  let start: string | undefined;
  let previous: string | undefined;
  const flush = () => {
    if (start === undefined || previous === undefined) return;
    lines.push(start === previous ? start : `${start}-${previous}`);
  };
  for (const code of sorted) {
    if (previous !== undefined && Number(code) === Number(previous) + 1) {
      previous = code;
      continue;
    }
    flush();
    start = code;
    previous = code;
  }
  flush();
  return `${lines.join('\n')}\n`;
}

const loaded = new Map<string, PostalCatalogue>();

/** The catalogue in `file` (cached per path); a missing file is an empty catalogue. */
export function loadPostalCatalogue(file = DEFAULT_POSTAL_CODES_FILE): PostalCatalogue {
  let catalogue = loaded.get(file);
  if (!catalogue) {
    catalogue = existsSync(file)
      ? parsePostalCatalogue(readFileSync(file, 'utf8'))
      : parsePostalCatalogue('');
    loaded.set(file, catalogue);
  }
  return catalogue;
}

export const postalCodeMessage = (cp: string) =>
  `El código postal ${cp} no está en el catálogo de códigos postales del SAT (c_CodigoPostal); escriba el de su Constancia de Situación Fiscal`;
