import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { splitQuantity, splitText } from '../../shared/backorder.ts';
import { formatMoney } from '../../shared/money.ts';
import { QUOTATION_TERMS } from '../../shared/sales-terms.ts';
import type { QuotationDetail } from '../../shared/schemas/quotations.ts';
import { shop } from '../../shared/shop.ts';
import { BRAND, BRAND_LIGHT, INK, LINE, MUTED, PAGE, RED, Writer } from '../pdf/writer.ts';
import { amountInWords } from './words.ts';

/**
 * The quotation as a document a purchasing office files with its requisition (issue 20): letter size, the
 * shop's identity and RFC, folio and validity, the buyer, the lines, totals with the IVA they include, the
 * amount in words, the sales terms of spec §9 and who to contact. Drawn with pdf-lib like the CFDI's PDF.
 */

const longDate = (iso: string) =>
  new Intl.DateTimeFormat('es-MX', { dateStyle: 'long', timeZone: 'America/Mexico_City' }).format(
    new Date(iso),
  );

const STAMP: Partial<Record<QuotationDetail['state'], string>> = {
  vencida: 'COTIZACIÓN VENCIDA',
  cancelada: 'COTIZACIÓN CANCELADA',
};

function header(w: Writer, q: QuotationDetail) {
  const { margin, width } = PAGE;
  w.page.drawRectangle({ x: 0, y: PAGE.height - 6, width, height: 6, color: BRAND });
  const top = w.y;
  w.text(shop.tradeName, margin, top - 14, 18, w.bold, BRAND);
  w.text(shop.legalName, margin, top - 28, 8.5, w.bold);
  w.text(`RFC ${shop.invoicing.issuer.rfc}`, margin, top - 39, 8);
  const a = shop.address;
  w.text(`${a.street}, ${a.neighbourhood}`, margin, top - 50, 8);
  w.text(`${a.postalCode} ${a.city}, ${a.state}, ${a.country}`, margin, top - 60, 8);
  w.text(`Tel. ${shop.phones.join(' · ')}`, margin, top - 70, 8);
  w.text(shop.email, margin, top - 80, 8);

  const boxW = 210;
  const boxX = width - margin - boxW;
  w.page.drawRectangle({ x: boxX, y: top - 92, width: boxW, height: 92, color: BRAND_LIGHT });
  w.text('COTIZACIÓN', boxX + 10, top - 18, 14, w.bold, BRAND);
  const rows: [string, string][] = [
    ['Folio', q.folio],
    ['Revisión', String(q.revision)],
    ['Fecha', longDate(q.revisedAt)],
    ['Vigente hasta', longDate(q.validUntil)],
    ['Moneda', 'MXN · IVA incluido'],
  ];
  rows.forEach(([label, value], i) => {
    const yy = top - 36 - i * 11;
    w.text(label, boxX + 10, yy, 7.5, w.bold, MUTED);
    w.text(value, boxX + 78, yy, 8.5, label === 'Folio' ? w.bold : w.font);
  });
  w.y = top - 104;
}

function stamp(w: Writer, q: QuotationDetail) {
  const text =
    q.state === 'convertida' && q.orderNumber ? `CONVERTIDA EN EL PEDIDO #${q.orderNumber}` : STAMP[q.state];
  if (!text) return;
  const { margin, width } = PAGE;
  const tone = q.state === 'convertida' ? BRAND : RED;
  w.page.drawRectangle({
    x: margin,
    y: w.y - 20,
    width: width - 2 * margin,
    height: 20,
    color: q.state === 'convertida' ? BRAND_LIGHT : rgb(1, 0.94, 0.94),
    borderColor: tone,
    borderWidth: 0.8,
  });
  w.text(text, margin + 10, w.y - 13.5, 9, w.bold, tone);
  w.y -= 28;
}

