/**
 * CFDI 4.0 tipo P — "Comprobante de recepción de pagos" with the complemento Pagos 2.0 (issue 34, decision 060):
 * the data model, its XML and its cadena original, for money an institution paid by transfer against invoices PPD.
 *
 * What the Comprobante carries is fixed by Anexo 20 and the Guía de llenado del CFDI con complemento para
 * recepción de pagos 2.0: SubTotal 0, Total 0, Moneda XXX, no FormaPago/MetodoPago/CondicionesDePago/Impuestos;
 * one Concepto (ClaveProdServ 84111506, Cantidad 1, ClaveUnidad ACT, Descripcion 'Pago', ValorUnitario 0, Importe 0,
 * ObjetoImp 01); Receptor UsoCFDI CP01. The complemento: Totales (IVA 16 % base and tax, MontoTotalPagos), one Pago
 * (FechaPago, FormaDePagoP, MonedaP MXN, TipoCambioP 1, Monto, NumOperacion) with a DoctoRelacionado per invoice
 * paid (IdDocumento, Serie, Folio, MonedaDR MXN, EquivalenciaDR 1, NumParcialidad, ImpSaldoAnt, ImpPagado,
 * ImpSaldoInsoluto, ObjetoImpDR 02, TrasladoDR) and ImpuestosP/TrasladosP (the DRs' sums).
 *
 * The cadena original follows cadenaoriginal_4_0.xslt and Pagos20.xslt for exactly the nodes emitted, as cfdi.ts
 * does for the ingreso; a test compares it with xsltproc's output of SAT's stylesheets and validates the XML against
 * cfdv40.xsd + Pagos20.xsd + TimbreFiscalDigitalv11.xsd.
 */
import { centsToDecimal } from './amounts.ts';
import {
  CFDI_NS,
  cfdiText,
  escapeXmlAttribute,
  IVA_RATE,
  mexicoDateTime,
  normalizeSpace,
  type Party,
  type Receptor,
} from './cfdi.ts';
import type { Csd } from './csd.ts';

export const PAGOS_NS = 'http://www.sat.gob.mx/Pagos20';
const SCHEMA_LOCATION =
  'http://www.sat.gob.mx/cfd/4 http://www.sat.gob.mx/sitio_internet/cfd/4/cfdv40.xsd http://www.sat.gob.mx/Pagos20 http://www.sat.gob.mx/sitio_internet/cfd/Pagos/Pagos20.xsd';

/** One invoice PPD a payment goes to: its parcialidad, the balance before, what was paid and its IVA share. */
export type DoctoRelacionado = {
  uuid: string;
  serie: string | null;
  folio: string | null;
  numParcialidad: number;
  saldoAnteriorCents: number;
  pagadoCents: number;
  /** BaseDR and ImporteDR of the 16 % IVA of what was paid (base + iva = pagado). */
  baseCents: number;
  ivaCents: number;
};

export type PagoInput = {
  /** Day the money arrived (AAAA-MM-DD, Mexico City). */
  receivedOn: string;
  /** c_FormaPago of the money: '03' transfer. */
  formaDePagoP: string;
  montoCents: number;
  /** The bank's reference / SPEI tracking key. */
  numOperacion?: string | undefined;
  documentos: DoctoRelacionado[];
};

export type ComprobantePago = {
  serie?: string | undefined;
  folio?: string | undefined;
  fecha: string;
  noCertificado: string;
  certificado: string;
  lugarExpedicion: string;
  emisor: Party;
  receptor: Receptor;
  pago: {
    fechaPago: string;
    formaDePagoP: string;
    monto: string;
    numOperacion?: string | undefined;
    documentos: {
      idDocumento: string;
      serie?: string | undefined;
      folio?: string | undefined;
      numParcialidad: string;
      impSaldoAnt: string;
      impPagado: string;
      impSaldoInsoluto: string;
      baseDR: string;
      importeDR: string;
    }[];
    baseP: string;
    importeP: string;
  };
  totales: { baseIva16: string; impuestoIva16: string; montoTotalPagos: string };
  sello?: string;
};

