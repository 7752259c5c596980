import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sampleComprobante, testCsd } from '../../../tests/server/support/cfdi-sample.ts';
import { pdfText } from '../../../tests/server/support/pdf-text.ts';
import { shop } from '../../shared/shop.ts';
import { sealComprobante } from '../invoices/cfdi.ts';
import { renderInvoicePdf } from '../invoices/pdf.ts';
import { snapshotOf } from '../invoices/stamping.ts';
import { deliveryNoteOf } from './pickup.ts';

/** Issue 35: the invoice of an order collected at a branch says so on its printed representation. */
describe('the invoice of a pickup', () => {
  it('prints where it is collected, and a parcel order prints nothing of the kind', async () => {
    expect(deliveryNoteOf({ deliveryMethod: 'ground', pickupBranch: null })).toBeNull();
    const note = deliveryNoteOf({ deliveryMethod: 'pickup', pickupBranch: 0 });
    expect(note).toBe(`Recoger en sucursal: ${shop.branches[0]!.name} (sin costo de envío)`);
    const { comprobante } = sealComprobante(sampleComprobante(), testCsd());
    const snapshot = {
      ...snapshotOf(comprobante, {
        uuid: '6A4E6F7E-2B0E-4E0C-9C71-1C3A3E9A2B10',
        xml: '',
        test: true,
        satCertificateNumber: '0'.repeat(20),
        satSeal: 'x',
        rfcProvCertif: 'SPR190613I52',
        stampedAt: '2026-11-28T12:31:00',
      }),
      formaPago: '04',
      deliveryNote: note!,
    };
    const pdf = await renderInvoicePdf({
      orderNumber: 1001,
      uuid: '6A4E6F7E-2B0E-4E0C-9C71-1C3A3E9A2B10',
      status: 'issued',
      test: true,
      cancelledAt: null,
      snapshot,
    });
    const text = pdfText(pdf);
    expect(text).toContain('ENTREGA');
    expect(text).toContain(note);
    mkdirSync('test-results', { recursive: true });
    writeFileSync('test-results/pickup-invoice.pdf', pdf);
  });
});
