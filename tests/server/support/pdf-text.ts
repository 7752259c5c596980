import { inflateSync } from 'node:zlib';

/** WinAnsi's 0x80–0x9F, where it differs from Latin-1 (the standard fonts' encoding: PDF 32000, Annex D). */
const WIN_ANSI: Record<number, string> = {
  128: '€',
  130: '‚',
  131: 'ƒ',
  132: '„',
  133: '…',
  134: '†',
  135: '‡',
  136: 'ˆ',
  137: '‰',
  138: 'Š',
  139: '‹',
  140: 'Œ',
  142: 'Ž',
  145: '‘',
  146: '’',
  147: '“',
  148: '”',
  149: '•',
  150: '–',
  151: '—',
  152: '˜',
  153: '™',
  154: 'š',
  155: '›',
  156: 'œ',
  158: 'ž',
  159: 'Ÿ',
};
const winAnsi = (bytes: Buffer) => Array.from(bytes, (b) => WIN_ANSI[b] ?? String.fromCharCode(b)).join('');

/** One string a PDF of pdf-lib draws: where (the Tm before it), in which font and size. */
export type PdfTextItem = { text: string; x: number; y: number; size: number; font: string; stream: number };

/**
 * The strings a PDF of pdf-lib draws, in drawing order: its content streams inflated, the hex strings of Tj decoded
 * (WinAnsi), each with the position of the text matrix and the font set before it (pdf-lib writes
 * `/Font size Tf … 1 0 0 1 x y Tm <hex> Tj` for every drawText). Positions let a test check that texts do not
 * overprint each other; `stream` numbers the content streams (pdf-lib writes one a page).
 */
export function pdfTextItems(pdf: Uint8Array): PdfTextItem[] {
  const bytes = Buffer.from(pdf);
  const out: PdfTextItem[] = [];
  let at = 0;
  let stream = 0;
  for (;;) {
    const start = bytes.indexOf('stream', at);
    if (start < 0) break;
    const dataStart = start + (bytes[start + 6] === 0x0d ? 8 : 7);
    const end = bytes.indexOf('endstream', dataStart);
    let content: string | null = null;
    try {
      content = inflateSync(bytes.subarray(dataStart, end)).toString('latin1');
    } catch {
      // not a Flate stream (images, fonts)
    }
    if (content !== null) {
      stream += 1;
      let font = '';
      let size = 0;
      let x = 0;
      let y = 0;
      const ops = /\/(\S+) ([\d.]+) Tf|1 0 0 1 ([-\d.]+) ([-\d.]+) Tm|<([0-9A-Fa-f]*)>\s*Tj/g;
      for (const m of content.matchAll(ops)) {
        if (m[1] !== undefined) {
          font = m[1];
          size = Number(m[2]);
        } else if (m[3] !== undefined) {
          x = Number(m[3]);
          y = Number(m[4]);
        } else {
          out.push({ text: winAnsi(Buffer.from(m[5] ?? '', 'hex')), x, y, size, font, stream });
        }
      }
    }
    at = end + 9;
  }
  return out;
}

/** The text a PDF of pdf-lib draws, one drawn string a line. */
export function pdfText(pdf: Uint8Array): string {
  return pdfTextItems(pdf)
    .map((item) => item.text)
    .join('\n');
}
