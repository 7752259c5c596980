import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { fromMexicoWallClock } from '../../shared/mexico-time.ts';
import { shop } from '../../shared/shop.ts';
import type { PaymentCfdiSnapshot } from '../db/schema.ts';
import { BRAND, BRAND_LIGHT, INK, LINE, MUTED, PAGE, Writer } from '../pdf/writer.ts';
import { FORMA_PAGO_TEXT } from './forma-pago.ts';
import { footers, pesos, seals } from './pdf.ts';
import { banners, header, parties } from './pdf-head.ts';

/**
 * The printed CFDI de pago (tipo P, Pagos 2.0; decision 060), in the invoice PDF's style: the same header, parties
 * and seals; in place of the concepts, the payment (date, form, amount, bank reference) and one line per invoice it
 * pays with its parcialidad, saldo anterior, amount paid, saldo insoluto and the IVA it carries.
 */
export type PaymentPdfInput = { uuid: string; test: boolean; snapshot: PaymentCfdiSnapshot };

type Column = { title: string; width: number; align: 'left' | 'right' };
const COLUMNS: Column[] = [
  { title: 'Factura (serie y folio / UUID)', width: 152, align: 'left' },
  { title: 'Parc.', width: 30, align: 'right' },
  { title: 'Saldo anterior', width: 72, align: 'right' },
  { title: 'Pagado', width: 68, align: 'right' },
  { title: 'Saldo insoluto', width: 72, align: 'right' },
  { title: 'Base IVA', width: 68, align: 'right' },
  { title: 'IVA 16 %', width: 66, align: 'right' },
];

function paymentBand(w: Writer, s: PaymentCfdiSnapshot) {
  const { margin, width } = PAGE;
  w.text('PAGO RECIBIDO', margin, w.y - 8, 8, w.bold, BRAND);
  w.y -= 14;
  const facts: [string, string][] = [
    ['Fecha de pago', s.fechaPago.replace('T', ' ')],
    ['Forma de pago', `${s.formaDePagoP} - ${FORMA_PAGO_TEXT[s.formaDePagoP] ?? ''}`],
    ['Moneda / tipo de cambio', 'MXN / 1'],
    ['Monto', `${pesos(s.monto)} MXN`],
    ['Referencia bancaria', s.numOperacion ?? '—'],
  ];
  const widths = [86, 150, 92, 84, 120];
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
  let x = margin + 8;
  cells.forEach(({ label, lines }, i) => {
    w.text(label, x, w.y - 11, 6.5, w.bold, MUTED);
    lines.forEach((line, j) => {
      w.text(line, x, w.y - 23 - j * 9.5, i === 3 ? 8.5 : 7.5, i === 3 ? w.bold : w.font);
    });
    x += widths[i] ?? 100;
  });
  w.y -= bandHeight + 14;
}

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

function documents(w: Writer, s: PaymentCfdiSnapshot) {
  const { margin, width } = PAGE;
  w.text('DOCUMENTOS RELACIONADOS (facturas PPD que paga)', margin, w.y - 8, 8, w.bold, BRAND);
  w.y -= 14;
  tableHeader(w);
  for (const d of s.documentos) {
    const cells = [
      [`${d.serie ?? ''}${d.folio ?? ''}` || '—', d.uuid],
      [String(d.numParcialidad)],
      [pesos(d.saldoAnterior)],
      [pesos(d.pagado)],
      [pesos(d.saldoInsoluto)],
      [pesos(d.base)],
      [pesos(d.iva)],
    ];
    const height = 2 * 9.5 + 6;
    if (w.y - height < PAGE.margin + 24) {
      w.newPage();
      tableHeader(w);
    }
    let x = margin + 4;
    cells.forEach((lines, i) => {
      const col = COLUMNS[i]!;
      lines.forEach((line, j) => {
        const size = i === 0 && j === 1 ? 6 : 7.5;
        const font = i === 0 && j === 1 ? w.mono : i === 4 ? w.bold : w.font;
        const tx = col.align === 'right' ? x + col.width - 8 - w.width(line, size, font) : x;
        w.text(line, tx, w.y - 8 - j * 9.5, size, font, i === 0 && j === 1 ? MUTED : INK);
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
  w.text(
    'Objeto de impuesto 02 · IVA trasladado 002, tasa 0.160000 · Moneda del documento MXN, equivalencia 1',
    margin,
    w.y - 8,
    6.5,
    w.font,
    MUTED,
  );
  w.y -= 16;
}

function totals(w: Writer, s: PaymentCfdiSnapshot) {
  const { margin, width } = PAGE;
  w.ensure(60);
  const right = width - margin;
  const base = s.documentos.reduce((sum, d) => sum + Math.round(Number(d.base) * 100), 0);
  const iva = s.documentos.reduce((sum, d) => sum + Math.round(Number(d.iva) * 100), 0);
  const rows: [string, string, boolean][] = [
    ['Total trasladados base IVA 16 %', pesos((base / 100).toFixed(2)), false],
    ['Total trasladados impuesto IVA 16 %', pesos((iva / 100).toFixed(2)), false],
    ['Monto total de pagos', `${pesos(s.monto)} MXN`, true],
  ];
  for (const [label, value, strong] of rows) {
    const font = strong ? w.bold : w.font;
    const size = strong ? 10.5 : 8.5;
    w.text(label, right - 250, w.y - 10, size, font, strong ? BRAND : INK);
    w.text(value, right - 4 - w.width(value, size, font), w.y - 10, size, font, strong ? BRAND : INK);
    w.y -= strong ? 18 : 14;
  }
  w.y -= 8;
}

export async function renderPaymentPdf(input: PaymentPdfInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const s = input.snapshot;
  doc.setTitle(`CFDI de pago ${s.serie ?? ''}${s.folio ?? ''} · ${input.uuid}`);
  doc.setAuthor(shop.legalName);
  doc.setSubject('CFDI 4.0 tipo P con complemento para recepción de pagos 2.0');
  doc.setLanguage('es-MX');
  const stamped = fromMexicoWallClock(s.fechaTimbrado);
  doc.setCreationDate(stamped);
  doc.setModificationDate(stamped);
  const w = new Writer(
    doc,
    await doc.embedFont(StandardFonts.Helvetica),
    await doc.embedFont(StandardFonts.HelveticaBold),
    await doc.embedFont(StandardFonts.Courier),
  );
  const asInvoice = {
    orderNumber: 0,
    uuid: input.uuid,
    status: 'issued' as const,
    test: input.test,
    cancelledAt: null,
    snapshot: s,
  };
  header(w, asInvoice);
  banners(w, asInvoice);
  parties(w, asInvoice);
  paymentBand(w, s);
  documents(w, s);
  totals(w, s);
  seals(w, asInvoice);
  footers(w);
  return doc.save();
}
