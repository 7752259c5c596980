import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import QRCode from 'qrcode';
import { fromMexicoWallClock } from '../../shared/mexico-time.ts';
import { shop } from '../../shared/shop.ts';
import type { InvoiceSnapshot } from '../db/schema.ts';
import { BRAND, INK, LINE, MUTED, PAGE, Writer } from '../pdf/writer.ts';
import { qrTotal } from './pac/sat-status.ts';
import { tfdCadenaOriginal } from './pac/tfd.ts';
import { banners, header, parties } from './pdf-head.ts';

/** The printed representation of a CFDI: what the shopper downloads and receives by mail. */
export type InvoicePdfInput = {
  orderNumber: number;
  uuid: string;
  status: 'issued' | 'cancelled';
  test: boolean;
  cancelledAt: Date | null;
  /** The SAT motivo of a cancelled CFDI (01–04), named on its banner. */
  cancelMotivo?: string | null;
  snapshot: InvoiceSnapshot;
};

export { qrTotal };

/** SAT's verification URL (Anexo 20): UUID, RFCs, total and the last 8 characters of the Sello. */
export function verificationUrl(
  s: { emisor: { rfc: string }; receptor: { rfc: string }; total: string; sello: string },
  uuid: string,
) {
  const q = (v: string) => encodeURIComponent(v);
  return (
    'https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx' +
    `?id=${q(uuid)}&re=${q(s.emisor.rfc)}&rr=${q(s.receptor.rfc)}&tt=${qrTotal(s.total)}&fe=${q(s.sello.slice(-8))}`
  );
}

/**
 * A CFDI decimal as pesos to the cents, rounded half up (not truncated): "1234.5" → "$1,234.50",
 * "86.206897" → "$86.21", "0.995" → "$1.00". Exact on the decimal digits (no floating point).
 */
export function pesos(decimal: string): string {
  const negative = decimal.trim().startsWith('-');
  const [whole = '0', frac = ''] = decimal.trim().replace(/^-/, '').split('.');
  const digits = `${frac}000`.slice(0, 3);
  let cents = BigInt(whole || '0') * 100n + BigInt(digits.slice(0, 2));
  // Half up on the third decimal; anything after it only matters when the third is exactly 5 (ties go up).
  if (Number(digits[2]) >= 5) cents += 1n;
  const text = (cents / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}$${text}.${(cents % 100n).toString().padStart(2, '0')}`;
}

/**
 * ValorUnitario as the XML states it (up to six decimals, never fewer than two), with thousands separators:
 * "163.783333" → "$163.783333", "1069.400000" → "$1,069.40". Rounded to centavos, Cantidad × ValorUnitario would no
 * longer give the printed Importe, and the reader could not check the line.
 */
export function unitValueText(decimal: string): string {
  const negative = decimal.trim().startsWith('-');
  const [whole = '0', frac = ''] = decimal.trim().replace(/^-/, '').split('.');
  const shown = frac.replace(/0+$/, '').padEnd(2, '0');
  const grouped = BigInt(whole || '0')
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}$${grouped}.${shown}`;
}

type Column = { title: string; width: number; align: 'left' | 'right' };
const COLUMNS: Column[] = [
  { title: 'Clave SAT / unidad', width: 74, align: 'left' },
  { title: 'Código', width: 62, align: 'left' },
  { title: 'Descripción', width: 160, align: 'left' },
  { title: 'Cant.', width: 34, align: 'right' },
  { title: 'Valor unitario', width: 78, align: 'right' },
  { title: 'Importe', width: 62, align: 'right' },
  { title: 'IVA 16 %', width: 62, align: 'right' },
];

function tableHeader(w: Writer) {
  const { margin, width } = PAGE;
  w.page.drawRectangle({ x: margin, y: w.y - 16, width: width - 2 * margin, height: 16, color: BRAND });
  let x = margin + 4;
  for (const c of COLUMNS) {
    const tx = c.align === 'right' ? x + c.width - 8 - w.width(c.title, 7, w.bold) : x;
    w.text(c.title, tx, w.y - 11, 7, w.bold, rgb(1, 1, 1));
    x += c.width;
  }
  w.y -= 20;
}

function concepts(w: Writer, input: InvoicePdfInput) {
  const { margin, width } = PAGE;
  tableHeader(w);
  for (const c of input.snapshot.conceptos) {
    const cells = [
      [`${c.claveProdServ}`, `${c.claveUnidad}`],
      w.wrap(c.noIdentificacion ?? '—', COLUMNS[1]!.width - 8, 7.5),
      w.wrap(c.descripcion, COLUMNS[2]!.width - 8, 7.5),
      [c.cantidad],
      [unitValueText(c.valorUnitario)],
      c.descuento && c.descuento !== '0.00'
        ? [pesos(c.importe), `-${pesos(c.descuento)}`]
        : [pesos(c.importe)],
      [pesos(c.iva)],
    ];
    const height = Math.max(...cells.map((lines) => lines.length)) * 9.5 + 6;
    if (w.y - height < PAGE.margin + 24) {
      w.newPage();
      tableHeader(w);
    }
    let x = margin + 4;
    cells.forEach((lines, i) => {
      const col = COLUMNS[i]!;
      lines.forEach((line, j) => {
        const tx = col.align === 'right' ? x + col.width - 8 - w.width(line, 7.5) : x;
        w.text(line, tx, w.y - 8 - j * 9.5, 7.5, w.font, (i === 0 || i === 5) && j === 1 ? MUTED : INK);
      });
      x += col.width;
    });
    w.y -= height;
    w.page.drawLine({
      start: { x: margin, y: w.y + 2 },
      end: { x: width - margin, y: w.y + 2 },
      thickness: 0.5,
      color: LINE,
    });
  }
}

