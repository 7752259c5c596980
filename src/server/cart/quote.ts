import { inArray } from 'drizzle-orm';
import { leadTimeOf, splitQuantity } from '../../shared/backorder.ts';
import { chargeLimitMessage, methodsThatCanPay } from '../../shared/charge-limits.ts';
import type { DeliveryMethod } from '../../shared/delivery.ts';
import { saleIva } from '../../shared/money.ts';
import type { PaymentMethod } from '../../shared/payment-methods.ts';
import { presentationName } from '../../shared/presentation-name.ts';
import type { CartQuote, QuoteLine } from '../../shared/schemas/cart.ts';
import { shop } from '../../shared/shop.ts';
import { nextBreak, type PriceBreak, unitPriceFor } from '../../shared/volume-prices.ts';
import { contractPricesOn } from '../contract-prices/prices.ts';
import type { Db } from '../db/client.ts';
import { priceBreaks, products } from '../db/schema.ts';
import { conflict } from '../http/errors.ts';
import { hazardsOf, pricedOptions } from '../shipments/delivery-options.ts';

export type { CartQuote, QuoteLine };
export type ShippingRule = { baseCents: number; baseKg: number; extraKgCents: number };
/** Whom the cart is priced for: an institution's contract prices apply in place of list and volume prices. */
/**
 * Whom and how a cart is priced for: an institution's contract prices (decision 059) at a moment, and the way it is
 * delivered (decision 061: ground by default; air and the hazardous surcharge change the shipping).
 */
export type PricedFor = { institutionId?: number | null; at?: Date; deliveryMethod?: DeliveryMethod };

/** The same address the catalogue gives a product's image (the content hash makes it cacheable for a year). */
export function productImageUrl(code: string, imageHash: string | null): string | null {
  return imageHash ? `/api/products/${encodeURIComponent(code)}/image?v=${imageHash}` : null;
}

/** Weights are added in whole grams so that 0.1 kg × 3 is 0.3 kg, not 0.30000000000000004. */
const grams = (kg: number) => Math.round(kg * 1000);

/**
 * Shipping price of a non-empty cart (SPEC-NOTES 5), from `config/shop.json` → `shipping`, IVA included:
 * `baseCents` covers up to `baseKg`; every additional kilogram, or part of one, adds `extraKgCents`.
 * With the default rule { baseCents: 30000, baseKg: 5, extraKgCents: 3000 }:
 *   0 kg    → $300.00 (a non-empty cart of weightless items still ships; an EMPTY cart is 0 — see quoteCart)
 *   5 kg    → $300.00 (exactly the base weight)
 *   5.01 kg → $330.00 (a started kilogram counts whole)
 *   6 kg    → $330.00
 *   6.2 kg  → $360.00
 */
export function shippingCentsForWeight(totalKg: number, rule: ShippingRule = shop.shipping): number {
  const extraGrams = grams(Math.max(0, totalKg)) - grams(rule.baseKg);
  if (!Number.isFinite(extraGrams) || extraGrams <= 0) return rule.baseCents;
  return rule.baseCents + Math.ceil(extraGrams / 1000) * rule.extraKgCents;
}

const NOT_FOUND = 'Producto no encontrado';
const INACTIVE = 'Producto no disponible';

function stockError(stock: number): string {
  if (stock < 1) return 'Sin existencia';
  return `Solo hay ${stock} ${stock === 1 ? 'disponible' : 'disponibles'}`;
}

/**
 * Prices a cart from the database only: the browser sends codes and quantities, never amounts. Each line carries the
 * server's price, stock and availability, or a Spanish error (unknown code, inactive product, not enough stock).
 * Unknown and inactive lines count for nothing; lines beyond stock are still priced so the shopper sees the amount,
 * but the quote is not `ok` — unless the product is 'sobre pedido' (decision 029): then the line is available and
 * says how many of its units stock does not cover (`backordered`, shipped within `leadTime`). Total = subtotal + shipping; the IVA is the part the total already includes.
 * The quote says which ways of payment the total fits (`paymentMethods`); refusing is the caller's, with
 * refuseOverLimit, since a quotation above a limit is still issued (decision 048).
 */
