import { describe, expect, it } from 'vitest';
import { sampleComprobante, testCsd } from '../../../tests/server/support/cfdi-sample.ts';
import { pdfText } from '../../../tests/server/support/pdf-text.ts';
import type { InvoiceSnapshot } from '../db/schema.ts';
import { sealComprobante } from './cfdi.ts';
import { pesos, qrTotal, renderInvoicePdf, verificationUrl } from './pdf.ts';

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

describe('renderInvoicePdf', () => {
  it('prints unit values rounded to the cents and the totals of the CFDI', async () => {
    const { comprobante } = sealComprobante(sampleComprobante(), testCsd());
    const snapshot: InvoiceSnapshot = {
      serie: comprobante.serie ?? null,
      folio: comprobante.folio ?? null,
      fecha: comprobante.fecha,
      lugarExpedicion: comprobante.lugarExpedicion,
      emisor: comprobante.emisor,
      receptor: comprobante.receptor,
      formaPago: '28',
      conceptos: comprobante.conceptos.map((k) => ({
        claveProdServ: k.claveProdServ,
        claveUnidad: k.claveUnidad,
        noIdentificacion: k.noIdentificacion ?? null,
        descripcion: k.descripcion,
        cantidad: k.cantidad,
        valorUnitario: k.valorUnitario,
        importe: k.importe,
        iva: k.traslado.importe,
      })),
      subTotal: comprobante.subTotal,
      iva: comprobante.impuestos.totalTrasladados,
      total: comprobante.total,
      noCertificado: comprobante.noCertificado,
      sello: comprobante.sello ?? '',
      noCertificadoSat: '0'.repeat(20),
      selloSat: 'x',
      rfcProvCertif: 'SPR190613I52',
      fechaTimbrado: '2025-03-14T12:31:00',
      leyenda: null,
    };
    const text = pdfText(
      await renderInvoicePdf({
        orderNumber: 1001,
        uuid: '6A4E6F7E-2B0E-4E0C-9C71-1C3A3E9A2B10',
        status: 'issued',
        test: true,
        cancelledAt: null,
        snapshot,
      }),
    );
    // What the sample's lines carry (189.99, 1,240.50 and 330.00 with IVA, per unit, six decimals).
    expect(snapshot.conceptos.map((c) => c.valorUnitario)).toEqual([
      '163.783333',
      '1069.400000',
      '284.480000',
    ]);
    expect(text).toContain('$163.78');
    expect(text).toContain('$1,069.40');
    expect(text).toContain('$284.48');
    // A $100.00 article (ValorUnitario 86.206897) shows $86.21, not the truncated $86.20.
    const hundred = await renderInvoicePdf({
      orderNumber: 1001,
      uuid: '6A4E6F7E-2B0E-4E0C-9C71-1C3A3E9A2B10',
      status: 'issued',
      test: true,
      cancelledAt: null,
      snapshot: {
        ...snapshot,
        conceptos: [
          {
            ...snapshot.conceptos[0]!,
            cantidad: '1',
            valorUnitario: '86.206897',
            importe: '86.21',
            iva: '13.79',
          },
        ],
      },
    });
    expect(pdfText(hundred)).toContain('$86.21');
    expect(pdfText(hundred)).not.toContain('$86.20');
    expect(text).toContain('28 - Tarjeta de débito');
  });
});
