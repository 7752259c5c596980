import { PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { sampleComprobante, testCsd } from '../../../tests/server/support/cfdi-sample.ts';
import { type PdfTextItem, pdfText, pdfTextItems } from '../../../tests/server/support/pdf-text.ts';
import type { InvoiceSnapshot } from '../db/schema.ts';
import { sealComprobante } from './cfdi.ts';
import { pesos, qrTotal, renderInvoicePdf, unitValueText, verificationUrl } from './pdf.ts';
import { snapshotOf } from './stamping.ts';

describe('amounts on the printed representation', () => {
  it.each([
    ['86.206897', '$86.21'],
    ['86.204999', '$86.20'],
    ['0.995', '$1.00'],
    ['999.995000', '$1,000.00'],
    ['2140.47', '$2,140.47'],
    ['1234.5', '$1,234.50'],
    ['163.784483', '$163.78'],
  ])('%s → %s (rounded half up, not truncated)', (decimal, shown) => {
    expect(pesos(decimal)).toBe(shown);
  });
});

describe('QR: SAT verification URL (Anexo 20)', () => {
  it.each([
    ['1243.13', '1243.13'],
    ['1243.10', '1243.1'],
    ['1000.00', '1000.0'],
    ['0.50', '0.5'],
    ['2140.470000', '2140.47'],
  ])('tt of %s is %s: six decimals at most, no trailing zeros', (total, tt) => {
    expect(qrTotal(total)).toBe(tt);
  });

  it('builds id, re, rr, tt and fe (last 8 characters of the Sello)', () => {
    const url = verificationUrl(
      {
        emisor: { rfc: 'EKU9003173C9' },
        receptor: { rfc: 'Ñ&A000229AB8' },
        total: '1500.10',
        sello: 'abc+/12345678==',
      },
      '6A4E6F7E-2B0E-4E0C-9C71-1C3A3E9A2B10',
    );
    expect(url).toBe(
      'https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=6A4E6F7E-2B0E-4E0C-9C71-1C3A3E9A2B10&re=EKU9003173C9&rr=%C3%91%26A000229AB8&tt=1500.1&fe=345678%3D%3D',
    );
  });
});

function sampleSnapshot(formaPago: string, options: { discountCents?: number } = {}): InvoiceSnapshot {
  const { comprobante } = sealComprobante(sampleComprobante(options), testCsd());
  return {
    ...snapshotOf(comprobante, {
      uuid: '6A4E6F7E-2B0E-4E0C-9C71-1C3A3E9A2B10',
      xml: '',
      test: true,
      satCertificateNumber: '0'.repeat(20),
      satSeal: 'x',
      rfcProvCertif: 'SPR190613I52',
      stampedAt: '2025-03-14T12:31:00',
    }),
    formaPago,
  };
}

const render = (snapshot: InvoiceSnapshot) =>
  renderInvoicePdf({
    orderNumber: 1001,
    uuid: '6A4E6F7E-2B0E-4E0C-9C71-1C3A3E9A2B10',
    status: 'issued',
    test: true,
    cancelledAt: null,
    snapshot,
  });

/** Helvetica's metrics, to know where each drawn string ends. */
let fonts: { regular: PDFFont; bold: PDFFont; mono: PDFFont };
beforeAll(async () => {
  const doc = await PDFDocument.create();
  fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    mono: await doc.embedFont(StandardFonts.Courier),
  };
});
const fontOf = (name: string) =>
  name.startsWith('Helvetica-Bold') ? fonts.bold : name.startsWith('Courier') ? fonts.mono : fonts.regular;