function buyer(w: Writer, q: QuotationDetail, email: string) {
  const { margin, width } = PAGE;
  w.text('CLIENTE', margin, w.y - 10, 8, w.bold, BRAND);
  w.page.drawLine({
    start: { x: margin, y: w.y - 14 },
    end: { x: width - margin, y: w.y - 14 },
    thickness: 0.8,
    color: BRAND,
  });
  const rows: [string, string][] = [
    ['Atención', q.buyerName],
    ...(q.institution ? [['Institución / empresa', q.institution] as [string, string]] : []),
    ...(q.rfc ? [['RFC', q.rfc] as [string, string]] : []),
    ['Correo electrónico', email],
    ...(q.purchaseOrder ? [['Orden de compra / referencia', q.purchaseOrder] as [string, string]] : []),
  ];
  let y = w.y - 27;
  for (const [label, value] of rows) {
    w.text(label, margin, y, 7.5, w.bold, MUTED);
    w.wrap(value, width - 2 * margin - 130, 8.5).forEach((line, i) => {
      w.text(line, margin + 130, y - i * 10, 8.5);
    });
    y -= 12;
  }
  w.y = y - 4;
  w.wrap(
    'Atendiendo a su amable solicitud, nos permitimos presentarle la siguiente cotización:',
    width - 2 * margin,
    8.5,
  ).forEach((line) => {
    w.text(line, margin, w.y - 8, 8.5);
    w.y -= 11;
  });
  w.y -= 6;
}

type Column = { title: string; width: number; align: 'left' | 'right' };
const COLUMNS: Column[] = [
  { title: '#', width: 22, align: 'right' },
  { title: 'Código', width: 74, align: 'left' },
  { title: 'Descripción', width: 226, align: 'left' },
  { title: 'Cant.', width: 40, align: 'right' },
  { title: 'Precio unitario', width: 84, align: 'right' },
  { title: 'Importe', width: 86, align: 'right' },
];

function tableHeader(w: Writer) {
  const { margin, width } = PAGE;
  w.page.drawRectangle({ x: margin, y: w.y - 16, width: width - 2 * margin, height: 16, color: BRAND });
  let x = margin;
  for (const c of COLUMNS) {
    const tx = c.align === 'right' ? x + c.width - 6 - w.width(c.title, 7.5, w.bold) : x + 6;
    w.text(c.title, tx, w.y - 11, 7.5, w.bold, rgb(1, 1, 1));
    x += c.width;
  }
  w.y -= 20;
}

/** Under a controlled chemical's line (decision 030). */
export const CONTROLLED_NOTE =
  'Reactivo controlado: para comprarlo se requiere RFC registrado y la declaración de uso final.';

