// npm run sat:postal-codes -- FUENTE [--source "catCFDI.xls 2026-11-03"] [--out RUTA]
// Rebuilds src/server/invoices/catalogs/c_CodigoPostal.txt (SAT's c_CodigoPostal, compact form) from one of:
//   - a CSV/TSV export of the sheet c_CodigoPostal of SAT's catCFDI.xls (first column = the code);
//   - phpcfdi/resources-sat-catalogs' database/data/cfdi_40_codigos_postales.sql (INSERT … VALUES('01000', …)).
// Prints how many codes it wrote and how many were added/removed against the current file.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  compactPostalCodes,
  DEFAULT_POSTAL_CODES_FILE,
  parsePostalCatalogue,
} from '../src/server/invoices/postal-codes.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { source: { type: 'string' }, out: { type: 'string' } },
});
const input = positionals[0];
if (!input || positionals.length > 1) {
  console.error(
    'Uso: npm run sat:postal-codes -- FUENTE.csv|FUENTE.sql [--source "descripción"] [--out RUTA]',
  );
  process.exit(1);
}
const out = values.out ?? DEFAULT_POSTAL_CODES_FILE;
const text = readFileSync(input, 'utf8');

/** The codes of the source: SQL rows "('01000', …" or the first field of each CSV/TSV line. */
function codesOf(source: string): string[] {
  const sql = [...source.matchAll(/\(\s*'(\d{5})'/g)].map((m) => m[1] ?? '');
  if (sql.length > 0) return sql;
  return source
    .split(/\r?\n/)
    .map((line) => /^\s*"?(\d{5})"?\s*(?:[,;\t]|$)/.exec(line)?.[1])
    .filter((c): c is string => c !== undefined);
}

const codes = codesOf(text);
if (codes.length < 1000) {
  console.error(
    `La fuente tiene ${codes.length} códigos postales; se esperaban decenas de miles. No se escribió nada.`,
  );
  process.exit(1);
}
let previous = 0;
try {
  previous = parsePostalCatalogue(readFileSync(out, 'utf8')).size;
} catch {
  previous = 0;
}
const header = [
  'c_CodigoPostal del SAT (catCFDI, CFDI 4.0): códigos postales válidos para DomicilioFiscalReceptor.',
  `fuente: ${values.source ?? input}`,
  `generado: ${new Date().toISOString().slice(0, 10)} por scripts/update-sat-postal-codes.ts; no editar a mano.`,
];
const compact = compactPostalCodes(codes, header);
writeFileSync(out, compact);
const written = parsePostalCatalogue(compact).size;
console.log(`${written} códigos postales escritos en ${out} (antes: ${previous}; ${compact.length} bytes).`);
