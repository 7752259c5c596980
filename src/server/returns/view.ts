import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import {
  mustQuarantine,
  RETURN_REASON_LABELS,
  RETURN_STATE_LABELS,
  type ReturnState,
} from '../../shared/returns.ts';
import type { ReturnView } from '../../shared/schemas/returns.ts';
import type { Db } from '../db/client.ts';
import { orderRefunds, products, returnLines, returnPhotos, returns, users } from '../db/schema.ts';
import { refundView } from '../orders/refunds.ts';

export type ReturnRow = typeof returns.$inferSelect;

/** A product is a reagent when it (or its family's base) has a CAS number; controlled as staff flagged it. */
export async function productFacts(db: Db, codes: string[]) {
  const facts = new Map<string, { reagent: boolean; controlled: boolean }>();
  if (codes.length === 0) return facts;
  const rows = await db
    .select({
      code: products.code,
      cas: products.casNumber,
      controlled: products.controlled,
      family: products.familyCode,
    })
    .from(products)
    .where(inArray(products.code, codes));
  const bases = rows.map((r) => r.family).filter((c): c is string => c !== null);
  const baseRows = bases.length
    ? await db
        .select({ code: products.code, cas: products.casNumber, controlled: products.controlled })
        .from(products)
        .where(inArray(products.code, bases))
    : [];
  const base = new Map(baseRows.map((b) => [b.code, b]));
  for (const r of rows) {
    const b = r.family ? base.get(r.family) : undefined;
    facts.set(r.code, {
      reagent: Boolean(r.cas ?? b?.cas),
      controlled: r.controlled || Boolean(b?.controlled),
    });
  }
  return facts;
}

/** Returns as the buyer and staff read them, with their lines, photos and refund. */
export async function returnViews(db: Db, rows: ReturnRow[], withEmail = false): Promise<ReturnView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const lines = await db
    .select()
    .from(returnLines)
    .where(inArray(returnLines.returnId, ids))
    .orderBy(asc(returnLines.lineNo));
  const photos = await db
    .select({ id: returnPhotos.id, returnId: returnPhotos.returnId })
    .from(returnPhotos)
    .where(inArray(returnPhotos.returnId, ids))
    .orderBy(asc(returnPhotos.id));
  const refundIds = rows.map((r) => r.refundId).filter((id): id is number => id !== null);
  const refunds = refundIds.length
    ? await db.select().from(orderRefunds).where(inArray(orderRefunds.id, refundIds))
    : [];
  const emails = withEmail
    ? new Map(
        (
          await db
            .select({ id: users.id, email: users.email })
            .from(users)
            .where(
              inArray(
                users.id,
                rows.map((r) => r.userId),
              ),
            )
        ).map((u) => [u.id, u.email]),
      )
    : null;
  const facts = await productFacts(db, [...new Set(lines.map((l) => l.productCode))]);
  return rows.map((r) => {
    const own = lines.filter((l) => l.returnId === r.id);
    const refund = refunds.find((f) => f.id === r.refundId);
    return {
      id: r.id,
      orderNumber: r.orderNumber,
      state: r.state,
      stateLabel: RETURN_STATE_LABELS[r.state],
      reason: r.reason,
      reasonLabel: RETURN_REASON_LABELS[r.reason],
      description: r.description,
      lines: own.map((l) => ({
        lineNo: l.lineNo,
        productCode: l.productCode,
        description: l.description,
        quantity: l.quantity,
        unitPriceCents: l.unitPriceCents,
        disposition: l.disposition,
        mustQuarantine: mustQuarantine(facts.get(l.productCode) ?? { reagent: false, controlled: false }),
      })),
      photos: photos
        .filter((p) => p.returnId === r.id)
        .map((p) => ({ id: p.id, url: `/api/returns/${r.id}/photos/${p.id}` })),
      valueCents: own.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0),
      instructions: r.instructions,
      labelUrl: r.labelUrl,
      staffNote: r.staffNote,
      refund: refund ? refundView(refund) : null,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
      ...(emails ? { buyerEmail: emails.get(r.userId) ?? '' } : {}),
    };
  });
}

export async function returnsOfOrder(db: Db, orderNumber: number, withEmail = false) {
  const rows = await db
    .select()
    .from(returns)
    .where(eq(returns.orderNumber, orderNumber))
    .orderBy(asc(returns.id));
  return returnViews(db, rows, withEmail);
}

/** Staff's «Devoluciones»: the newest first, by state when asked (at most 200). */
export async function listReturns(db: Db, state?: ReturnState) {
  const rows = await db
    .select()
    .from(returns)
    .where(state ? eq(returns.state, state) : undefined)
    .orderBy(desc(returns.createdAt))
    .limit(200);
  return returnViews(db, rows, true);
}

export async function returnById(db: Db, id: number, withEmail = false) {
  const rows = await db.select().from(returns).where(eq(returns.id, id));
  return (await returnViews(db, rows, withEmail))[0];
}

/** One photo of a return, for its buyer or staff. */
export async function returnPhoto(db: Db, id: number, photoId: number) {
  const [row] = await db
    .select({ data: returnPhotos.data, contentType: returnPhotos.contentType, userId: returns.userId })
    .from(returnPhotos)
    .innerJoin(returns, eq(returns.id, returnPhotos.returnId))
    .where(and(eq(returnPhotos.id, photoId), eq(returnPhotos.returnId, id)));
  return row;
}
