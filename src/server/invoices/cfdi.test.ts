import { createVerify, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleComprobante, testCsd } from '../../../tests/server/support/cfdi-sample.ts';
import { validateCfdiXml } from '../../../tests/server/support/cfdi-xsd.ts';
import { cadenaOriginal, comprobanteXml, sealComprobante } from './cfdi.ts';
import { loadCsd, TEST_CSD } from './csd.ts';
import { SANDBOX_LEYENDA, SandboxPac } from './pac/sandbox.ts';
import { readAttribute, tfdCadenaOriginal } from './pac/tfd.ts';

const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, '../../../tests/server/fixtures/cfdi', name), 'utf8');

/** Verifies an RSA-SHA256 base64 signature of the UTF-8 text with the certificate in the XML. */
function verifies(certificateBase64: string, text: string, signature: string) {
  const cert = new X509Certificate(Buffer.from(certificateBase64, 'base64'));
  return createVerify('RSA-SHA256')
    .update(Buffer.from(text, 'utf8'))
    .verify(cert.publicKey, signature, 'base64');
}

describe('the SAT test CSD', () => {
  it('opens with its password and is the CSD of EKU9003173C9', () => {
    const csd = testCsd();
    expect(csd.rfc).toBe('EKU9003173C9');
    expect(csd.legalName).toBe('ESCUELA KEMPER URGATE SA DE CV');
    expect(csd.certificateNumber).toBe('30001000000500003416');
    expect(csd.validTo.toISOString()).toBe('2027-05-18T11:43:51.000Z');
  });

  it('refuses a wrong password with a Spanish message', () => {
    expect(() => loadCsd({ ...TEST_CSD, password: 'otra' })).toThrow(/No se pudo abrir el CSD/);
  });
});

describe('cadena original and Sello', () => {
  it('matches the output of SAT’s cadenaoriginal_4_0.xslt for the fixture (xsltproc, committed)', () => {
    const { comprobante, cadena } = sealComprobante(sampleComprobante(), testCsd());
    expect(cadena).toBe(fixture('sample-cadena-original.txt'));
    expect(cadenaOriginal(comprobante)).toBe(cadena);
    // normalize-space and the '|' the XSD forbids.
    expect(cadena).toContain('|Matraz Erlenmeyer 250 mL "Pyrex" & tapón - borosilicato|');
    expect(cadena).toContain('|María Olivia Martínez Sagaz|');
  });

  it('signs the UTF-8 bytes of the cadena: the Sello verifies with the certificate in the XML', () => {
    const { comprobante, cadena } = sealComprobante(sampleComprobante(), testCsd());
    const xml = comprobanteXml(comprobante);
    const sello = readAttribute(xml, 'cfdi:Comprobante', 'Sello') ?? '';
    const certificado = readAttribute(xml, 'cfdi:Comprobante', 'Certificado') ?? '';
    expect(verifies(certificado, cadena, sello)).toBe(true);
    expect(verifies(certificado, cadena.replace('María', 'Maria'), sello)).toBe(false);
    expect(readAttribute(xml, 'cfdi:Comprobante', 'NoCertificado')).toBe('30001000000500003416');
  });
});

describe('CfdiRelacionados and TipoDeComprobante E (credit notes, replacements)', () => {
  const related = () => ({
    ...sampleComprobante(),
    tipoDeComprobante: 'E' as const,
    cfdiRelacionados: { tipoRelacion: '01' as const, uuids: ['6A4E6F7E-2B0E-4E0C-9C71-1C3A3E9A2B10'] },
  });

  it('the cadena matches SAT’s cadenaoriginal_4_0.xslt (xsltproc, committed) and the XML is valid', async () => {
    const { comprobante, cadena } = sealComprobante(related(), testCsd());
    expect(cadena).toBe(fixture('sample-egreso-related-cadena-original.txt'));
    const xml = comprobanteXml(comprobante);
    expect(xml).toContain(
      '<cfdi:CfdiRelacionados TipoRelacion="01"><cfdi:CfdiRelacionado UUID="6A4E6F7E-2B0E-4E0C-9C71-1C3A3E9A2B10"/></cfdi:CfdiRelacionados><cfdi:Emisor',
    );
    expect(readAttribute(xml, 'cfdi:Comprobante', 'TipoDeComprobante')).toBe('E');
    expect(await validateCfdiXml(xml)).toEqual({ valid: true, errors: [] });
    expect(await validateCfdiXml((await new SandboxPac(testCsd()).stamp(xml)).xml)).toEqual({
      valid: true,
      errors: [],
    });
  });
});