export type BuildPagoInput = {
  pago: PagoInput;
  emisor: Party;
  lugarExpedicion: string;
  /** The institution: its RFC, razón social, régimen and CP; UsoCFDI is CP01 whatever it uses for invoices. */
  receptor: Omit<Receptor, 'usoCfdi'>;
  serie?: string;
  folio?: string;
  issuedAt: Date;
  csd: Pick<Csd, 'certificateNumber' | 'certificateBase64'>;
};

/** Refuses a payment whose parts do not add up: the CFDI would state money that did not move. */
function checkPago(p: PagoInput) {
  if (p.documentos.length === 0)
    throw new Error('Un CFDI de pago necesita al menos un documento relacionado');
  const paid = p.documentos.reduce((s, d) => s + d.pagadoCents, 0);
  if (paid !== p.montoCents)
    throw new Error(`La suma de ImpPagado (${paid}) no es el Monto (${p.montoCents})`);
  for (const d of p.documentos) {
    if (d.pagadoCents <= 0 || d.pagadoCents > d.saldoAnteriorCents)
      throw new Error(`ImpPagado fuera de rango en ${d.uuid}`);
    if (d.baseCents + d.ivaCents !== d.pagadoCents || d.baseCents <= 0 || d.ivaCents < 0)
      throw new Error(`BaseDR + ImporteDR no es ImpPagado en ${d.uuid}`);
  }
}

export function buildComprobantePago(input: BuildPagoInput): ComprobantePago {
  const { pago } = input;
  checkPago(pago);
  const base = pago.documentos.reduce((s, d) => s + d.baseCents, 0);
  const iva = pago.documentos.reduce((s, d) => s + d.ivaCents, 0);
  return {
    ...(input.serie ? { serie: cfdiText(input.serie, 25) } : {}),
    ...(input.folio ? { folio: cfdiText(input.folio, 40) } : {}),
    fecha: mexicoDateTime(input.issuedAt),
    noCertificado: input.csd.certificateNumber,
    certificado: input.csd.certificateBase64,
    lugarExpedicion: input.lugarExpedicion,
    emisor: { ...input.emisor, nombre: cfdiText(input.emisor.nombre, 300) },
    receptor: { ...input.receptor, nombre: cfdiText(input.receptor.nombre, 300), usoCfdi: 'CP01' },
    pago: {
      // The time of a transfer is not on a bank statement line: noon of the day it arrived.
      fechaPago: `${pago.receivedOn}T12:00:00`,
      formaDePagoP: pago.formaDePagoP,
      monto: centsToDecimal(pago.montoCents),
      ...(pago.numOperacion ? { numOperacion: cfdiText(pago.numOperacion, 100) } : {}),
      documentos: pago.documentos.map((d) => ({
        idDocumento: d.uuid,
        ...(d.serie ? { serie: cfdiText(d.serie, 25) } : {}),
        ...(d.folio ? { folio: cfdiText(d.folio, 40) } : {}),
        numParcialidad: String(d.numParcialidad),
        impSaldoAnt: centsToDecimal(d.saldoAnteriorCents),
        impPagado: centsToDecimal(d.pagadoCents),
        impSaldoInsoluto: centsToDecimal(d.saldoAnteriorCents - d.pagadoCents),
        baseDR: centsToDecimal(d.baseCents),
        importeDR: centsToDecimal(d.ivaCents),
      })),
      baseP: centsToDecimal(base),
      importeP: centsToDecimal(iva),
    },
    totales: {
      baseIva16: centsToDecimal(base),
      impuestoIva16: centsToDecimal(iva),
      montoTotalPagos: centsToDecimal(pago.montoCents),
    },
  };
}