export async function quoteCart(
  db: Db,
  items: readonly { code: string; quantity: number }[],
  rule: ShippingRule = shop.shipping,
  pricedFor: PricedFor = {},
): Promise<CartQuote> {
  const deliveryMethod = pricedFor.deliveryMethod ?? 'ground';
  const codes = [...new Set(items.map((i) => i.code))];
  // An institution's contract prices (decision 059), valid today in Mexico City, replace list and volume prices.
  const contract = pricedFor.institutionId
    ? await contractPricesOn(db, pricedFor.institutionId, codes, pricedFor.at ?? new Date())
    : new Map<string, number>();
  const rows =
    codes.length === 0
      ? []
      : await db
          .select({
            code: products.code,
            name: products.name,
            priceCents: products.priceCents,
            stock: products.stock,
            weightKg: products.weightKg,
            imageHash: products.imageHash,
            active: products.active,
            presentationLabel: products.presentationLabel,
            backorderable: products.backorderable,
            leadMinDays: products.leadMinDays,
            leadMaxDays: products.leadMaxDays,
            controlled: products.controlled,
          })
          .from(products)
          .where(inArray(products.code, codes));
  const byCode = new Map(rows.map((r) => [r.code, r]));
  const breakRows =
    codes.length === 0
      ? []
      : await db
          .select({
            code: priceBreaks.productCode,
            minQuantity: priceBreaks.minQuantity,
            priceCents: priceBreaks.priceCents,
          })
          .from(priceBreaks)
          .where(inArray(priceBreaks.productCode, codes));
  const breaksOf = new Map<string, PriceBreak[]>();
  for (const b of breakRows) breaksOf.set(b.code, [...(breaksOf.get(b.code) ?? []), b]);

  let subtotalCents = 0;
  let totalGrams = 0;
  let pricedLines = 0;
  let ok = true;
  const lines: QuoteLine[] = items.map(({ code, quantity }) => {
    const p = byCode.get(code);
    if (!p?.active) {
      // A deactivated product is withdrawn from sale: reported exactly like an unknown code (name null, nothing
      // priced), so that a caller checking `name === null` cannot sell it by mistake.
      ok = false;
      return {
        code,
        name: null,
        unitPriceCents: 0,
        quantity,
        lineTotalCents: 0,
        stock: 0,
        available: false,
        weightKg: 0,
        imageUrl: null,
        error: p ? INACTIVE : NOT_FOUND,
        presentationLabel: null,
        listPriceCents: 0,
        nextBreak: null,
        leadTime: null,
        backordered: 0,
        controlled: false,
      };
    }
    const lineGrams = grams(p.weightKg) * quantity;
    const breaks = breaksOf.get(code) ?? [];
    // The one pricing rule (src/shared/volume-prices.ts): the order line and the CFDI keep this unit price. A
    // contract price is the institution's own list: no volume price applies over it.
    const contractCents = contract.get(code);
    const unitPriceCents = contractCents ?? unitPriceFor(p.priceCents, breaks, quantity);
    const lineTotalCents = unitPriceCents * quantity;
    const next = contractCents === undefined ? nextBreak(breaks, quantity) : null;
    // 'Sobre pedido' (decision 029): what stock does not cover is backordered, not refused; every other product
    // keeps the exact rule — never beyond stock.
    const leadTime = leadTimeOf(p);
    const backordered = leadTime ? splitQuantity(p.stock, quantity).later : 0;
    const available = p.stock >= quantity || leadTime !== null;
    if (!available) ok = false;
    subtotalCents += lineTotalCents;
    totalGrams += lineGrams;
    pricedLines += 1;
    return {
      code,
      // A presentation's label is part of its name on the cart, the order, the receipt and the CFDI line.
      name: presentationName(p),
      unitPriceCents,
      quantity,
      lineTotalCents,
      stock: p.stock,
      available,
      weightKg: lineGrams / 1000,
      imageUrl: productImageUrl(p.code, p.imageHash),
      error: available ? null : stockError(p.stock),
      presentationLabel: p.presentationLabel,
      listPriceCents: contractCents ?? p.priceCents,
      ...(contractCents === undefined ? {} : { contract: true }),
      nextBreak: next ? { addUnits: next.addUnits, unitPriceCents: next.priceCents } : null,
      leadTime,
      backordered,
      controlled: p.controlled,
    };
  });

  const weightKg = totalGrams / 1000;
  // Issue 35: the way it travels — what the hazardous-goods table allows, and what each way costs.
  const hazards = await hazardsOf(db, codes);
  const priced = lines.filter((l) => l.name !== null);
  const delivery = pricedOptions(
    priced.map((l) => ({ name: l.name!, hazardStatements: hazards.get(l.code) ?? [] })),
    pricedLines === 0 ? 0 : shippingCentsForWeight(weightKg, rule),
  );
  const shippingCents =
    pricedLines === 0 ? 0 : delivery.options.find((o) => o.method === deliveryMethod)!.shippingCents;
  const totalCents = subtotalCents + shippingCents;
  return {
    lines,
    subtotalCents,
    shippingCents,
    // Per line and shipping, as the CFDI will state it (one rule: src/shared/money.ts saleIva).
    ivaCents: saleIva([...lines.map((l) => l.lineTotalCents), shippingCents]),
    totalCents,
    weightKg,
    ok: ok && pricedLines > 0,
    paymentMethods: methodsThatCanPay(totalCents),
    delivery: { method: deliveryMethod, hazardous: delivery.hazardous, options: delivery.options },
  };
}

/**
 * 409 'charge_limit' for a total above the chosen method's maximum, naming it and the methods that can pay; with no
 * method chosen, only a total no method can pay (src/shared/limits.ts). The one check of the cart's quote and the
 * order's placement, so both refuse alike.
 */
export function refuseOverLimit(totalCents: number, method: PaymentMethod | undefined): void {
  const message = chargeLimitMessage(totalCents, method);
  if (message) throw conflict(message, 'charge_limit');
}
