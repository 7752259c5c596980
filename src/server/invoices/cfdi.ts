/**
 * CFDI 4.0 "Comprobante de ingreso" for one order: the data model, its XML and its cadena original.
 *
 * The cadena original is built here, in code, following SAT's cadenaoriginal_4_0.xslt for exactly the
 * nodes we emit (CfdiRelacionados when a CFDI replaces or credits another; no InformacionGlobal, retenciones or
 * complementos before stamping):
 * attributes in the XSLT's order, each as "|" + normalize-space(value), optional ones only when
 * present, the whole wrapped in "||…||". Running the SAT XSLT needs an XSLT 2.0 processor (Saxon,
 * Java); a test checks our cadena against the output of SAT's stylesheet for a fixture instead.
 * See docs/decisions/007-cfdi-generation-and-signing.md.
 */
import type { CfdiAmounts } from './amounts.ts';
import { centsToDecimal } from './amounts.ts';
import type { Csd } from './csd.ts';

export const CFDI_NS = 'http://www.sat.gob.mx/cfd/4';
export const CFDI_SCHEMA_LOCATION =
  'http://www.sat.gob.mx/cfd/4 http://www.sat.gob.mx/sitio_internet/cfd/4/cfdv40.xsd';
export const IVA_RATE = '0.160000';

export type Party = { rfc: string; nombre: string; regimenFiscal: string };
export type Receptor = Party & { domicilioFiscal: string; usoCfdi: string };

export type Concepto = {
  claveProdServ: string;
  noIdentificacion?: string | undefined;
  cantidad: string;
  claveUnidad: string;
  descripcion: string;
  valorUnitario: string;
  importe: string;
  /** Only when part of the sale was given back before it was invoiced (amounts.ts). */
  descuento?: string | undefined;
  objetoImp: '02';
  traslado: { base: string; importe: string };
};

/** CfdiRelacionados: '04' substitution of earlier CFDIs (motivo 01), '01' credit note of an invoice. */
export type Relacionados = { tipoRelacion: '01' | '04'; uuids: string[] };

/** InformacionGlobal of a CFDI global to the público en general: c_Periodicidad, c_Meses, the year. */
export type InformacionGlobal = { periodicidad: '04'; meses: string; anio: string };

export type Comprobante = {
  /** Only on the CFDI global (decision 023). */
  informacionGlobal?: InformacionGlobal | undefined;
  /** 'I' ingreso (default), 'E' egreso (credit note). */
  tipoDeComprobante?: 'I' | 'E' | undefined;
  cfdiRelacionados?: Relacionados | undefined;
  serie?: string | undefined;
  folio?: string | undefined;
  /** Local date-time of the place of issue, AAAA-MM-DDThh:mm:ss. */
  fecha: string;
  formaPago: string;
  /** 'PPD' for a sale on credit (decision 060: FormaPago 99, paid later with CFDI de pago); absent: 'PUE'. */
  metodoPago?: 'PPD' | undefined;
  /** CondicionesDePago, e.g. 'Crédito a 30 días' (only on a PPD invoice). */
  condicionesDePago?: string | undefined;
  noCertificado: string;
  certificado: string;
  subTotal: string;
  /** Σ of the concepts' Descuento; absent when none has one. */
  descuento?: string | undefined;
  total: string;
  lugarExpedicion: string;
  emisor: Party;
  receptor: Receptor;
  conceptos: Concepto[];
  impuestos: { totalTrasladados: string; base: string; importe: string };
  sello?: string;
};

/** XPath's normalize-space: trim and collapse runs of XML whitespace to one space. */
export const normalizeSpace = (value: string) => value.replace(/[\t\n\r ]+/g, ' ').trim();

/** Text for a CFDI attribute: normalized, without '|' (forbidden by the XSD patterns), at most `max` chars. */
export function cfdiText(value: string, max: number): string {
  const clean = normalizeSpace(value.replace(/\|/g, '-'));
  return clean.length > max ? clean.slice(0, max).trimEnd() : clean;
}

const mexicoFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Mexico_City',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** Date-time in Mexico City (central time, no DST since 2022) as AAAA-MM-DDThh:mm:ss. */
export function mexicoDateTime(date: Date): string {
  const parts = mexicoFormat.formatToParts(date);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}:${get('second')}`;
}

export type BuildInput = {
  amounts: CfdiAmounts;
  emisor: Party;
  lugarExpedicion: string;
  receptor: Receptor;
  formaPago: string;
  serie?: string;
  folio?: string;
  issuedAt: Date;
  csd: Pick<Csd, 'certificateNumber' | 'certificateBase64'>;
  tipoDeComprobante?: 'I' | 'E';
  cfdiRelacionados?: Relacionados;
  informacionGlobal?: InformacionGlobal;
  metodoPago?: 'PPD';
  condicionesDePago?: string;
};

export function buildComprobante(input: BuildInput): Comprobante {
  const { amounts } = input;
  return {
    ...(input.informacionGlobal ? { informacionGlobal: input.informacionGlobal } : {}),
    ...(input.tipoDeComprobante === 'E' ? { tipoDeComprobante: 'E' as const } : {}),
    ...(input.cfdiRelacionados ? { cfdiRelacionados: input.cfdiRelacionados } : {}),
    ...(input.serie ? { serie: cfdiText(input.serie, 25) } : {}),
    ...(input.folio ? { folio: cfdiText(input.folio, 40) } : {}),
    fecha: mexicoDateTime(input.issuedAt),
    formaPago: input.formaPago,
    ...(input.metodoPago ? { metodoPago: input.metodoPago } : {}),
    ...(input.condicionesDePago ? { condicionesDePago: cfdiText(input.condicionesDePago, 1000) } : {}),
    noCertificado: input.csd.certificateNumber,
    certificado: input.csd.certificateBase64,
    subTotal: centsToDecimal(amounts.subtotalCents),
    ...(amounts.discountCents > 0 ? { descuento: centsToDecimal(amounts.discountCents) } : {}),
    total: centsToDecimal(amounts.totalCents),
    lugarExpedicion: input.lugarExpedicion,
    emisor: { ...input.emisor, nombre: cfdiText(input.emisor.nombre, 300) },
    receptor: { ...input.receptor, nombre: cfdiText(input.receptor.nombre, 300) },
    conceptos: amounts.concepts.map((c) => ({
      claveProdServ: c.productKey,
      ...(c.code ? { noIdentificacion: cfdiText(c.code, 100) } : {}),
      cantidad: String(c.quantity),
      claveUnidad: c.unitKey,
      descripcion: cfdiText(c.description, 1000) || 'Producto',
      valorUnitario: c.unitValue,
      importe: centsToDecimal(c.baseCents),
      ...(amounts.discountCents > 0 ? { descuento: centsToDecimal(c.discountCents) } : {}),
      objetoImp: '02',
      traslado: { base: centsToDecimal(c.taxBaseCents), importe: centsToDecimal(c.ivaCents) },
    })),
    impuestos: {
      totalTrasladados: centsToDecimal(amounts.ivaCents),
      base: centsToDecimal(amounts.taxBaseCents),
      importe: centsToDecimal(amounts.ivaCents),
    },
  };
}

/** The cadena original of the Comprobante (what the Sello signs). */
export function cadenaOriginal(c: Comprobante): string {
  const out: string[] = [];
  const req = (v: string) => out.push(normalizeSpace(v));
  const opt = (v: string | undefined) => {
    if (v !== undefined) out.push(normalizeSpace(v));
  };
  req('4.0');
  opt(c.serie);
  opt(c.folio);
  req(c.fecha);
  opt(c.formaPago);
  req(c.noCertificado);
  opt(c.condicionesDePago);
  req(c.subTotal);
  opt(c.descuento);
  req('MXN');
  req(c.total);
  req(c.tipoDeComprobante ?? 'I');
  req('01');
  opt(c.metodoPago ?? 'PUE');
  req(c.lugarExpedicion);
  // cadenaoriginal_4_0.xslt: InformacionGlobal (Periodicidad, Meses, Año) right after the Comprobante's attributes.
  if (c.informacionGlobal) {
    req(c.informacionGlobal.periodicidad);
    req(c.informacionGlobal.meses);
    req(c.informacionGlobal.anio);
  }
  if (c.cfdiRelacionados) {
    req(c.cfdiRelacionados.tipoRelacion);
    for (const uuid of c.cfdiRelacionados.uuids) req(uuid);
  }
  req(c.emisor.rfc);
  req(c.emisor.nombre);
  req(c.emisor.regimenFiscal);
  req(c.receptor.rfc);
  req(c.receptor.nombre);
  req(c.receptor.domicilioFiscal);
  req(c.receptor.regimenFiscal);
  req(c.receptor.usoCfdi);
  for (const k of c.conceptos) {
    req(k.claveProdServ);
    opt(k.noIdentificacion);
    req(k.cantidad);
    req(k.claveUnidad);
    req(k.descripcion);
    req(k.valorUnitario);
    req(k.importe);
    opt(k.descuento);
    req(k.objetoImp);
    req(k.traslado.base);
    req('002');
    req('Tasa');
    opt(IVA_RATE);
    opt(k.traslado.importe);
  }
  req(c.impuestos.base);
  req('002');
  req('Tasa');
  opt(IVA_RATE);
  opt(c.impuestos.importe);
  opt(c.impuestos.totalTrasladados);
  return `||${out.join('|')}||`;
}

export function escapeXmlAttribute(value: string): string {
  return value.replace(
    /[&<>"\t\n\r]/g,
    (ch) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' })[
        ch
      ] ?? ch,
  );
}

const attrs = (pairs: [string, string | undefined][]) =>
  pairs
    .filter((p): p is [string, string] => p[1] !== undefined)
    .map(([k, v]) => ` ${k}="${escapeXmlAttribute(v)}"`)
    .join('');

/** The Comprobante as XML (UTF-8); `complemento` is inserted as-is (the stamp). */
export function comprobanteXml(c: Comprobante, complemento?: string): string {
  const conceptos = c.conceptos
    .map(
      (k) =>
        `<cfdi:Concepto${attrs([
          ['ClaveProdServ', k.claveProdServ],
          ['NoIdentificacion', k.noIdentificacion],
          ['Cantidad', k.cantidad],
          ['ClaveUnidad', k.claveUnidad],
          ['Descripcion', k.descripcion],
          ['ValorUnitario', k.valorUnitario],
          ['Importe', k.importe],
          ['Descuento', k.descuento],
          ['ObjetoImp', k.objetoImp],
        ])}><cfdi:Impuestos><cfdi:Traslados><cfdi:Traslado${attrs([
          ['Base', k.traslado.base],
          ['Impuesto', '002'],
          ['TipoFactor', 'Tasa'],
          ['TasaOCuota', IVA_RATE],
          ['Importe', k.traslado.importe],
        ])}/></cfdi:Traslados></cfdi:Impuestos></cfdi:Concepto>`,
    )
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<cfdi:Comprobante xmlns:cfdi="${CFDI_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"${attrs([
      ['xsi:schemaLocation', CFDI_SCHEMA_LOCATION],
      ['Version', '4.0'],
      ['Serie', c.serie],
      ['Folio', c.folio],
      ['Fecha', c.fecha],
      ['Sello', c.sello ?? ''],
      ['FormaPago', c.formaPago],
      ['NoCertificado', c.noCertificado],
      ['Certificado', c.certificado],
      ['CondicionesDePago', c.condicionesDePago],
      ['SubTotal', c.subTotal],
      ['Descuento', c.descuento],
      ['Moneda', 'MXN'],
      ['Total', c.total],
      ['TipoDeComprobante', c.tipoDeComprobante ?? 'I'],
      ['Exportacion', '01'],
      ['MetodoPago', c.metodoPago ?? 'PUE'],
      ['LugarExpedicion', c.lugarExpedicion],
    ])}>` +
    (c.informacionGlobal
      ? `<cfdi:InformacionGlobal${attrs([
          ['Periodicidad', c.informacionGlobal.periodicidad],
          ['Meses', c.informacionGlobal.meses],
          ['Año', c.informacionGlobal.anio],
        ])}/>`
      : '') +
    (c.cfdiRelacionados
      ? `<cfdi:CfdiRelacionados${attrs([['TipoRelacion', c.cfdiRelacionados.tipoRelacion]])}>${c.cfdiRelacionados.uuids
          .map((uuid) => `<cfdi:CfdiRelacionado${attrs([['UUID', uuid]])}/>`)
          .join('')}</cfdi:CfdiRelacionados>`
      : '') +
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
    `<cfdi:Conceptos>${conceptos}</cfdi:Conceptos>` +
    `<cfdi:Impuestos${attrs([['TotalImpuestosTrasladados', c.impuestos.totalTrasladados]])}><cfdi:Traslados><cfdi:Traslado${attrs(
      [
        ['Base', c.impuestos.base],
        ['Impuesto', '002'],
        ['TipoFactor', 'Tasa'],
        ['TasaOCuota', IVA_RATE],
        ['Importe', c.impuestos.importe],
      ],
    )}/></cfdi:Traslados></cfdi:Impuestos>` +
    (complemento ? `<cfdi:Complemento>${complemento}</cfdi:Complemento>` : '') +
    '</cfdi:Comprobante>\n'
  );
}

/** Seals the Comprobante: Sello = base64(RSA-SHA256(cadena original)) with the CSD. */
export function sealComprobante(
  c: Comprobante,
  csd: Pick<Csd, 'sign'>,
): { comprobante: Comprobante; cadena: string } {
  const cadena = cadenaOriginal(c);
  return { comprobante: { ...c, sello: csd.sign(cadena) }, cadena };
}