/** The cadena original (cadenaoriginal_4_0.xslt + Pagos20.xslt) of what we emit. */
export function cadenaOriginalPago(c: ComprobantePago): string {
  const out: string[] = [];
  const req = (v: string) => out.push(normalizeSpace(v));
  const opt = (v: string | undefined) => {
    if (v !== undefined) out.push(normalizeSpace(v));
  };
  req('4.0');
  opt(c.serie);
  opt(c.folio);
  req(c.fecha);
  req(c.noCertificado);
  req('0');
  req('XXX');
  req('0');
  req('P');
  req('01');
  req(c.lugarExpedicion);
  req(c.emisor.rfc);
  req(c.emisor.nombre);
  req(c.emisor.regimenFiscal);
  req(c.receptor.rfc);
  req(c.receptor.nombre);
  req(c.receptor.domicilioFiscal);
  req(c.receptor.regimenFiscal);
  req(c.receptor.usoCfdi);
  // The Concepto of every CFDI de pago.
  for (const v of ['84111506', '1', 'ACT', 'Pago', '0', '0', '01']) req(v);
  // Complemento: pago20:Pagos.
  req('2.0');
  opt(c.totales.baseIva16);
  opt(c.totales.impuestoIva16);
  req(c.totales.montoTotalPagos);
  const p = c.pago;
  req(p.fechaPago);
  req(p.formaDePagoP);
  req('MXN');
  opt('1');
  req(p.monto);
  opt(p.numOperacion);
  for (const d of p.documentos) {
    req(d.idDocumento);
    opt(d.serie);
    opt(d.folio);
    req('MXN');
    opt('1');
    req(d.numParcialidad);
    req(d.impSaldoAnt);
    req(d.impPagado);
    req(d.impSaldoInsoluto);
    req('02');
    req(d.baseDR);
    req('002');
    req('Tasa');
    opt(IVA_RATE);
    opt(d.importeDR);
  }
  req(p.baseP);
  req('002');
  req('Tasa');
  opt(IVA_RATE);
  opt(p.importeP);
  return `||${out.join('|')}||`;
}

const attrs = (pairs: [string, string | undefined][]) =>
  pairs
    .filter((p): p is [string, string] => p[1] !== undefined)
    .map(([k, v]) => ` ${k}="${escapeXmlAttribute(v)}"`)
    .join('');

/** The pago20:Pagos element (the complemento, before the TFD). */
function pagosXml(c: ComprobantePago): string {
  const p = c.pago;
  const traslado = (prefix: 'DR' | 'P', base: string, importe: string) =>
    `<pago20:Traslado${prefix}${attrs([
      [`Base${prefix}`, base],
      [`Impuesto${prefix}`, '002'],
      [`TipoFactor${prefix}`, 'Tasa'],
      [`TasaOCuota${prefix}`, IVA_RATE],
      [`Importe${prefix}`, importe],
    ])}/>`;
  const docs = p.documentos
    .map(
      (d) =>
        `<pago20:DoctoRelacionado${attrs([
          ['IdDocumento', d.idDocumento],
          ['Serie', d.serie],
          ['Folio', d.folio],
          ['MonedaDR', 'MXN'],
          ['EquivalenciaDR', '1'],
          ['NumParcialidad', d.numParcialidad],
          ['ImpSaldoAnt', d.impSaldoAnt],
          ['ImpPagado', d.impPagado],
          ['ImpSaldoInsoluto', d.impSaldoInsoluto],
          ['ObjetoImpDR', '02'],
        ])}><pago20:ImpuestosDR><pago20:TrasladosDR>${traslado('DR', d.baseDR, d.importeDR)}</pago20:TrasladosDR></pago20:ImpuestosDR></pago20:DoctoRelacionado>`,
    )
    .join('');
  return (
    `<pago20:Pagos${attrs([['Version', '2.0']])}>` +
    `<pago20:Totales${attrs([
      ['TotalTrasladosBaseIVA16', c.totales.baseIva16],
      ['TotalTrasladosImpuestoIVA16', c.totales.impuestoIva16],
      ['MontoTotalPagos', c.totales.montoTotalPagos],
    ])}/>` +
    `<pago20:Pago${attrs([
      ['FechaPago', p.fechaPago],
      ['FormaDePagoP', p.formaDePagoP],
      ['MonedaP', 'MXN'],
      ['TipoCambioP', '1'],
      ['Monto', p.monto],
      ['NumOperacion', p.numOperacion],
    ])}>${docs}<pago20:ImpuestosP><pago20:TrasladosP>${traslado('P', p.baseP, p.importeP)}</pago20:TrasladosP></pago20:ImpuestosP></pago20:Pago>` +
    '</pago20:Pagos>'
  );
}

