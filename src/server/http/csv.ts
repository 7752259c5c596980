/**
 * CSV for the accountant's spreadsheets: the one definition of a cell (receivables, controlled sales, the CFDI
 * report). Quoted when it holds a quote, a comma, a semicolon (Excel in Spanish splits on it) or a line break; a text
 * a spreadsheet would run as a formula gets a leading apostrophe (numbers stay numbers).
 */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",;\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Lines of cells as a CSV file: UTF-8 with a BOM (Excel reads the accents), CRLF line ends. */
export const csvFile = (rows: readonly (readonly (string | number)[])[]): string =>
  `\uFEFF${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;
