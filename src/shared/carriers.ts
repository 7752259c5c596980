/**
 * The carriers a shipment may go with (decision 061), each with the rule its tracking number must follow and the
 * page where the buyer follows it. Which of them the shop offers is config/shop.json → shipping.carriers.
 *
 * Formats: DHL Express — 10 digits (DHL's own "tracking ID labels" page); FedEx — 12 or 15 digits (Express and
 * Ground; 20- and 22-digit SmartPost numbers exist too and are accepted); Estafeta — a 22-character guide
 * (número de guía) or a 10-digit tracking code (código de rastreo), the two things Estafeta's tracking page takes.
 * Paquetexpress and 99minutos publish no format: a lenient but checked rule (letters and digits, a length range).
 */
export const CARRIERS = [
  {
    id: 'estafeta',
    name: 'Estafeta',
    pattern: /^(?:[0-9A-Z]{22}|\d{10})$/,
    hint: 'La guía de Estafeta tiene 22 caracteres (letras y números) o el código de rastreo 10 dígitos',
    url: (n: string) => `https://www.estafeta.com/Herramientas/Rastreo?wayBill=${encodeURIComponent(n)}`,
  },
  {
    id: 'dhl',
    name: 'DHL Express',
    pattern: /^\d{10}$/,
    hint: 'La guía de DHL Express tiene 10 dígitos',
    url: (n: string) => `https://www.dhl.com/mx-es/home/rastreo.html?tracking-id=${encodeURIComponent(n)}`,
  },
  {
    id: 'fedex',
    name: 'FedEx',
    pattern: /^(?:\d{12}|\d{15}|\d{20}|\d{22})$/,
    hint: 'El número de rastreo de FedEx tiene 12 o 15 dígitos',
    url: (n: string) => `https://www.fedex.com/fedextrack/?trknbr=${encodeURIComponent(n)}`,
  },
  {
    id: 'paquetexpress',
    name: 'Paquetexpress',
    pattern: /^[0-9A-Z]{9,20}$/,
    hint: 'La guía de Paquetexpress tiene de 9 a 20 letras y números',
    url: (n: string) => `https://www.paquetexpress.com.mx/rastreo/${encodeURIComponent(n)}`,
  },
  {
    id: '99minutos',
    name: '99minutos',
    pattern: /^[0-9A-Z]{6,20}$/,
    hint: 'La guía de 99minutos tiene de 6 a 20 letras y números',
    url: (n: string) => `https://tracking.99minutos.com/search/${encodeURIComponent(n)}`,
  },
  {
    id: 'own',
    name: 'Entrega propia',
    pattern: /^[0-9A-Z-]{3,30}$/,
    hint: 'La referencia de la entrega propia tiene de 3 a 30 letras, números o guiones',
    url: null,
  },
] as const;

export type CarrierId = (typeof CARRIERS)[number]['id'];
export const CARRIER_IDS = CARRIERS.map((c) => c.id) as [CarrierId, ...CarrierId[]];

export const carrierOf = (id: string) => CARRIERS.find((c) => c.id === id) ?? null;

/** A number as staff type it ('7788 1234 56', lower case) in the form carriers print it. */
export const normalizeTracking = (n: string) => n.replace(/[\s]/g, '').toUpperCase();

/** Why a tracking number does not fit its carrier, or null. */
export function trackingProblem(carrier: CarrierId, number: string): string | null {
  const c = carrierOf(carrier);
  if (!c) return 'Elija una paquetería de la lista';
  return c.pattern.test(normalizeTracking(number)) ? null : c.hint;
}

/** The carrier's page for this number; null for the shop's own delivery or a carrier it does not know. */
export function trackingUrl(carrier: string, number: string | null): string | null {
  const c = carrierOf(carrier);
  if (!c?.url || !number) return null;
  return c.url(number);
}
