import { eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  anyHazardous,
  type DeliveryMethod,
  type DeliveryOption,
  deliveryOptions,
} from '../../shared/delivery.ts';
import { shop } from '../../shared/shop.ts';
import type { Db } from '../db/client.ts';
import { products } from '../db/schema.ts';
import { conflict } from '../http/errors.ts';

/**
 * The ways a set of products may travel and what each costs (issue 35, decision 061): the hazardous-goods table
 * (src/shared/delivery.ts) on each product's H statements — a presentation's are its family base's — and the
 * shipping rule of config/shop.json: ground = the weight rule (+ the hazardous surcharge when a restricted product
 * goes), air = ground + airExtraCents, pickup = nothing.
 */
export async function hazardsOf(db: Db, codes: readonly string[]): Promise<Map<string, string[]>> {
  if (codes.length === 0) return new Map();
  const base = alias(products, 'base');
  const rows = await db
    .select({
      code: products.code,
      hazards: sql<string[]>`coalesce(${base.hazardStatements}, ${products.hazardStatements})`,
    })
    .from(products)
    .leftJoin(base, eq(base.code, products.familyCode))
    .where(inArray(products.code, [...codes]));
  return new Map(rows.map((r) => [r.code, r.hazards ?? []]));
}

/** The ways these lines may travel (a converted quotation's lines: their price is the quotation's). */
export async function deliveryOptionsOf(
  db: Db,
  lines: readonly { code: string; name: string }[],
): Promise<DeliveryOption[]> {
  const hazards = await hazardsOf(
    db,
    lines.map((l) => l.code),
  );
  return deliveryOptions(lines.map((l) => ({ name: l.name, hazardStatements: hazards.get(l.code) ?? [] })));
}

export type PricedOption = DeliveryOption & { shippingCents: number };

export function pricedOptions(
  lines: readonly { name: string; hazardStatements: readonly string[] }[],
  groundCents: number,
): { options: PricedOption[]; hazardous: boolean } {
  const hazardous = anyHazardous(lines);
  const parcel = groundCents + (hazardous ? shop.shipping.hazardousSurchargeCents : 0);
  const cost: Record<DeliveryMethod, number> = {
    ground: parcel,
    air: parcel + shop.shipping.airExtraCents,
    pickup: 0,
  };
  return {
    hazardous,
    options: deliveryOptions(lines).map((o) => ({ ...o, shippingCents: cost[o.method] })),
  };
}

/** 409 in Spanish when the chosen way is one the cart may not use (a forged request, or a cart that changed). */
export function refuseDelivery(options: readonly DeliveryOption[], method: DeliveryMethod): void {
  const chosen = options.find((o) => o.method === method);
  if (chosen?.refusal)
    throw conflict(`${chosen.refusal}. Elija otra forma de entrega.`, 'delivery_method_refused');
}

/** 400 unless a pickup names one of the branches of /sucursales. */
export function branchProblem(method: DeliveryMethod, branch: number | undefined): string | null {
  if (method !== 'pickup')
    return branch === undefined ? null : 'La sucursal solo aplica a «Recoger en sucursal»';
  if (branch === undefined || !shop.branches[branch]) return 'Elija la sucursal donde recogerá su pedido';
  return null;
}
