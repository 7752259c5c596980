import { crc32, deflateRawSync } from 'node:zlib';

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

export type ZipEntry = { name: string; data: Buffer | string; store?: boolean };

export function zip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const raw = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data, 'utf8');
    const body = e.store ? raw : deflateRawSync(raw);
    const name = Buffer.from(e.name, 'utf8');
    const crc = crc32(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(e.store ? 0 : 8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(e.store ? 0 : 8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(raw.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

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
