import { createHash } from 'node:crypto';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { escapeMarkup } from '../../../shared/escape.ts';
import type { Shape } from './data.ts';

const shapes: Record<Shape, (c: string) => string> = {
  flask: (c) =>
    `<path d="M260 120h120v40h-20v150l130 190c20 30 0 60-35 60H185c-35 0-55-30-35-60l130-190V160h-20z" fill="${c}" fill-opacity=".15" stroke="${c}" stroke-width="14" stroke-linejoin="round"/><path d="M205 470h230l-45-70H250z" fill="${c}" fill-opacity=".55"/>`,
  beaker: (c) =>
    `<path d="M190 140h280l-20 20v330c0 20-15 30-30 30H240c-15 0-30-10-30-30V160z" fill="${c}" fill-opacity=".12" stroke="${c}" stroke-width="14" stroke-linejoin="round"/><path d="M212 330h216v160H212z" fill="${c}" fill-opacity=".5"/><path d="M240 220h60M240 270h40M240 320h60" stroke="${c}" stroke-width="8"/>`,
  bottle: (c) =>
    `<rect x="270" y="110" width="100" height="50" rx="8" fill="${c}"/><path d="M250 170h140l30 60v260c0 20-10 30-30 30H250c-20 0-30-10-30-30V230z" fill="${c}" fill-opacity=".15" stroke="${c}" stroke-width="14" stroke-linejoin="round"/><rect x="245" y="290" width="150" height="110" rx="6" fill="#fff" stroke="${c}" stroke-width="6"/><path d="M270 325h100M270 360h70" stroke="${c}" stroke-width="10" stroke-linecap="round"/>`,
  device: (c) =>
    `<rect x="140" y="200" width="360" height="250" rx="26" fill="${c}" fill-opacity=".15" stroke="${c}" stroke-width="14"/><rect x="180" y="240" width="170" height="90" rx="10" fill="${c}" fill-opacity=".7"/><circle cx="420" cy="285" r="35" fill="none" stroke="${c}" stroke-width="12"/><path d="M180 380h280" stroke="${c}" stroke-width="12" stroke-linecap="round"/><path d="M170 450v30M470 450v30" stroke="${c}" stroke-width="16" stroke-linecap="round"/>`,
  balance: (c) =>
    `<rect x="150" y="380" width="340" height="100" rx="18" fill="${c}" fill-opacity=".2" stroke="${c}" stroke-width="14"/><rect x="210" y="405" width="110" height="45" rx="6" fill="${c}" fill-opacity=".7"/><path d="M320 380V300" stroke="${c}" stroke-width="14"/><ellipse cx="320" cy="290" rx="120" ry="22" fill="${c}" fill-opacity=".35" stroke="${c}" stroke-width="12"/><path d="M190 170h260v110H190z" fill="none" stroke="${c}" stroke-width="8" stroke-dasharray="18 12"/>`,
  glove: (c) =>
    `<path d="M230 500V300c0-20-40-60-40-90 0-20 25-25 40-5l25 35V150c0-25 35-25 35 0v110-140c0-25 40-25 40 0v140-120c0-25 40-25 40 0v130-90c0-25 35-25 35 0v190c0 60-20 80-40 100v35z" fill="${c}" fill-opacity=".25" stroke="${c}" stroke-width="12" stroke-linejoin="round"/>`,
  dish: (c) =>
    `<ellipse cx="320" cy="360" rx="200" ry="80" fill="${c}" fill-opacity=".15" stroke="${c}" stroke-width="14"/><ellipse cx="320" cy="320" rx="200" ry="80" fill="#fff" stroke="${c}" stroke-width="14"/><circle cx="270" cy="315" r="16" fill="${c}" fill-opacity=".6"/><circle cx="360" cy="300" r="22" fill="${c}" fill-opacity=".45"/><circle cx="330" cy="345" r="12" fill="${c}" fill-opacity=".7"/>`,
  box: (c) =>
    `<path d="M160 230l160-80 160 80v200l-160 80-160-80z" fill="${c}" fill-opacity=".15" stroke="${c}" stroke-width="14" stroke-linejoin="round"/><path d="M160 230l160 80 160-80M320 310v200" stroke="${c}" stroke-width="12" fill="none"/>`,
};

export const contentHash = (data: Buffer | Uint8Array) =>
  createHash('sha256').update(data).digest('hex').slice(0, 16);

/** A product picture: the group's silhouette in the brand's colour on a soft background (no text, no fonts). */
export async function renderProductImage(shape: Shape, color: string): Promise<Buffer> {
  const bg = '#f4f7fb';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="640" viewBox="0 0 640 640"><rect width="640" height="640" fill="${bg}"/><circle cx="320" cy="330" r="250" fill="#fff"/>${shapes[shape](color)}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 82 }).toBuffer();
}

/** A brand logo as SVG: a mark and the name, rendered by the browser with its own fonts. */
export function renderBrandLogo(name: string, color: string): Buffer {
  const escaped = escapeMarkup(name);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="120" viewBox="0 0 320 120" role="img" aria-label="${escaped}"><rect x="8" y="28" width="64" height="64" rx="16" fill="${color}"/><path d="M28 76l12-32h4l12 32" stroke="#fff" stroke-width="6" fill="none" stroke-linejoin="round"/><text x="88" y="74" font-family="Segoe UI, Helvetica, Arial, sans-serif" font-size="34" font-weight="700" fill="${color}">${escaped}</text></svg>`;
  return Buffer.from(svg);
}

/** A one-page technical sheet in PDF (standard fonts support Spanish accents through WinAnsi). */
export async function renderDatasheet(p: {
  code: string;
  name: string;
  brand: string;
  type: string;
  shortDesc: string;
  specs: [string, string][];
}): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Ficha técnica ${p.code}`);
  doc.setCreator('Ciencia Occidente');
  const page = doc.addPage([595, 842]);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const clean = (s: string) =>
    s.replace(/[^\x20-\xff]/g, (ch) => ({ µ: 'u', '−': '-', '≥': '>=', '±': '+/-', '×': 'x' })[ch] ?? '');
  page.drawRectangle({ x: 0, y: 782, width: 595, height: 60, color: rgb(0.06, 0.33, 0.55) });
  page.drawText('FICHA TÉCNICA', { x: 40, y: 805, size: 20, font: bold, color: rgb(1, 1, 1) });
  page.drawText(clean(p.brand), { x: 420, y: 805, size: 16, font: bold, color: rgb(1, 1, 1) });
  page.drawText(clean(p.name).slice(0, 70), { x: 40, y: 740, size: 14, font: bold });
  page.drawText(`Código: ${p.code}    Tipo: ${clean(p.type)}`, { x: 40, y: 718, size: 11, font: regular });
  page.drawText(clean(p.shortDesc).slice(0, 95), { x: 40, y: 690, size: 11, font: regular });
  let y = 650;
  page.drawText('Especificaciones', { x: 40, y, size: 13, font: bold });
  for (const [k, v] of p.specs) {
    y -= 24;
    page.drawLine({
      start: { x: 40, y: y - 6 },
      end: { x: 555, y: y - 6 },
      thickness: 0.5,
      color: rgb(0.8, 0.8, 0.8),
    });
    page.drawText(clean(k), { x: 40, y, size: 11, font: bold });
    page.drawText(clean(v), { x: 240, y, size: 11, font: regular });
  }
  page.drawText('Documento informativo. Consulte el certificado de análisis del lote.', {
    x: 40,
    y: 60,
    size: 9,
    font: regular,
    color: rgb(0.4, 0.4, 0.4),
  });
  return Buffer.from(await doc.save());
}
