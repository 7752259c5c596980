import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import QRCode from 'qrcode';
import { fromMexicoWallClock } from '../../shared/mexico-time.ts';
import { findRegimen, findUsoCfdi } from '../../shared/sat-catalogs.ts';
import { CANCEL_MOTIVO_TEXT, type CancelMotivo } from '../../shared/sat-motivos.ts';
import { shop } from '../../shared/shop.ts';
import type { InvoiceSnapshot } from '../db/schema.ts';
import { BRAND, BRAND_LIGHT, INK, LINE, MUTED, PAGE, RED, Writer } from '../pdf/writer.ts';
import { FORMA_PAGO_TEXT } from './forma-pago.ts';
import { qrTotal } from './pac/sat-status.ts';
import { tfdCadenaOriginal } from './pac/tfd.ts';

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

const motivoText = (motivo: string) => {
  const text = CANCEL_MOTIVO_TEXT[motivo as CancelMotivo];
  return text ? `${motivo}: ${text}` : motivo;
};

const RELATION_TEXT: Record<string, string> = {
  '01': '01 - Nota de crédito de los documentos relacionados',
  '04': '04 - Sustitución de los CFDI previos',
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
  const digits = (frac + '000').slice(0, 3);
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

const regimenText = (code: string) => `${code} - ${findRegimen(code)?.description ?? ''}`;
const usoText = (code: string) => `${code} - ${findUsoCfdi(code)?.description ?? ''}`;
const formaPagoText = (code: string) => `${code} - ${FORMA_PAGO_TEXT[code] ?? ''}`;

function labelValue(w: Writer, x: number, y: number, label: string, value: string, width: number): number {
  w.text(label, x, y, 7, w.bold, MUTED);
  const lines = w.wrap(value, width, 8.5);
  lines.forEach((line, i) => {
    w.text(line, x, y - 11 - i * 10.5, 8.5);
  });
  return 11 + lines.length * 10.5 + 4;
}

function header(w: Writer, input: InvoicePdfInput) {
  const s = input.snapshot;
  const { margin, width } = PAGE;
  w.page.drawRectangle({ x: 0, y: PAGE.height - 6, width, height: 6, color: BRAND });
  w.text(shop.tradeName, margin, w.y - 14, 18, w.bold, BRAND);
  w.text(shop.tagline, margin, w.y - 28, 8.5, w.font, MUTED);
  const a = shop.address;
  w.text(`${a.street}, ${a.neighbourhood}`, margin, w.y - 44, 8);
  w.text(`${a.postalCode} ${a.city}, ${a.state}, ${a.country}`, margin, w.y - 54, 8);
  w.text(`Tel. ${shop.phones.join(' · ')}`, margin, w.y - 64, 8);
  w.text(shop.email, margin, w.y - 74, 8);

  const boxW = 250;
  const boxX = width - margin - boxW;
  const top = w.y;
  w.page.drawRectangle({ x: boxX, y: top - 92, width: boxW, height: 92, color: BRAND_LIGHT });
  const egreso = s.tipoDeComprobante === 'E';
  w.text(
    egreso ? 'NOTA DE CRÉDITO · CFDI 4.0' : 'FACTURA · CFDI 4.0',
    boxX + 10,
    top - 16,
    11,
    w.bold,
    BRAND,
  );
  w.text(
    egreso ? 'Comprobante de egreso (E)' : 'Comprobante de ingreso (I)',
    boxX + 10,
    top - 28,
    7.5,
    w.font,
    MUTED,
  );
  const rows: [string, string][] = [
    ['Serie y folio', `${s.serie ?? ''}${s.folio ?? ''}` || '—'],
    ['Folio fiscal (UUID)', input.uuid],
    ['Fecha de emisión', s.fecha.replace('T', ' ')],
    ['Fecha de certificación', s.fechaTimbrado.replace('T', ' ')],
    ['Lugar de expedición', s.lugarExpedicion],
  ];
  rows.forEach(([label, value], i) => {
    const yy = top - 42 - i * 10;
    w.text(label, boxX + 10, yy, 7, w.bold, MUTED);
    const mono = label.startsWith('Folio fiscal');
    w.text(value, boxX + 92, yy, mono ? 7 : 7.5, mono ? w.mono : w.font);
  });
  w.y = top - 104;
}

function banners(w: Writer, input: InvoicePdfInput) {
  const { margin, width } = PAGE;
  const messages: string[] = [];
  if (input.status === 'cancelled') {
    const when = input.cancelledAt ? ` el ${input.cancelledAt.toISOString().slice(0, 10)}` : '';
    const what = input.snapshot.tipoDeComprobante === 'E' ? 'NOTA DE CRÉDITO CANCELADA' : 'FACTURA CANCELADA';
    messages.push(`${what}${when}${input.cancelMotivo ? ` (motivo ${motivoText(input.cancelMotivo)})` : ''}`);
  }
  if (input.test) messages.push('SIN VALIDEZ FISCAL · Timbrado de prueba (PAC de pruebas); no es deducible');
  for (const message of messages) {
    w.page.drawRectangle({
      x: margin,
      y: w.y - 20,
      width: width - 2 * margin,
      height: 20,
      color: rgb(1, 0.94, 0.94),
      borderColor: RED,
      borderWidth: 0.8,
    });
    w.text(message, margin + 10, w.y - 13.5, 8.5, w.bold, RED);
    w.y -= 26;
  }
}

function parties(w: Writer, input: InvoicePdfInput) {
  const s = input.snapshot;
  const { margin, width } = PAGE;
  const colW = (width - 2 * margin - 16) / 2;
  const top = w.y;
  const cols: [string, [string, string][]][] = [
    [
      'EMISOR',
      [
        ['RFC', s.emisor.rfc],
        ['Nombre o razón social', s.emisor.nombre],
        ['Régimen fiscal', regimenText(s.emisor.regimenFiscal)],
      ],
    ],
    [
      'RECEPTOR',
      [
        ['RFC', s.receptor.rfc],
        ['Nombre o razón social', s.receptor.nombre],
        ['Domicilio fiscal (C.P.)', s.receptor.domicilioFiscal],
        ['Régimen fiscal', regimenText(s.receptor.regimenFiscal)],
        ['Uso del CFDI', usoText(s.receptor.usoCfdi)],
      ],
    ],
  ];
  let lowest = top;
  cols.forEach(([title, rows], i) => {
    const x = margin + i * (colW + 16);
    w.text(title, x, top - 10, 8, w.bold, BRAND);
    w.page.drawLine({
      start: { x, y: top - 14 },
      end: { x: x + colW, y: top - 14 },
      thickness: 0.8,
      color: BRAND,
    });
    let y = top - 26;
    for (const [label, value] of rows) y -= labelValue(w, x, y, label, value, colW);
    lowest = Math.min(lowest, y);
  });
  w.y = lowest - 2;

  const facts: [string, string][] = [
    ['Pedido', `#${input.orderNumber}`],
    ['Forma de pago', formaPagoText(s.formaPago)],
    ['Método de pago', 'PUE - Pago en una sola exhibición'],
    ['Moneda', 'MXN - Peso mexicano'],
    ['Exportación', '01 - No aplica'],
  ];
  // 532 pt across. The widest Forma de pago ('03 - Transferencia electrónica de fondos', every SPEI invoice) gets
  // its own room; any value still wider than its column wraps inside it and the band grows, never overprints.
  const widths = [50, 160, 132, 100, 90];
  const cells = facts.map(([label, value], i) => ({
    label,
    lines: w.wrap(value, (widths[i] ?? 100) - 8, 7.5),
  }));
  const bandHeight = 18 + Math.max(...cells.map((c) => c.lines.length)) * 9.5 + 2;
  w.page.drawRectangle({
    x: margin,
    y: w.y - bandHeight,
    width: width - 2 * margin,
    height: bandHeight,
    color: BRAND_LIGHT,
  });
  let fx = margin + 8;
  cells.forEach(({ label, lines }, i) => {
    w.text(label, fx, w.y - 11, 6.5, w.bold, MUTED);
    lines.forEach((line, j) => {
      w.text(line, fx, w.y - 23 - j * 9.5, 7.5);
    });
    fx += widths[i] ?? 100;
  });
  w.y -= bandHeight + 12;
  if (s.purchaseOrder) {
    w.text('ORDEN DE COMPRA DEL CLIENTE', margin, w.y - 4, 7.5, w.bold, BRAND);
    w.text(s.purchaseOrder, margin + 132, w.y - 4, 9, w.bold);
    w.y -= 16;
  }
  const related = s.cfdiRelacionados;
  if (related && related.uuids.length > 0) {
    w.text('CFDI RELACIONADOS', margin, w.y - 8, 7.5, w.bold, BRAND);
    w.text(
      `Tipo de relación ${RELATION_TEXT[related.tipoRelacion] ?? related.tipoRelacion}`,
      margin,
      w.y - 19,
      7.5,
    );
    related.uuids.forEach((uuid, i) => {
      w.text(`Folio fiscal (UUID): ${uuid}`, margin, w.y - 30 - i * 10, 7.5, w.mono);
    });
    w.y -= 38 + related.uuids.length * 10;
  }
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
      [pesos(c.importe)],
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
        w.text(line, tx, w.y - 8 - j * 9.5, 7.5, w.font, i === 0 && j === 1 ? MUTED : INK);
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

function seals(w: Writer, input: InvoicePdfInput) {
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

function footers(w: Writer) {
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
