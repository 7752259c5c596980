import { inflateSync } from 'node:zlib';

/** The text a PDF of pdf-lib draws: its content streams inflated, the hex strings of Tj decoded (WinAnsi). */
export function pdfText(pdf: Uint8Array): string {
  const bytes = Buffer.from(pdf);
  const out: string[] = [];
  let at = 0;
  for (;;) {
    const start = bytes.indexOf('stream', at);
    if (start < 0) break;
    const dataStart = start + (bytes[start + 6] === 0x0d ? 8 : 7);
    const end = bytes.indexOf('endstream', dataStart);
    try {
      const content = inflateSync(bytes.subarray(dataStart, end)).toString('latin1');
      for (const m of content.matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g)) {
        out.push(Buffer.from(m[1] ?? '', 'hex').toString('latin1'));
      }
    } catch {
      // not a Flate stream (images, fonts)
    }
    at = end + 9;
  }
  return out.join('\n');
}