function totals(w: Writer, input: InvoicePdfInput) {
  const s = input.snapshot;
  const { margin, width } = PAGE;
  w.ensure(64);
  const right = width - margin;
  const rows: [string, string, boolean][] = [
    ['Subtotal', pesos(s.subTotal), false],
    // An invoice issued after part of the sale was given back states it as a Descuento (decision 056).
    ...(s.descuento
      ? [
          ['Descuento (reembolsado antes de facturar)', `-${pesos(s.descuento)}`, false] as [
            string,
            string,
            boolean,
          ],
        ]
      : []),
    ['IVA trasladado 16 % (002, tasa 0.160000)', pesos(s.iva), false],
    ['Total', `${pesos(s.total)} MXN`, true],
  ];
  w.y -= 6;
  for (const [label, value, strong] of rows) {
    const font = strong ? w.bold : w.font;
    const size = strong ? 10.5 : 8.5;
    w.text(label, right - 250, w.y - 10, size, font, strong ? BRAND : INK);
    w.text(value, right - 4 - w.width(value, size, font), w.y - 10, size, font, strong ? BRAND : INK);
    w.y -= strong ? 18 : 14;
  }
  w.page.drawLine({
    start: { x: right - 254, y: w.y + 20 },
    end: { x: right, y: w.y + 20 },
    thickness: 0.6,
    color: LINE,
  });
  w.y -= 8;
}

export function seals(w: Writer, input: InvoicePdfInput) {
  const s = input.snapshot;
  const { margin, width } = PAGE;
  const qrSize = 112;
  const textX = margin + qrSize + 14;
  const textW = width - margin - textX;
  const blocks: [string, string][] = [
    ['Sello digital del CFDI', s.sello],
    ['Sello digital del SAT', s.selloSat],
    [
      'Cadena original del complemento de certificación digital del SAT',
      tfdCadenaOriginal({
        uuid: input.uuid,
        fechaTimbrado: s.fechaTimbrado,
        rfcProvCertif: s.rfcProvCertif,
        leyenda: s.leyenda ?? undefined,
        selloCfd: s.sello,
        noCertificadoSat: s.noCertificadoSat,
      }),
    ],
  ];
  const wrapped = blocks.map(([label, value]) => [label, w.wrap(value, textW, 6, w.mono)] as const);
  const needed = Math.max(
    qrSize + 30,
    wrapped.reduce((h, [, lines]) => h + 14 + lines.length * 7.4, 24),
  );
  w.ensure(needed);

  const top = w.y;
  const qr = QRCode.create(verificationUrl(s, input.uuid), { errorCorrectionLevel: 'M' });
  const cells = qr.modules.size;
  const cell = qrSize / (cells + 2);
  w.page.drawRectangle({ x: margin, y: top - qrSize, width: qrSize, height: qrSize, color: rgb(1, 1, 1) });
  for (let r = 0; r < cells; r++) {
    for (let c = 0; c < cells; c++) {
      if (qr.modules.get(r, c)) {
        w.page.drawRectangle({
          x: margin + (c + 1) * cell,
          y: top - (r + 2) * cell,
          width: cell,
          height: cell,
          color: rgb(0, 0, 0),
        });
      }
    }
  }
  w.text('Verifique en el portal del SAT', margin, top - qrSize - 10, 6.5, w.font, MUTED);

  w.text(`No. de serie del CSD del emisor: ${s.noCertificado}`, textX, top - 6, 7, w.bold, MUTED);
  w.text(
    `No. de serie del certificado del SAT: ${s.noCertificadoSat}  ·  RFC del PAC: ${s.rfcProvCertif}`,
    textX,
    top - 16,
    7,
    w.bold,
    MUTED,
  );
  let y = top - 30;
  for (const [label, lines] of wrapped) {
    w.text(label, textX, y, 7, w.bold, INK);
    y -= 9;
    for (const line of lines) {
      w.text(line, textX, y, 6, w.mono, INK);
      y -= 7.4;
    }
    y -= 5;
  }
  w.y = Math.min(y, top - qrSize - 16);
}

export function footers(w: Writer) {
  const { margin, width } = PAGE;
  w.pages.forEach((page, i) => {
    const text = 'Este documento es una representación impresa de un CFDI 4.0.';
    page.drawText(text, { x: margin, y: 22, size: 7, font: w.font, color: MUTED });
    const label = `Página ${i + 1} de ${w.pages.length}`;
    page.drawText(label, {
      x: width - margin - w.font.widthOfTextAtSize(label, 7),
      y: 22,
      size: 7,
      font: w.font,
      color: MUTED,
    });
  });
}

export async function renderInvoicePdf(input: InvoicePdfInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const kind = input.snapshot.tipoDeComprobante === 'E' ? 'Nota de crédito' : 'Factura';
  doc.setTitle(`${kind} ${input.snapshot.serie ?? ''}${input.snapshot.folio ?? ''} · ${input.uuid}`);
  doc.setAuthor(shop.legalName);
  doc.setSubject(`CFDI 4.0 del pedido #${input.orderNumber}`);
  doc.setLanguage('es-MX');
  // Fixed dates keep the PDF of one invoice byte-for-byte stable.
  const stamped = fromMexicoWallClock(input.snapshot.fechaTimbrado);
  doc.setCreationDate(stamped);
  doc.setModificationDate(stamped);
  const w = new Writer(
    doc,
    await doc.embedFont(StandardFonts.Helvetica),
    await doc.embedFont(StandardFonts.HelveticaBold),
    await doc.embedFont(StandardFonts.Courier),
  );
  header(w, input);
  banners(w, input);
  parties(w, input);
  concepts(w, input);
  totals(w, input);
  seals(w, input);
  footers(w);
  return doc.save();
}
