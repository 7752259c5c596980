import { formatMoney } from './money.ts';
import { shop } from './shop.ts';

/**
 * The figures of the general conditions of sale (spec §9), defined once: the page /condiciones_de_venta and the
 * quotation PDF both read them, so a change of policy is one edit here (and a review of the page's prose).
 */
export const SALES_TERMS = {
  /** Quoted prices are firm this many calendar days (config/shop.json → quotations.validityDays). */
  priceValidityDays: shop.quotations.validityDays,
  minCashInvoiceCents: 300_00,
  minCreditInvoiceCents: 2_000_00,
  localDeliveryMinCents: 5_000_00,
  /** Days after delivery to ask for a return (config/shop.json → returns.windowDays; the request form reads it). */
  returnDays: shop.returns.windowDays,
  warrantyYears: 1,
  faultReportDays: 10,
} as const;

const t = SALES_TERMS;

/** The conditions as one-line sentences, as the quotation prints them (the page says the same at length). */
export const QUOTATION_TERMS: readonly string[] = [
  `Precios firmes por ${t.priceValidityDays} días naturales a partir de la fecha de esta cotización, en pesos mexicanos (MXN) con IVA incluido.`,
  'Existencias sujetas a disponibilidad al momento de confirmar el pedido.',
  // The online shop sells for payment before shipping only: no credit line is promised (issue 37) until the shop
  // sells on account.
  `Pago antes del envío con tarjeta, transferencia SPEI o efectivo en tienda; facturación mínima de ${formatMoney(t.minCashInvoiceCents)} más IVA.`,
  'Los productos sobre pedido se entregan en el plazo indicado en cada partida, en días hábiles a partir del pago.',
  `Entrega local en la zona metropolitana de Guadalajara con pedido mínimo de ${formatMoney(t.localDeliveryMinCents)} (no aplica a distribuidores). Fletes por cuenta del cliente, LAB Guadalajara.`,
  `Devoluciones solo de mercancía de línea dentro de los ${t.returnDays} días siguientes a la entrega; no se aceptan devoluciones de reactivos químicos ni biológicos.`,
  `Garantía de ${t.warrantyYears} año en equipos contra defectos de fabricación; las fallas se reportan dentro de los ${t.faultReportDays} días siguientes a la recepción. Sin garantía en lámparas, electrodos, resistencias y otras partes de desgaste.`,
  'No se aceptan pedidos por teléfono ni cancelaciones de pedidos ya procesados.',
];
