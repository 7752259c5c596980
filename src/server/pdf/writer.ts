import { type PDFDocument, type PDFFont, type PDFPage, rgb } from 'pdf-lib';

/**
 * The shop's printed documents (the CFDI's representation, the quotation): pdf-lib with the standard fonts,
 * letter size, the shop's colours, and a writer that pages, wraps and keeps text inside WinAnsi.
 */

export const BRAND = rgb(0x0b / 255, 0x4a / 255, 0x6f / 255);
export const BRAND_LIGHT = rgb(0xee / 255, 0xf7 / 255, 0xfc / 255);
export const INK = rgb(0.09, 0.11, 0.16);
export const MUTED = rgb(0.39, 0.45, 0.55);
export const LINE = rgb(0.82, 0.86, 0.9);
export const RED = rgb(0.75, 0.1, 0.12);

export const PAGE = { width: 612, height: 792, margin: 40 };

export class Writer {
  page!: PDFPage;
  y = 0;
  pages: PDFPage[] = [];
  private readonly charset: Set<number>;

  constructor(
    readonly doc: PDFDocument,
    readonly font: PDFFont,
    readonly bold: PDFFont,
    readonly mono: PDFFont,
  ) {
    this.charset = new Set(font.getCharacterSet());
    this.newPage();
  }

  newPage() {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.pages.push(this.page);
    this.y = PAGE.height - PAGE.margin;
  }

  /** Standard fonts speak WinAnsi; anything else (Ω, ≥, emoji) is replaced rather than crashing. */
  safe(text: string): string {
    return Array.from(text.normalize('NFC'))
      .map((ch) => (this.charset.has(ch.codePointAt(0) ?? 0) ? ch : '?'))
      .join('');
  }

  ensure(height: number) {
    if (this.y - height < PAGE.margin + 24) this.newPage();
  }

  text(text: string, x: number, y: number, size: number, font = this.font, color = INK) {
    this.page.drawText(this.safe(text), { x, y, size, font, color });
  }

  width(text: string, size: number, font = this.font) {
    return font.widthOfTextAtSize(this.safe(text), size);
  }

  /** Greedy word wrap; long unbroken strings (seals) are cut by characters. */
  wrap(text: string, maxWidth: number, size: number, font = this.font): string[] {
    const lines: string[] = [];
    let line = '';
    const push = (word: string) => {
      const candidate = line ? `${line} ${word}` : word;
      if (this.width(candidate, size, font) <= maxWidth) {
        line = candidate;
        return;
      }
      if (line) lines.push(line);
      line = '';
      let rest = word;
      while (this.width(rest, size, font) > maxWidth) {
        let cut = rest.length;
        while (cut > 1 && this.width(rest.slice(0, cut), size, font) > maxWidth) cut--;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      line = rest;
    };
    for (const word of this.safe(text).split(/\s+/).filter(Boolean)) push(word);
    if (line) lines.push(line);
    return lines.length > 0 ? lines : [''];
  }
}