describe('XSD (SAT CFDI 4.0 + TFD 1.1, libxml2 in WASM)', () => {
  it('the sealed CFDI and the stamped CFDI are valid', async () => {
    const csd = testCsd();
    const { comprobante } = sealComprobante(sampleComprobante(), csd);
    const sealed = comprobanteXml(comprobante);
    expect(await validateCfdiXml(sealed)).toEqual({ valid: true, errors: [] });
    const stamp = await new SandboxPac(csd).stamp(sealed);
    expect(await validateCfdiXml(stamp.xml)).toEqual({ valid: true, errors: [] });
  });

  it('catches what the SAT schema forbids', async () => {
    const { comprobante } = sealComprobante(sampleComprobante(), testCsd());
    const xml = comprobanteXml(comprobante);
    const broken = await validateCfdiXml(
      xml
        .replace('DomicilioFiscalReceptor="80290"', 'DomicilioFiscalReceptor="8029"')
        .replace('Total="2140.47"', 'Total="-1"'),
    );
    expect(broken.valid).toBe(false);
    expect(broken.errors.join('\n')).toMatch(/DomicilioFiscalReceptor/);
    expect(broken.errors.join('\n')).toMatch(/Total/);
  });
});

describe('sandbox PAC', () => {
  it('adds a TFD 1.1 with a fresh UUID, marked as a test, whose SelloSAT verifies', async () => {
    const csd = testCsd();
    const { comprobante } = sealComprobante(sampleComprobante(), csd);
    const sealed = comprobanteXml(comprobante);
    const pac = new SandboxPac(csd, () => new Date('2025-03-14T18:31:00Z'));
    const [a, b] = [await pac.stamp(sealed), await pac.stamp(sealed)];
    expect(a.uuid).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/);
    // The same sealed CFDI again: the stamp made the first time (a PAC's "previamente timbrado").
    expect(b).toEqual(a);
    // Another sealed CFDI (another folio): a fresh UUID.
    const other = comprobanteXml(sealComprobante({ ...sampleComprobante(), folio: '99' }, csd).comprobante);
    expect((await pac.stamp(other)).uuid).not.toBe(a.uuid);
    expect(a).toMatchObject({
      test: true,
      stampedAt: '2025-03-14T12:31:00',
      satCertificateNumber: '0'.repeat(20),
    });
    expect(readAttribute(a.xml, 'tfd:TimbreFiscalDigital', 'Leyenda')).toBe(SANDBOX_LEYENDA);
    expect(readAttribute(a.xml, 'tfd:TimbreFiscalDigital', 'SelloCFD')).toBe(comprobante.sello);
    const cadena = tfdCadenaOriginal({
      uuid: a.uuid,
      fechaTimbrado: a.stampedAt,
      rfcProvCertif: a.rfcProvCertif,
      leyenda: SANDBOX_LEYENDA,
      selloCfd: comprobante.sello ?? '',
      noCertificadoSat: a.satCertificateNumber,
    });
    expect(verifies(csd.certificateBase64, cadena, a.satSeal)).toBe(true);
  });

  it('refuses an unsealed or already stamped CFDI', async () => {
    const csd = testCsd();
    const pac = new SandboxPac(csd);
    await expect(pac.stamp(comprobanteXml(sampleComprobante()))).rejects.toThrow(/no está sellado/);
    const { comprobante } = sealComprobante(sampleComprobante(), csd);
    const stamped = await pac.stamp(comprobanteXml(comprobante));
    await expect(pac.stamp(stamped.xml)).rejects.toThrow(/ya está timbrado/);
  });
});

describe('Descuento: a sale partly given back before it was invoiced (decision 056)', () => {
  it('the cadena matches SAT’s cadenaoriginal_4_0.xslt (xsltproc, committed), the XML is valid and adds up', async () => {
    const { comprobante, cadena } = sealComprobante(sampleComprobante({ discountCents: 25_050 }), testCsd());
    expect(cadena).toBe(fixture('sample-descuento-cadena-original.txt'));
    const xml = comprobanteXml(comprobante);
    expect(await validateCfdiXml(xml)).toEqual({ valid: true, errors: [] });
    const cents = (v: string | undefined) => Math.round(Number(v) * 100);
    const subTotal = cents(comprobante.subTotal);
    const descuento = cents(comprobante.descuento);
    // The three lines total $2,140.47 with IVA; $250.50 went back: the invoice is for $1,889.97.
    expect(cents(comprobante.total)).toBe(214_047 - 25_050);
    expect(cents(comprobante.total)).toBe(
      subTotal - descuento + cents(comprobante.impuestos.totalTrasladados),
    );
    expect(comprobante.conceptos.reduce((s, k) => s + cents(k.descuento), 0)).toBe(descuento);
    expect(cents(comprobante.impuestos.base)).toBe(subTotal - descuento);
    for (const k of comprobante.conceptos)
      expect(cents(k.traslado.base)).toBe(cents(k.importe) - cents(k.descuento));
  });

  it('without a discount nothing changes: no Descuento attribute anywhere', () => {
    const xml = comprobanteXml(sampleComprobante());
    expect(xml).not.toContain('Descuento=');
  });
});