/** The CFDI de pago as XML (UTF-8), with its complemento Pagos; the PAC adds the TFD inside the same Complemento. */
export function comprobantePagoXml(c: ComprobantePago): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<cfdi:Comprobante xmlns:cfdi="${CFDI_NS}" xmlns:pago20="${PAGOS_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"${attrs(
      [
        ['xsi:schemaLocation', SCHEMA_LOCATION],
        ['Version', '4.0'],
        ['Serie', c.serie],
        ['Folio', c.folio],
        ['Fecha', c.fecha],
        ['Sello', c.sello ?? ''],
        ['NoCertificado', c.noCertificado],
        ['Certificado', c.certificado],
        ['SubTotal', '0'],
        ['Moneda', 'XXX'],
        ['Total', '0'],
        ['TipoDeComprobante', 'P'],
        ['Exportacion', '01'],
        ['LugarExpedicion', c.lugarExpedicion],
      ],
    )}>` +
    `<cfdi:Emisor${attrs([
      ['Rfc', c.emisor.rfc],
      ['Nombre', c.emisor.nombre],
      ['RegimenFiscal', c.emisor.regimenFiscal],
    ])}/>` +
    `<cfdi:Receptor${attrs([
      ['Rfc', c.receptor.rfc],
      ['Nombre', c.receptor.nombre],
      ['DomicilioFiscalReceptor', c.receptor.domicilioFiscal],
      ['RegimenFiscalReceptor', c.receptor.regimenFiscal],
      ['UsoCFDI', c.receptor.usoCfdi],
    ])}/>` +
    `<cfdi:Conceptos><cfdi:Concepto${attrs([
      ['ClaveProdServ', '84111506'],
      ['Cantidad', '1'],
      ['ClaveUnidad', 'ACT'],
      ['Descripcion', 'Pago'],
      ['ValorUnitario', '0'],
      ['Importe', '0'],
      ['ObjetoImp', '01'],
    ])}/></cfdi:Conceptos>` +
    `<cfdi:Complemento>${pagosXml(c)}</cfdi:Complemento>` +
    '</cfdi:Comprobante>\n'
  );
}

export function sealComprobantePago(
  c: ComprobantePago,
  csd: Pick<Csd, 'sign'>,
): { comprobante: ComprobantePago; cadena: string } {
  const cadena = cadenaOriginalPago(c);
  return { comprobante: { ...c, sello: csd.sign(cadena) }, cadena };
}

/**
 * The IVA share of a payment to an invoice (TrasladoDR), exact in centavos: the invoice's IVA in proportion to what
 * has been paid of it after this payment, minus the same before it — so the parcialidades' ImporteDR add up to the
 * invoice's IVA and their BaseDR to its base, to the centavo, when the saldo insoluto reaches 0.00.
 */
export function ivaShare(
  invoice: { totalCents: number; ivaCents: number },
  paidBefore: number,
  paid: number,
) {
  const upTo = (cents: number) => Math.round((invoice.ivaCents * cents) / invoice.totalCents);
  const ivaCents = upTo(paidBefore + paid) - upTo(paidBefore);
  return { baseCents: paid - ivaCents, ivaCents };
}
