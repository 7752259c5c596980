import { inflateSync } from 'node:zlib';
import { PDFDocument, PDFRawStream } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { statementText } from '../../shared/ghs.ts';
import { shop } from '../../shared/shop.ts';
import { safetyDocProblem } from '../admin/media-checks.ts';
import { toSafety } from '../catalog/safety.ts';
import { HDS_SECTIONS, renderCertificatePdf, renderSafetySheetPdf } from './safety-docs.ts';

const REAGENT = {
  code: 'QR-10012',
  name: 'Ácido sulfúrico grado ACS',
  brand: 'QuimiRed',
  casNumber: '7664-93-9',
  formula: 'H2SO4',
  date: new Date('2026-03-02T16:00:00Z'),
};

/** The text drawn on the pages (pdf-lib writes standard-font text as hex strings in Flate streams). */
async function textOf(bytes: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(bytes);
  const out: string[] = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    let content: string;
    try {
      content = inflateSync(object.contents).toString('latin1');
    } catch {
      continue;
    }
    for (const [, hex] of content.matchAll(/<([0-9A-Fa-f]+)> Tj/g))
      out.push(Buffer.from(hex!, 'hex').toString('latin1'));
  }
  return out.join('\n');
}

describe('the demo HDS and certificate of analysis', () => {
  it('HDS: letter size, the shop as supplier, the 16 sections of NOM-018-STPS-2015, honest placeholders', async () => {
    const bytes = await renderSafetySheetPdf(REAGENT);
    expect(await safetyDocProblem(Buffer.from(bytes), 'La HDS')).toBeNull();
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPages().map((p) => [p.getWidth(), p.getHeight()])).toEqual(
      doc.getPages().map(() => [612, 792]),
    );
    const text = await textOf(bytes);
    expect(HDS_SECTIONS).toHaveLength(16);
    HDS_SECTIONS.forEach((title, i) => {
      expect(text.replace(/\n/g, ' ')).toContain(
        `Sección ${i + 1}. ${title.split(' ').slice(0, 3).join(' ')}`,
      );
    });
    for (const fact of [shop.legalName, '7664-93-9', 'H2SO4', 'QR-10012', 'Consulte la HDS del fabricante.'])
      expect(text).toContain(fact);
    // The same product and date: the same bytes (the stored hash and the browser's cache hold).
    expect(Buffer.from(await renderSafetySheetPdf(REAGENT)).equals(Buffer.from(bytes))).toBe(true);
  });

  it('HDS: the catalogue’s SGA data fills section 2 with the official texts, storage in 7, molar mass in 9', async () => {
    const text = (
      await textOf(
        await renderSafetySheetPdf({
          ...REAGENT,
          safety: toSafety({
            molarMass: 98.08,
            grade: 'ACS',
            ghsPictograms: ['GHS05'],
            signalWord: 'danger',
            hazardStatements: ['H290', 'H314'],
            precautionaryStatements: ['P280', 'P305+P351+P338'],
            storageConditions: 'Almacenar en lugar fresco, separado de bases y metales.',
          }),
        }),
      )
    ).replace(/\n/g, ' ');
    for (const fact of [
      'GHS05 (Corrosión)',
      'Peligro',
      `H314 ${statementText('H314')}`,
      `P305+P351+P338 ${statementText('P305+P351+P338')}`,
      'Almacenar en lugar fresco, separado de bases y metales.',
      '98.08 g/mol',
    ])
      expect(text).toContain(fact);
    // Without SGA data the section refers to the manufacturer's HDS and invents nothing.
    const plain = await textOf(await renderSafetySheetPdf(REAGENT));
    expect(plain).not.toContain('GHS05');
    expect(plain).not.toContain('H314');
  });

  it('certificate: the lot, its dates and the results, marked as the demo’s', async () => {
    const bytes = await renderCertificatePdf({
      ...REAGENT,
      lot: 'QR2510101',
      analysisDate: '2025-10-10',
      expiryDate: '2028-10-10',
      assay: 99.6,
    });
    expect(await safetyDocProblem(Buffer.from(bytes), 'El certificado')).toBeNull();
    const text = await textOf(bytes);
    for (const fact of [
      'CERTIFICADO DE ANÁLISIS',
      'QR2510101',
      '10 de octubre de 2025',
      '99.6 %',
      'demostración',
    ])
      expect(text).toContain(fact);
  });
});
