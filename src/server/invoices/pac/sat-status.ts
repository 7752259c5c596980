import { escapeMarkup, unescapeXml } from '../../../shared/escape.ts';
/**
 * SAT's CFDI status service (ConsultaCFDIService, SOAP): whether a CFDI is valid or cancelled and where its
 * cancellation stands — the only place that tells a receptor's rejection apart ("Solicitud rechazada").
 * Same service as the printed QR's verification page; no credentials.
 */
export const SAT_STATUS_PRODUCTION =
  'https://consultaqr.facturaelectronica.sat.gob.mx/ConsultaCFDIService.svc';
export const SAT_STATUS_TEST = 'https://pruebacfdiconsultaqr.cloudapp.net/ConsultaCFDIService.svc';
const SOAP_ACTION = 'http://tempuri.org/IConsultaCFDIService/Consulta';

/**
 * The total as the QR's `tt` wants it (Anexo 20, Estándar de la representación impresa, CFDI 3.3/4.0: up to
 * 25 positions, 18 integers, '.', 6 decimals, without the non-significant zeros): six decimals, trailing
 * zeros dropped, one kept after the point ("1243.10" → "1243.1", "1000.00" → "1000.0"), no leading zeros
 * ("0.50" → "0.5"). Same result as nodecfdi/cfdi-expresiones' FormatTotal18x6.
 */
export function qrTotal(total: string): string {
  const [whole = '0', frac = ''] = total.trim().split('.');
  const integer = whole.replace(/^0+(?=\d)/, '');
  const decimals = (frac + '000000').slice(0, 6).replace(/0+$/, '');
  return `${integer}.${decimals || '0'}`;
}

export type SatStatus = {
  /** 'S - Comprobante obtenido satisfactoriamente.' or 'N - 60x: …' (not found). */
  codigoEstatus: string;
  /** 'Vigente', 'Cancelado' or 'No Encontrado'. */
  estado: string;
  /** '', 'En proceso', 'Solicitud rechazada', 'Cancelado con aceptación', 'Cancelado sin aceptación', 'Plazo vencido'. */
  estatusCancelacion: string;
};

/** The printed expression SAT keys on: issuer and receptor RFC, total, UUID. */
export function statusExpression(q: {
  issuerRfc: string;
  receiverRfc: string;
  totalCents: number;
  uuid: string;
}) {
  const total = qrTotal(`${Math.trunc(q.totalCents / 100)}.${String(q.totalCents % 100).padStart(2, '0')}`);
  return `?re=${q.issuerRfc}&rr=${q.receiverRfc}&tt=${total}&id=${q.uuid.toUpperCase()}`;
}

export async function querySatStatus(
  url: string,
  q: { issuerRfc: string; receiverRfc: string; totalCents: number; uuid: string },
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): Promise<SatStatus> {
  const envelope =
    '<?xml version="1.0" encoding="utf-8"?>' +
    '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>' +
    `<c:Consulta xmlns:c="http://tempuri.org/"><c:expresionImpresa>${escapeMarkup(statusExpression(q))}</c:expresionImpresa></c:Consulta>` +
    '</s:Body></s:Envelope>';
  const response = await (options.fetch ?? fetch)(url, {
    method: 'POST',
    headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: SOAP_ACTION },
    body: envelope,
    signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`consulta de estado del SAT: HTTP ${response.status}`);
  const field = (name: string) =>
    unescapeXml(new RegExp(`<(?:\\w+:)?${name}>([^<]*)</(?:\\w+:)?${name}>`).exec(text)?.[1]?.trim() ?? '');
  return {
    codigoEstatus: field('CodigoEstatus'),
    estado: field('Estado'),
    estatusCancelacion: field('EstatusCancelacion'),
  };
}