function lines(w: Writer, q: QuotationDetail) {
  const { margin, width } = PAGE;
  tableHeader(w);
  q.lines.forEach((l, i) => {
    // Under the description, each price the quoted one came from, when it differs (decision 053).
    const steps = [
      ...(l.listPriceCents !== l.unitPriceCents ? [`Precio de lista ${formatMoney(l.listPriceCents)}`] : []),
      ...(l.volumePriceCents !== l.listPriceCents
        ? [`Precio por volumen ${formatMoney(l.volumePriceCents)}`]
        : []),
      ...(l.agreedPriceCents !== l.volumePriceCents
        ? [`Precio acordado ${formatMoney(l.agreedPriceCents)}`]
        : []),
      ...(l.unitPriceCents !== l.agreedPriceCents && q.discountPercent > 0
        ? [`Descuento ${q.discountPercent} %`]
        : []),
    ];
    // What the buyer must know before ordering it (issue 37): what ships later, and a controlled chemical's papers.
    const { now, later } = splitQuantity(l.stock, l.quantity);
    const split = l.leadTime ? splitText(now, later, l.leadTime) : null;
    if (split) steps.push(split);
    if (l.controlled) steps.push(CONTROLLED_NOTE);
    const priceNote = steps.flatMap((step) => w.wrap(step, COLUMNS[2]!.width - 12, 7));
    const noted = steps.length > 0;
    const cells = [
      [String(i + 1)],
      w.wrap(l.code, COLUMNS[1]!.width - 12, 8),
      [...w.wrap(l.description, COLUMNS[2]!.width - 12, 8), ...(noted ? priceNote : [])],
      [String(l.quantity)],
      [formatMoney(l.unitPriceCents)],
      [formatMoney(l.amountCents)],
    ];
    const height = Math.max(...cells.map((c) => c.length)) * 10 + 6;
    if (w.y - height < PAGE.margin + 40) {
      w.newPage();
      tableHeader(w);
    }
    if (i % 2 === 1)
      w.page.drawRectangle({
        x: margin,
        y: w.y - height + 2,
        width: width - 2 * margin,
        height,
        color: rgb(0.975, 0.98, 0.99),
      });
    let x = margin;
    cells.forEach((cellLines, c) => {
      const col = COLUMNS[c]!;
      cellLines.forEach((line, j) => {
        const muted = c === 2 && noted && j >= cellLines.length - priceNote.length;
        const tx = col.align === 'right' ? x + col.width - 6 - w.width(line, 8) : x + 6;
        w.text(line, tx, w.y - 9 - j * 10, muted ? 7 : 8, w.font, muted ? MUTED : INK);
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
  });
}

function totals(w: Writer, q: QuotationDetail) {
  const { margin, width } = PAGE;
  w.ensure(110);
  const right = width - margin;
  const rows: [string, string, boolean][] = [
    // List amount, then each reduction as the true figure it is (decision 053): they add up to the products.
    ...(q.discountCents !== 0 || q.agreedDiscountCents !== 0
      ? ([
          ['Importe a precio de lista', formatMoney(q.listAmountCents), false],
          ...(q.volumeDiscountCents !== 0
            ? [['Descuento por volumen', `-${formatMoney(q.volumeDiscountCents)}`, false]]
            : []),
          ...(q.agreedDiscountCents !== 0
            ? [
                q.agreedDiscountCents > 0
                  ? ['Precios acordados', `-${formatMoney(q.agreedDiscountCents)}`, false]
                  : ['Precios acordados', `+${formatMoney(-q.agreedDiscountCents)}`, false],
              ]
            : []),
          ...(q.percentDiscountCents !== 0
            ? [[`Descuento (${q.discountPercent} %)`, `-${formatMoney(q.percentDiscountCents)}`, false]]
            : []),
        ] as [string, string, boolean][])
      : []),
    ['Importe de productos', formatMoney(q.subtotalCents), false],
    ['Envío', formatMoney(q.shippingCents), false],
    ['Total', `${formatMoney(q.totalCents)} MXN`, true],
  ];
  const top = w.y - 6;
  let y = top;
  for (const [label, value, strong] of rows) {
    const font = strong ? w.bold : w.font;
    const size = strong ? 11 : 8.5;
    if (strong)
      w.page.drawLine({
        start: { x: right - 230, y: y - 2 },
        end: { x: right, y: y - 2 },
        thickness: 0.6,
        color: LINE,
      });
    w.text(label, right - 226, y - 12, size, font, strong ? BRAND : INK);
    w.text(value, right - 4 - w.width(value, size, font), y - 12, size, font, strong ? BRAND : INK);
    y -= strong ? 20 : 13;
  }
  const base = q.totalCents - q.ivaCents;
  const ivaLine = `Incluye IVA 16 % por ${formatMoney(q.ivaCents)} (base ${formatMoney(base)})`;
  w.text(ivaLine, right - 4 - w.width(ivaLine, 7.5), y - 6, 7.5, w.font, MUTED);
  // The amount in words, on the left, beside the totals.
  w.text('IMPORTE CON LETRA', margin, top - 12, 7, w.bold, MUTED);
  w.wrap(`(${amountInWords(q.totalCents)})`, 260, 8).forEach((line, i) => {
    w.text(line, margin, top - 24 - i * 10, 8, w.bold);
  });
  w.y = y - 18;
  if (q.paymentNote) {
    const lines = w.wrap(q.paymentNote, width - 2 * margin, 8.5, w.bold);
    w.ensure(lines.length * 11 + 6);
    lines.forEach((line, i) => {
      w.text(line, margin, w.y - 10 - i * 11, 8.5, w.bold, BRAND);
    });
    w.y -= lines.length * 11 + 8;
  }
}

function note(w: Writer, q: QuotationDetail) {
  if (!q.note) return;
  const { margin, width } = PAGE;
  const wrapped = q.note.split('\n').flatMap((p) => w.wrap(p, width - 2 * margin - 20, 8.5));
  const height = 22 + wrapped.length * 11;
  w.ensure(height + 8);
  w.page.drawRectangle({
    x: margin,
    y: w.y - height,
    width: width - 2 * margin,
    height,
    color: BRAND_LIGHT,
  });
  w.text('OBSERVACIONES', margin + 10, w.y - 13, 7.5, w.bold, BRAND);
  wrapped.forEach((line, i) => {
    w.text(line, margin + 10, w.y - 26 - i * 11, 8.5);
  });
  w.y -= height + 10;
}

function terms(w: Writer) {
  const { margin, width } = PAGE;
  const wrapped = QUOTATION_TERMS.map((t) => w.wrap(t, width - 2 * margin - 12, 7.5));
  w.ensure(24 + wrapped.reduce((h, l) => h + l.length * 9.5 + 2, 0) + 60);
  w.text('CONDICIONES COMERCIALES', margin, w.y - 10, 8, w.bold, BRAND);
  w.page.drawLine({
    start: { x: margin, y: w.y - 14 },
    end: { x: width - margin, y: w.y - 14 },
    thickness: 0.8,
    color: BRAND,
  });
  w.y -= 26;
  for (const lines of wrapped) {
    w.text('•', margin + 2, w.y, 7.5, w.font, MUTED);
    lines.forEach((line, i) => {
      w.text(line, margin + 12, w.y - i * 9.5, 7.5);
    });
    w.y -= lines.length * 9.5 + 2;
  }
  w.y -= 14;
  w.text('Atentamente,', margin, w.y, 8.5);
  w.text(`Departamento de ventas · ${shop.tradeName}`, margin, w.y - 12, 8.5, w.bold);
  w.text(`${shop.email} · Tel. ${shop.phones[0]} · ${shop.hours}`, margin, w.y - 23, 8, w.font, MUTED);
  w.y -= 36;
}

function footers(w: Writer, q: QuotationDetail) {
  const { margin, width } = PAGE;
  w.pages.forEach((page, i) => {
    const text = `Cotización ${q.folio} (revisión ${q.revision}) · Para comprar: «Mis cotizaciones» en la tienda en línea o cite el folio en su orden de compra.`;
    page.drawText(w.safe(text), { x: margin, y: 22, size: 6.5, font: w.font, color: MUTED });
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

export function quotationFileName(folio: string, revision: number) {
  return `Cotizacion-${folio}${revision > 1 ? `-rev${revision}` : ''}.pdf`;
}

export async function renderQuotationPdf(q: QuotationDetail, email: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Cotización ${q.folio} · ${shop.tradeName}`);
  doc.setAuthor(shop.legalName);
  doc.setSubject(`Cotización ${q.folio}, revisión ${q.revision}`);
  doc.setLanguage('es-MX');
  // Fixed dates keep one revision's PDF byte-for-byte stable.
  doc.setCreationDate(new Date(q.revisedAt));
  doc.setModificationDate(new Date(q.revisedAt));
  const w = new Writer(
    doc,
    await doc.embedFont(StandardFonts.Helvetica),
    await doc.embedFont(StandardFonts.HelveticaBold),
    await doc.embedFont(StandardFonts.Courier),
  );
  header(w, q);
  stamp(w, q);
  buyer(w, q, email);
  lines(w, q);
  totals(w, q);
  note(w, q);
  terms(w);
  footers(w, q);
  return doc.save();
}
