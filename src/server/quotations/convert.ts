import { and, eq, inArray } from 'drizzle-orm';
import { saleIva } from '../../shared/money.ts';
import type { ConvertQuotationResponse } from '../../shared/schemas/quotations.ts';
import type { Db, Tx } from '../db/client.ts';
import { products, quotations } from '../db/schema.ts';
import { conflict } from '../http/errors.ts';
import { cannotConvert } from './rules.ts';
import { currentRevision, findQuotation, type QuotationOwner, stateOfRow } from './service.ts';

/**
 * 'Convertir en pedido' (issue 20): the quotation's lines at the quotation's prices become an order. The browser
 * only names the folio; lines, prices, shipping and totals are read here, from the quotation's current revision.
 */

const CODES: Record<string, string> = {
  vencida: 'quotation_expired',
  convertida: 'quotation_converted',
  cancelada: 'quotation_cancelled',
};

/** Stock and sale status of the quoted products now: the first line that cannot be bought, in Spanish. */
async function stockProblem(
  db: Db,
  lines: readonly { code: string; description: string; quantity: number }[],
) {
  const rows = await db
    .select({
      code: products.code,
      stock: products.stock,
      active: products.active,
      backorderable: products.backorderable,
    })
    .from(products)
    .where(
      inArray(
        products.code,
        lines.map((l) => l.code),
      ),
    );
  const byCode = new Map(rows.map((r) => [r.code, r]));
  for (const line of lines) {
    const p = byCode.get(line.code);
    if (!p?.active)
      return { code: 'unavailable', message: `${line.description} (${line.code}) ya no está a la venta` };
    // 'Sobre pedido' (decision 029): quoted units beyond stock are backordered by the order, not refused.
    if (p.stock < line.quantity && !p.backorderable)
      return {
        code: 'insufficient_stock',
        message:
          p.stock < 1
            ? `${line.description} (${line.code}): sin existencia por ahora`
            : `${line.description} (${line.code}): solo hay ${p.stock} ${p.stock === 1 ? 'disponible' : 'disponibles'} de ${line.quantity} cotizadas`,
      };
  }
  return null;
}

/** POST /api/quotations/:folio/convert: vigente and in stock → what checkout sends back with the folio. */
export async function prepareConversion(
  db: Db,
  owner: QuotationOwner,
  folio: string,
): Promise<ConvertQuotationResponse> {
  const q = await findQuotation(db, owner, folio);
  const state = await stateOfRow(db, q);
  const refusal = cannotConvert(folio, state, q.orderNumber);
  if (refusal) throw conflict(refusal, CODES[state]);
  const revision = await currentRevision(db, q);
  const problem = await stockProblem(db, revision.lines);
  if (problem) throw conflict(problem.message, problem.code);
  return {
    folio,
    items: revision.lines.map((l) => ({ code: l.code, quantity: l.quantity })),
    purchaseOrder: q.purchaseOrder,
  };
}

/**
 * Inside the order's transaction: the quotation's row lock (so of 20 simultaneous conversions exactly one gets
 * through: the others find it converted), its state, and its lines, which must be the items the order names.
 * Stock itself is reserved by the order (a shortage is its 409 naming the product).
 */
export async function claimQuotationForOrder(
  tx: Tx,
  owner: QuotationOwner,
  folio: string,
  items: readonly { code: string; quantity: number }[],
) {
  const q = await findQuotation(tx, owner, folio, true);
  const state = await stateOfRow(tx, q);
  const refusal = cannotConvert(folio, state, q.orderNumber);
  if (refusal) throw conflict(refusal, CODES[state]);
  const revision = await currentRevision(tx, q);
  const same =
    items.length === revision.lines.length &&
    revision.lines.every((l) => items.some((i) => i.code === l.code && i.quantity === l.quantity));
  if (!same)
    throw conflict(
      `Los artículos no coinciden con la cotización ${folio}. Vuelva a abrirla desde «Mis cotizaciones».`,
      'quotation_mismatch',
    );
  const inactive = await tx
    .select({ code: products.code })
    .from(products)
    .where(
      and(
        inArray(
          products.code,
          revision.lines.map((l) => l.code),
        ),
        eq(products.active, false),
      ),
    );
  if (inactive.length > 0) {
    const line = revision.lines.find((l) => l.code === inactive[0]!.code)!;
    throw conflict(`${line.description} (${line.code}) ya no está a la venta`, 'unavailable');
  }
  return {
    quotationId: q.id,
    purchaseOrder: q.purchaseOrder,
    lines: revision.lines.map((l) => ({
      code: l.code,
      name: l.description,
      unitPriceCents: l.unitPriceCents,
      quantity: l.quantity,
      weightKg: Math.round(l.unitWeightKg * l.quantity * 1000) / 1000,
    })),
    subtotalCents: revision.subtotalCents,
    shippingCents: revision.shippingCents,
    // Computed again rather than copied: a revision stored before the one IVA rule (decision 048) may differ by a
    // centavo from the CFDI the order will get.
    ivaCents: saleIva([...revision.lines.map((l) => l.unitPriceCents * l.quantity), revision.shippingCents]),
    totalCents: revision.totalCents,
  };
}

/** The order made from it, in the same transaction. */
export async function markQuotationConverted(tx: Tx, quotationId: number, orderNumber: number) {
  await tx
    .update(quotations)
    .set({ orderNumber, convertedAt: new Date(), updatedAt: new Date() })
    .where(eq(quotations.id, quotationId));
}