/** Pairs of strings on one baseline of one page where the first runs into the next: printed over each other. */
function overprints(items: PdfTextItem[]): string[] {
  const found: string[] = [];
  const rows = new Map<string, PdfTextItem[]>();
  for (const item of items) {
    const key = `${item.stream}:${item.y.toFixed(1)}`;
    rows.set(key, [...(rows.get(key) ?? []), item]);
  }
  for (const row of rows.values()) {
    const sorted = row.filter((r) => r.text.trim() !== '').sort((a, b) => a.x - b.x);
    for (let i = 1; i < sorted.length; i++) {
      const prev = sorted[i - 1]!;
      const end = prev.x + fontOf(prev.font).widthOfTextAtSize(prev.text, prev.size);
      if (end > sorted[i]!.x - 1) found.push(`«${prev.text}» runs into «${sorted[i]!.text}»`);
    }
  }
  return found;
}

describe('renderInvoicePdf', () => {
  it('prints ValorUnitario as the XML states it, so that Cantidad × ValorUnitario gives the printed Importe', async () => {
    const snapshot = sampleSnapshot('04');
    const lines = pdfText(await render(snapshot)).split('\n');
    // What the sample's lines carry (189.99, 1,240.50 and 330.00 with IVA, per unit, six decimals).
    expect(snapshot.conceptos.map((c) => c.valorUnitario)).toEqual([
      '163.783333',
      '1069.400000',
      '284.480000',
    ]);
    expect(lines).toContain('$163.783333');
    expect(lines).toContain('$1,069.40');
    expect(lines).toContain('$284.48');
    expect(lines).not.toContain('$163.78');
    for (const c of snapshot.conceptos) {
      const printed = lines.find((l) => l === unitValueText(c.valorUnitario))!;
      const unit = Number(printed.replace(/[$,]/g, ''));
      // The reader's check: quantity × printed unit value, to the centavo, is the printed Importe.
      expect(pesos((Number(c.cantidad) * unit).toFixed(6))).toBe(pesos(c.importe));
      expect(lines).toContain(pesos(c.importe));
    }
  });

  it.each([
    ['104.000000', '$104.00'],
    ['86.206897', '$86.206897'],
    ['12345.5', '$12,345.50'],
    ['0.006667', '$0.006667'],
  ])('unit value %s is printed %s', (decimal, shown) => {
    expect(unitValueText(decimal)).toBe(shown);
  });

  it.each([
    ['04', '04 - Tarjeta de crédito'],
    ['28', '28 - Tarjeta de débito'],
    ['03', '03 - Transferencia electrónica de fondos'],
    ['01', '01 - Efectivo'],
  ])(
    'Forma de pago %s and Método de pago are printed side by side, not over each other',
    async (forma, text) => {
      const items = pdfTextItems(await render(sampleSnapshot(forma)));
      const printed = items.map((i) => i.text).join(' ');
      expect(printed).toContain(text.split(' ').slice(0, 3).join(' '));
      expect(items.map((i) => i.text)).toContain('PUE - Pago en una sola exhibición');
      expect(overprints(items)).toEqual([]);
    },
  );

  it('a credit note (egreso) prints nothing over anything else either', async () => {
    const snapshot: InvoiceSnapshot = {
      ...sampleSnapshot('03'),
      tipoDeComprobante: 'E',
      cfdiRelacionados: { tipoRelacion: '01', uuids: ['11111111-2222-3333-4444-555555555555'] },
    };
    const items = pdfTextItems(await render(snapshot));
    expect(items.map((i) => i.text)).toContain('NOTA DE CRÉDITO · CFDI 4.0');
    expect(overprints(items)).toEqual([]);
  });
});

describe('an invoice for what was kept (decision 056)', () => {
  it('prints each line’s Descuento under its Importe and the Descuento between Subtotal and IVA, nothing printed over anything', async () => {
    const snapshot = sampleSnapshot('04', { discountCents: 25_050 });
    const pdf = await render(snapshot);
    const lines = pdfText(pdf).split('\n');
    expect(lines).toContain('Descuento (reembolsado antes de facturar)');
    expect(lines).toContain('-$215.95');
    expect(lines).toContain('-$57.50');
    expect(lines).toContain('$1,889.97 MXN');
    expect(overprints(await pdfTextItems(pdf))).toEqual([]);
  });
});
