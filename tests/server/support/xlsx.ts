import { type ZipFile, zipSync } from '../../../src/server/http/zip.ts';

/**
 * A small writer of real .xlsx files for the quick order's tests: a ZIP archive (local headers, central
 * directory, end record; deflate or stored) holding the parts Excel itself writes for a workbook —
 * [Content_Types].xml, the package and workbook relationships, workbook.xml, one worksheet per sheet and the
 * shared strings. Cells: a shared string, an inline string, a number, a formula (with its cached value) or a
 * boolean, as Excel and LibreOffice write them.
 */

export type Cell =
  | { s: string }
  | { inline: string }
  | { n: number | string }
  | { f: string; v?: string; t?: 'str' }
  | { b: boolean }
  | null;

export type ZipEntry = ZipFile;

/** The archive of the given parts (the shop's own writer, src/server/http/zip.ts). */
export const zip = (entries: readonly ZipEntry[]): Buffer => zipSync(entries);

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const column = (i: number) => {
  let n = i + 1;
  let s = '';
  while (n > 0) {
    s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
};

/** A workbook whose sheets hold the given rows (row 1 first; null rows are left out, as Excel does for blank rows). */
export function xlsx(sheets: readonly { name: string; rows: readonly (readonly Cell[] | null)[] }[]): Buffer {
  const shared: string[] = [];
  const sharedIndex = (s: string) => {
    const at = shared.indexOf(s);
    if (at >= 0) return at;
    shared.push(s);
    return shared.length - 1;
  };
  const sheetXml = sheets.map(({ rows }) => {
    const body = rows
      .map((row, r) => {
        if (!row) return '';
        const cells = row
          .map((cell, c) => {
            if (!cell) return '';
            const ref = `${column(c)}${r + 1}`;
            if ('s' in cell) return `<c r="${ref}" t="s"><v>${sharedIndex(cell.s)}</v></c>`;
            if ('inline' in cell)
              return `<c r="${ref}" t="inlineStr"><is><t>${esc(cell.inline)}</t></is></c>`;
            if ('n' in cell) return `<c r="${ref}"><v>${cell.n}</v></c>`;
            if ('b' in cell) return `<c r="${ref}" t="b"><v>${cell.b ? 1 : 0}</v></c>`;
            return `<c r="${ref}"${cell.t ? ` t="${cell.t}"` : ''}><f>${esc(cell.f)}</f><v>${esc(cell.v ?? '0')}</v></c>`;
          })
          .join('');
        return `<row r="${r + 1}">${cells}</row>`;
      })
      .join('');
    return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><dimension ref="A1"/><sheetData>${body}</sheetData></worksheet>`;
  });
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  return zip([
    {
      name: '[Content_Types].xml',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${sheets.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('')}<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
    },
    {
      name: '_rels/.rels',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: 'xl/workbook.xml',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${rel}"><sheets>${sheets
        // Excel numbers relationships freely: the first sheet is not always rId1 nor sheet1.xml.
        .map((s, i) => `<sheet name="${esc(s.name)}" sheetId="${i + 1}" r:id="rId${i + 3}"/>`)
        .join('')}</sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/sharedStrings" Target="sharedStrings.xml"/>${sheets
        .map(
          (_, i) =>
            `<Relationship Id="rId${i + 3}" Type="${rel}/worksheet" Target="worksheets/sheet${sheets.length - i}.xml"/>`,
        )
        .join('')}</Relationships>`,
    },
    // Sheets stored in reverse file order, so reading 'sheet1.xml' instead of following the relationship fails.
    ...sheetXml.map((data, i) => ({ name: `xl/worksheets/sheet${sheets.length - i}.xml`, data })),
    {
      name: 'xl/sharedStrings.xml',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${shared.length}" uniqueCount="${shared.length}">${shared.map((s) => `<si><t xml:space="preserve">${esc(s)}</t></si>`).join('')}</sst>`,
    },
  ]);
}
