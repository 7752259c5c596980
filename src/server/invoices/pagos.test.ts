import { execFileSync } from 'node:child_process';
import { createVerify, X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testCsd } from '../../../tests/server/support/cfdi-sample.ts';
import { validateCfdiPagoXml } from '../../../tests/server/support/cfdi-xsd.ts';
import { SandboxPac } from './pac/sandbox.ts';
import { readAttribute } from './pac/tfd.ts';
import {
  type BuildPagoInput,
  buildComprobantePago,
  comprobantePagoXml,
  ivaShare,
  sealComprobantePago,
} from './pagos.ts';

const dir = join(import.meta.dirname, '../../../tests/server/fixtures/cfdi');
const fixture = (name: string) => readFileSync(join(dir, name), 'utf8');

/** Two invoices of one institution paid by one transfer (the second one in part). */
function sample(): BuildPagoInput {
  const first = { totalCents: 116_000, ivaCents: 16_000 };
  const second = { totalCents: 58_290, ivaCents: 8_040 };
  return {
    pago: {
      receivedOn: '2026-11-20',
      formaDePagoP: '03',
      montoCents: 116_000 + 30_000,
      numOperacion: 'SPEI 0026112012345678',
      documentos: [
        {
          uuid: '5FB2822E-396D-4725-8521-CDC4BDD20CCF',
          serie: 'F',
          folio: '120',
          numParcialidad: 1,
          saldoAnteriorCents: 116_000,
          pagadoCents: 116_000,
          ...ivaShare(first, 0, 116_000),
        },
        {
          uuid: '0A6B4C62-8C2D-4E3B-9B3A-2C4F6E7D8A91',
          serie: 'F',
          folio: '121',
          numParcialidad: 2,
          saldoAnteriorCents: 38_290,
          pagadoCents: 30_000,
          ...ivaShare(second, 20_000, 30_000),
        },
      ],
    },
    emisor: { rfc: 'EKU9003173C9', nombre: 'ESCUELA KEMPER URGATE', regimenFiscal: '601' },
    lugarExpedicion: '86035',
    receptor: {
      rfc: 'UDG370101AB1',
      nombre: 'Universidad  de Guadalajara',
      regimenFiscal: '603',
      domicilioFiscal: '44100',
    },
    serie: 'P',
    folio: '7',
    issuedAt: new Date('2026-11-21T17:30:00Z'),
    csd: testCsd(),
  };
}

const verifies = (certificateBase64: string, text: string, signature: string) =>
  createVerify('RSA-SHA256')
    .update(Buffer.from(text, 'utf8'))
    .verify(new X509Certificate(Buffer.from(certificateBase64, 'base64')).publicKey, signature, 'base64');

