import { zipSync } from './zip.ts';

/**
 * A one-sheet Excel workbook (.xlsx, Office Open XML SpreadsheetML) written by hand (decision 066): the five parts
 * Excel, LibreOffice and Google Sheets need — content types, package and workbook relationships, the workbook, the
 * sheet — plus a style sheet with a bold header and the money format, in an archive of http/zip.ts. Strings are
 * inline (no shared-strings table to build); money is a number of pesos, so the sheet sums it. Server-side only.
 */

/** A cell: text, a plain number, or an amount of pesos written as a decimal ('1234.50'), shown as #,##0.00. */
export type XlsxCell = string | number | { money: string } | null;

/** Characters XML 1.0 does not allow (one in a name would break the whole file): tab, LF and CR are allowed. */
const notXml = (code: number) => code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d;

const esc = (s: string) =>
  [...s]
    .filter((ch) => !notXml(ch.charCodeAt(0)))
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

export const columnName = (index: number) => {
  let n = index + 1;
  let s = '';
  while (n > 0) {
    s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
};

/** Style ids of styles.xml below: 0 plain, 1 bold header, 2 money (#,##0.00). */
const HEADER = 1;
const MONEY = 2;

function cellXml(cell: XlsxCell, ref: string, header: boolean): string {
  if (cell === null || cell === '') return '';
  const style = header ? ` s="${HEADER}"` : '';
  if (typeof cell === 'number') return `<c r="${ref}"${style}><v>${cell}</v></c>`;
  if (typeof cell === 'object') {
    if (!/^-?\d+(\.\d+)?$/.test(cell.money)) throw new Error(`importe inválido para XLSX: ${cell.money}`);
    return `<c r="${ref}" s="${MONEY}"><v>${cell.money}</v></c>`;
  }
  return `<c r="${ref}" t="inlineStr"${style}><is><t xml:space="preserve">${esc(cell)}</t></is></c>`;
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** The workbook: `header` in bold and frozen, then `rows`; `widths` in characters per column. */
export function xlsxWorkbook(sheet: {
  name: string;
  header: readonly string[];
  rows: readonly (readonly XlsxCell[])[];
  widths?: readonly number[];
}): Buffer {
  const all = [sheet.header as readonly XlsxCell[], ...sheet.rows];
  const body = all
    .map((row, r) => {
      const cells = row.map((cell, c) => cellXml(cell, `${columnName(c)}${r + 1}`, r === 0)).join('');
      return `<row r="${r + 1}">${cells}</row>`;
    })
    .join('');
  const cols = sheet.widths
    ? `<cols>${sheet.widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join('')}</cols>`
    : '';
  const last = `${columnName(Math.max(0, sheet.header.length - 1))}${all.length}`;
  const worksheet = `${XML}<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><dimension ref="A1:${last}"/><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>${cols}<sheetData>${body}</sheetData></worksheet>`;
  const styles = `${XML}<styleSheet xmlns="${MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="#,##0.00"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs></styleSheet>`;
  return zipSync([
    {
      name: '[Content_Types].xml',
      data: `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
    },
    {
      name: '_rels/.rels',
      data: `${XML}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: 'xl/workbook.xml',
      data: `${XML}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="${esc(sheet.name.slice(0, 31))}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `${XML}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
    },
    { name: 'xl/worksheets/sheet1.xml', data: worksheet },
    { name: 'xl/styles.xml', data: styles },
  ]);
}
