import { unescapeXml } from '../../../shared/escape.ts';
import { escapeXmlAttribute, normalizeSpace } from '../cfdi.ts';

export const TFD_NS = 'http://www.sat.gob.mx/TimbreFiscalDigital';

export type Tfd = {
  uuid: string;
  fechaTimbrado: string;
  rfcProvCertif: string;
  leyenda?: string | undefined;
  selloCfd: string;
  noCertificadoSat: string;
  selloSat: string;
};

/** SAT's cadenaoriginal_TFD_1_1.xslt for the TimbreFiscalDigital (what SelloSAT signs). */
export function tfdCadenaOriginal(t: Omit<Tfd, 'selloSat'>): string {
  const parts = ['1.1', t.uuid, t.fechaTimbrado, t.rfcProvCertif];
  if (t.leyenda) parts.push(t.leyenda);
  parts.push(t.selloCfd, t.noCertificadoSat);
  return `||${parts.map(normalizeSpace).join('|')}||`;
}

export function tfdXml(t: Tfd): string {
  const a = (k: string, v: string | undefined) => (v === undefined ? '' : ` ${k}="${escapeXmlAttribute(v)}"`);
  return (
    `<tfd:TimbreFiscalDigital xmlns:tfd="${TFD_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"` +
    a(
      'xsi:schemaLocation',
      `${TFD_NS} http://www.sat.gob.mx/sitio_internet/cfd/TimbreFiscalDigital/TimbreFiscalDigitalv11.xsd`,
    ) +
    a('Version', '1.1') +
    a('UUID', t.uuid) +
    a('FechaTimbrado', t.fechaTimbrado) +
    a('RfcProvCertif', t.rfcProvCertif) +
    a('Leyenda', t.leyenda) +
    a('SelloCFD', t.selloCfd) +
    a('NoCertificadoSAT', t.noCertificadoSat) +
    a('SelloSAT', t.selloSat) +
    '/>'
  );
}

/** Puts the TFD inside cfdi:Complemento (creating it when absent), as a PAC does. */
export function insertComplemento(xml: string, tfd: string): string {
  if (xml.includes('</cfdi:Complemento>'))
    return xml.replace('</cfdi:Complemento>', `${tfd}</cfdi:Complemento>`);
  const end = xml.lastIndexOf('</cfdi:Comprobante>');
  if (end < 0) throw new Error('XML sin cfdi:Comprobante');
  // The Complemento goes after Impuestos and before an Addenda.
  const addenda = xml.indexOf('<cfdi:Addenda');
  const at = addenda >= 0 ? addenda : end;
  return `${xml.slice(0, at)}<cfdi:Complemento>${tfd}</cfdi:Complemento>${xml.slice(at)}`;
}

/** The value of one attribute of the first element named `element` (enough for our own CFDIs). */
export function readAttribute(xml: string, element: string, attribute: string): string | undefined {
  const start = xml.indexOf(`<${element}`);
  if (start < 0) return undefined;
  const end = xml.indexOf('>', start);
  const tag = xml.slice(start, end);
  const match = new RegExp(`\\s${attribute}="([^"]*)"`).exec(tag);
  if (!match) return undefined;
  return unescapeXml(match[1] ?? '');
}