describe('CFDI de pago (tipo P, complemento Pagos 2.0)', () => {
  it('is valid against SAT’s cfdv40.xsd + Pagos20.xsd, before and after the stamp', async () => {
    const { comprobante } = sealComprobantePago(buildComprobantePago(sample()), testCsd());
    const xml = comprobantePagoXml(comprobante);
    expect(await validateCfdiPagoXml(xml)).toEqual({ valid: true, errors: [] });
    const stamped = (await new SandboxPac(testCsd()).stamp(xml)).xml;
    expect(await validateCfdiPagoXml(stamped)).toEqual({ valid: true, errors: [] });
    // The TFD goes into the same Complemento as the Pagos.
    expect(stamped.match(/<cfdi:Complemento>/g)).toHaveLength(1);
  });

  it('states what Anexo 20 fixes for a tipo P: zero totals, XXX, the one Concepto, CP01', () => {
    const xml = comprobantePagoXml(
      sealComprobantePago(buildComprobantePago(sample()), testCsd()).comprobante,
    );
    for (const [attribute, value] of [
      ['SubTotal', '0'] as const,
      ['Total', '0'],
      ['Moneda', 'XXX'],
      ['TipoDeComprobante', 'P'],
      ['Exportacion', '01'],
    ])
      expect(readAttribute(xml, 'cfdi:Comprobante', attribute)).toBe(value);
    expect(readAttribute(xml, 'cfdi:Comprobante', 'FormaPago')).toBeUndefined();
    expect(readAttribute(xml, 'cfdi:Comprobante', 'MetodoPago')).toBeUndefined();
    expect(xml).toContain(
      '<cfdi:Concepto ClaveProdServ="84111506" Cantidad="1" ClaveUnidad="ACT" Descripcion="Pago" ValorUnitario="0" Importe="0" ObjetoImp="01"/>',
    );
    expect(readAttribute(xml, 'cfdi:Receptor', 'UsoCFDI')).toBe('CP01');
    expect(xml).not.toContain('<cfdi:Impuestos');
    expect(xml).toContain(
      '<pago20:Totales TotalTrasladosBaseIVA16="1258.62" TotalTrasladosImpuestoIVA16="201.38" MontoTotalPagos="1460.00"/>',
    );
    expect(xml).toContain(
      '<pago20:Pago FechaPago="2026-11-20T12:00:00" FormaDePagoP="03" MonedaP="MXN" TipoCambioP="1" Monto="1460.00" NumOperacion="SPEI 0026112012345678">',
    );
    expect(xml).toContain(
      'NumParcialidad="2" ImpSaldoAnt="382.90" ImpPagado="300.00" ImpSaldoInsoluto="82.90" ObjetoImpDR="02"',
    );
    expect(xml).toContain(
      '<pago20:TrasladoDR BaseDR="1000.00" ImpuestoDR="002" TipoFactorDR="Tasa" TasaOCuotaDR="0.160000" ImporteDR="160.00"/>',
    );
  });

  it('its cadena original is xsltproc’s output of SAT’s cadenaoriginal_4_0.xslt + Pagos20.xslt (committed), and the Sello verifies', () => {
    const { comprobante, cadena } = sealComprobantePago(buildComprobantePago(sample()), testCsd());
    const xml = comprobantePagoXml(comprobante);
    if (process.env.REGENERATE_CFDI_FIXTURES) {
      writeFileSync(join(dir, 'sample-pago.xml'), xml);
      writeFileSync(
        join(dir, 'sample-pago-cadena-original.txt'),
        execFileSync('xsltproc', [join(dir, 'cadenaoriginal_4_0.xslt'), join(dir, 'sample-pago.xml')], {
          encoding: 'utf8',
        }),
      );
    }
    expect(cadena).toBe(fixture('sample-pago-cadena-original.txt'));
    expect(cadena).toContain('|Universidad de Guadalajara|');
    expect(
      verifies(
        readAttribute(xml, 'cfdi:Comprobante', 'Certificado') ?? '',
        cadena,
        readAttribute(xml, 'cfdi:Comprobante', 'Sello') ?? '',
      ),
    ).toBe(true);
  });

  it('splits the IVA of the parcialidades so they add up to the invoice’s, to the centavo', () => {
    const invoice = { totalCents: 100_001, ivaCents: 13_793 };
    const parts = [33_333, 33_333, 33_335];
    let before = 0;
    let iva = 0;
    let base = 0;
    for (const paid of parts) {
      const share = ivaShare(invoice, before, paid);
      expect(share.baseCents + share.ivaCents).toBe(paid);
      // ImporteDR = BaseDR × 0.16 within a centavo (the PAC's tolerance).
      expect(Math.abs(share.baseCents * 0.16 - share.ivaCents)).toBeLessThanOrEqual(1);
      iva += share.ivaCents;
      base += share.baseCents;
      before += paid;
    }
    expect(iva).toBe(13_793);
    expect(base).toBe(100_001 - 13_793);
  });

  it('refuses a payment whose parts do not add up to its Monto', () => {
    const bad = sample();
    bad.pago.montoCents += 1;
    expect(() => buildComprobantePago(bad)).toThrow(/Monto/);
  });
});
