import { and, asc, count, desc, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import { leadTimeOf } from '../../shared/backorder.ts';
import { payableMethodsNote } from '../../shared/charge-limits.ts';
import { saleIva } from '../../shared/money.ts';
import type {
  CreateQuotation,
  QuotationDetail,
  QuotationSummary,
  RenewalPreview,
  ReviseQuotation,
} from '../../shared/schemas/quotations.ts';
import type { Actor } from '../audit/log.ts';
import { writeAudit } from '../audit/log.ts';
import type { SessionUser } from '../auth/session.ts';
import { quoteCart } from '../cart/quote.ts';
import { controlledAmong } from '../controlled/rules.ts';
import type { Db, Tx } from '../db/client.ts';
import {
  institutions,
  orders,
  products,
  type QuotationLineSnapshot,
  quotationFolioSeq,
  quotationRevisions,
  quotations,
  users,
} from '../db/schema.ts';
import { AppError, badRequest, conflict, notFound } from '../http/errors.ts';
import { enqueueQuotationMail } from './mail.ts';
import {
  actionsFor,
  EMPTY_CART,
  folioOf,
  type LinkedOrder,
  QUOTATION_NOT_FOUND,
  quotationState,
  stateLabel,
  validUntilFrom,
} from './rules.ts';

/** Quotations (issue 20): issued from the cart, kept as revisions, mailed as a PDF; the only home of their changes. */

export type QuotationRow = typeof quotations.$inferSelect;
export type RevisionRow = typeof quotationRevisions.$inferSelect;
export type QuotationContext = { db: Db; publicUrl: string; now?: () => Date };

/** Quotations one buyer may request in 24 hours: each one is a mail with a PDF. */
export const MAX_QUOTATIONS_PER_DAY = 30;
export const TOO_MANY_QUOTATIONS = `Puede solicitar hasta ${MAX_QUOTATIONS_PER_DAY} cotizaciones al día. Si necesita más, escríbanos.`;

const nowOf = (ctx: QuotationContext) => ctx.now?.() ?? new Date();

/** Today's catalogue prices for these lines (through the cart's quote: one pricing rule), as a snapshot. */
async function pricedLines(
  db: Db,
  items: readonly { code: string; quantity: number }[],
  institutionId: number | null = null,
) {
  if (items.length === 0) throw conflict(EMPTY_CART, 'empty_cart');
  // Issued for an institution: its contract prices (decision 059), through the same rule.
  const quote = await quoteCart(db, items, undefined, { institutionId });
  const lines: QuotationLineSnapshot[] = quote.lines.map((l) => {
    if (l.name === null) throw conflict(`El producto ${l.code} ya no está a la venta`, 'unavailable');
    return {
      code: l.code,
      description: l.name,
      listPriceCents: Math.max(l.listPriceCents, l.unitPriceCents),
      volumePriceCents: l.unitPriceCents,
      basePriceCents: l.unitPriceCents,
      unitPriceCents: l.unitPriceCents,
      quantity: l.quantity,
      amountCents: l.lineTotalCents,
      unitWeightKg: Math.round((l.weightKg / l.quantity) * 1000) / 1000,
    };
  });
  return { lines, shippingCents: quote.shippingCents };
}

/** A line's volume price (revisions before decision 053 kept it as their list price). */
export const volumePriceOf = (l: QuotationLineSnapshot) => l.volumePriceCents ?? l.listPriceCents;

/**
 * What separates the list amount from the quoted one, each part a true figure (decision 053): the catalogue's
 * volume prices, the prices staff agreed per line (negative when they raised one), and the revision's percentage
 * on those. The three add up to the list amount minus the products' amount.
 */
export function discountsOf(lines: readonly QuotationLineSnapshot[]) {
  let listAmountCents = 0;
  let volumeDiscountCents = 0;
  let agreedDiscountCents = 0;
  let percentDiscountCents = 0;
  for (const l of lines) {
    const volume = volumePriceOf(l);
    listAmountCents += l.listPriceCents * l.quantity;
    volumeDiscountCents += (l.listPriceCents - volume) * l.quantity;
    agreedDiscountCents += (volume - l.basePriceCents) * l.quantity;
    percentDiscountCents += l.basePriceCents * l.quantity - l.amountCents;
  }
  return { listAmountCents, volumeDiscountCents, agreedDiscountCents, percentDiscountCents };
}

/**
 * Totals of a revision: the lines at their quoted prices plus shipping, IVA included (the part it contains). Not
 * refused above a payment method's maximum: the quotation says which methods can pay it (decision 048).
 */
export function totalsOf(lines: readonly QuotationLineSnapshot[], shippingCents: number) {
  const subtotalCents = lines.reduce((s, l) => s + l.amountCents, 0);
  const listCents = discountsOf(lines).listAmountCents;
  const totalCents = subtotalCents + shippingCents;
  return {
    subtotalCents,
    discountCents: Math.max(0, listCents - subtotalCents),
    shippingCents,
    ivaCents: saleIva([...lines.map((l) => l.amountCents), shippingCents]),
    totalCents,
  };
}

async function linkedOrderOf(db: Db, orderNumber: number | null): Promise<LinkedOrder> {
  if (orderNumber === null) return null;
  const [o] = await db
    .select({ status: orders.status, paidAt: orders.paidAt })
    .from(orders)
    .where(eq(orders.number, orderNumber));
  return o ?? null;
}

export async function currentRevision(
  db: Db,
  q: Pick<QuotationRow, 'id' | 'revision'>,
): Promise<RevisionRow> {
  const [r] = await db
    .select()
    .from(quotationRevisions)
    .where(and(eq(quotationRevisions.quotationId, q.id), eq(quotationRevisions.revision, q.revision)));
  if (!r) throw new Error(`quotation ${q.id} without revision ${q.revision}`);
  return r;
}

/**
 * Whose quotations (issue 34, decision 058): the person's own, or — while the session buys for an institution — the
 * institution's, shared by its members ('quotations.use'). The two never show in each other's place.
 */
export type QuotationOwner = { userId: number; institutionId: number | null };
const scope = (owner: QuotationOwner) =>
  owner.institutionId === null
    ? and(eq(quotations.userId, owner.userId), isNull(quotations.institutionId))
    : eq(quotations.institutionId, owner.institutionId);

/** The quotation of this folio, the owner's (person or institution) or any (null: staff); another's is a 404. */
export async function findQuotation(db: Db, owner: QuotationOwner | null, folio: string, lock = false) {
  const where = owner === null ? eq(quotations.folio, folio) : and(eq(quotations.folio, folio), scope(owner));
  const query = db.select().from(quotations).where(where);
  const [q] = lock ? await query.for('update') : await query;
  if (!q) throw notFound(QUOTATION_NOT_FOUND);
  return q;
}

export async function stateOfRow(db: Db, q: QuotationRow, now = new Date()) {
  return quotationState(q, await linkedOrderOf(db, q.orderNumber), now);
}

function summaryOf(
  q: QuotationRow,
  r: RevisionRow,
  state: ReturnType<typeof quotationState>,
): QuotationSummary {
  return {
    folio: q.folio,
    revision: q.revision,
    createdAt: q.createdAt.toISOString(),
    validUntil: q.validUntil.toISOString(),
    state,
    stateLabel: stateLabel(state),
    totalCents: r.totalCents,
    lineCount: r.lines.length,
    purchaseOrder: q.purchaseOrder,
    orderNumber: state === 'convertida' ? q.orderNumber : null,
    ...actionsFor(state),
  };
}

export async function detailOf(db: Db, q: QuotationRow, now = new Date()): Promise<QuotationDetail> {
  const r = await currentRevision(db, q);
  const state = await stateOfRow(db, q, now);
  const controlled = new Set(
    (
      await controlledAmong(
        db,
        r.lines.map((l) => l.code),
      )
    ).map((c) => c.code),
  );
  // What each line's presentation is now: 'sobre pedido' with its lead time, and its stock (issue 37).
  const current = new Map(
    (
      await db
        .select({
          code: products.code,
          stock: products.stock,
          backorderable: products.backorderable,
          leadMinDays: products.leadMinDays,
          leadMaxDays: products.leadMaxDays,
        })
        .from(products)
        .where(inArray(products.code, r.lines.length > 0 ? r.lines.map((l) => l.code) : ['']))
    ).map((p) => [p.code, p]),
  );
  return {
    ...summaryOf(q, r, state),
    revisedAt: r.createdAt.toISOString(),
    buyerName: q.buyerName,
    institution: q.institution,
    rfc: q.rfc,
    lines: r.lines.map((l) => ({
      code: l.code,
      description: l.description,
      listPriceCents: l.listPriceCents,
      volumePriceCents: volumePriceOf(l),
      agreedPriceCents: l.basePriceCents,
      unitPriceCents: l.unitPriceCents,
      quantity: l.quantity,
      amountCents: l.amountCents,
      controlled: controlled.has(l.code),
      leadTime: current.has(l.code) ? leadTimeOf(current.get(l.code)!) : null,
      stock: current.get(l.code)?.stock ?? 0,
    })),
    subtotalCents: r.subtotalCents,
    discountPercent: r.discountPercent,
    discountCents: r.discountCents,
    ...discountsOf(r.lines),
    shippingCents: r.shippingCents,
    ivaCents: r.ivaCents,
    note: r.note,
    // A quotation above a method's maximum is still issued (the buyer may pay it otherwise): it says how.
    paymentNote: payableMethodsNote(r.totalCents),
  };
}

/** Summaries of many quotations with one query for their revisions and one for their orders. */
export async function summariesOf(db: Db, rows: QuotationRow[], now = new Date()) {
  if (rows.length === 0) return [];
  const revs = await db
    .select()
    .from(quotationRevisions)
    .where(
      inArray(
        sql`(${quotationRevisions.quotationId}, ${quotationRevisions.revision})`,
        rows.map((q) => sql`(${q.id}, ${q.revision})`),
      ),
    );
  const byId = new Map(revs.map((r) => [r.quotationId, r]));
  const numbers = rows.map((q) => q.orderNumber).filter((n): n is number => n !== null);
  const linked =
    numbers.length === 0
      ? []
      : await db
          .select({ number: orders.number, status: orders.status, paidAt: orders.paidAt })
          .from(orders)
          .where(inArray(orders.number, numbers));
  const orderBy = new Map(linked.map((o) => [o.number, o]));
  return rows.map((q) => {
    const order = q.orderNumber === null ? null : (orderBy.get(q.orderNumber) ?? null);
    return { row: q, summary: summaryOf(q, byId.get(q.id)!, quotationState(q, order, now)) };
  });
}

/** GET /api/quotations: the buyer's quotations, newest first. */
export async function listQuotations(db: Db, owner: QuotationOwner): Promise<QuotationSummary[]> {
  const rows = await db
    .select()
    .from(quotations)
    .where(scope(owner))
    .orderBy(desc(quotations.createdAt), desc(quotations.id));
  return (await summariesOf(db, rows)).map((s) => s.summary);
}

export async function getQuotation(db: Db, owner: QuotationOwner, folio: string) {
  return detailOf(db, await findQuotation(db, owner, folio));
}

async function buyerOf(db: Db, userId: number) {
  const [u] = await db
    .select({
      email: users.email,
      nombre: users.nombre,
      apellidoPat: users.apellidoPat,
      apellidoMat: users.apellidoMat,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!u) throw notFound(QUOTATION_NOT_FOUND);
  return { email: u.email, name: [u.nombre, u.apellidoPat, u.apellidoMat].filter(Boolean).join(' ') };
}

/** Writes a revision, points the quotation at it and queues the mail with its PDF, in the caller's transaction. */
async function writeRevision(
  ctx: QuotationContext,
  tx: Tx,
  q: QuotationRow,
  revision: Omit<typeof quotationRevisions.$inferInsert, 'quotationId'>,
): Promise<QuotationRow> {
  await tx.insert(quotationRevisions).values({ ...revision, quotationId: q.id });
  const [updated] = await tx
    .update(quotations)
    .set({ revision: revision.revision, validUntil: revision.validUntil, updatedAt: nowOf(ctx) })
    .where(eq(quotations.id, q.id))
    .returning();
  const buyer = await buyerOf(tx, q.userId);
  await enqueueQuotationMail(
    tx,
    updated!,
    await detailOf(tx, updated!, nowOf(ctx)),
    buyer.email,
    ctx.publicUrl,
  );
  return updated!;
}

/** POST /api/quotations: today's prices of the cart, folio, 30 days' validity, mailed with its PDF. */
export async function createQuotation(
  ctx: QuotationContext,
  user: SessionUser,
  body: CreateQuotation & { items: { code: string; quantity: number }[] },
  /** The institution the session buys for: shared with its members (058), priced at its contract prices (059). */
  institutionId: number | null = null,
): Promise<QuotationDetail> {
  const now = nowOf(ctx);
  const q = await ctx.db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
    const [recent] = await tx
      .select({ n: count() })
      .from(quotations)
      .where(
        and(
          eq(quotations.userId, user.id),
          gte(quotations.createdAt, new Date(now.getTime() - 24 * 60 * 60 * 1000)),
        ),
      );
    if ((recent?.n ?? 0) >= MAX_QUOTATIONS_PER_DAY)
      throw new AppError(429, 'too_many_quotations', TOO_MANY_QUOTATIONS);
    const { lines, shippingCents } = await pricedLines(tx, body.items, institutionId);
    const totals = totalsOf(lines, shippingCents);
    const { rows } = await tx.execute<{ n: string }>(
      sql`select nextval(${quotationFolioSeq.seqName})::text as n`,
    );
    const validUntil = validUntilFrom(now);
    const buyer = await buyerOf(tx, user.id);
    // A quotation made for an institution (decision 058) is addressed to it unless the buyer typed otherwise.
    const [institution] =
      institutionId === null
        ? []
        : await tx
            .select({ razonSocial: institutions.razonSocial, rfc: institutions.rfc })
            .from(institutions)
            .where(eq(institutions.id, institutionId));
    const [created] = await tx
      .insert(quotations)
      .values({
        folio: folioOf(now, Number(rows[0]!.n)),
        userId: user.id,
        institutionId,
        revision: 1,
        validUntil,
        buyerName: buyer.name,
        institution: body.institution || institution?.razonSocial || '',
        rfc: body.rfc || institution?.rfc || '',
        purchaseOrder: body.purchaseOrder || null,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await tx.insert(quotationRevisions).values({
      quotationId: created!.id,
      revision: 1,
      reason: 'created',
      lines,
      ...totals,
      validUntil,
      createdAt: now,
    });
    await enqueueQuotationMail(tx, created!, await detailOf(tx, created!, now), buyer.email, ctx.publicUrl);
    return created!;
  });
  return detailOf(ctx.db, q, now);
}

/** An expired quotation of the buyer's, locked or not; any other state is a 409 saying why it needs no renewal. */
async function expiredQuotation(db: Db, owner: QuotationOwner, folio: string, now: Date, lock: boolean) {
  const q = await findQuotation(db, owner, folio, lock);
  const state = await stateOfRow(db, q, now);
  if (state !== 'vencida')
    throw conflict(
      state === 'vigente'
        ? `La cotización ${folio} sigue vigente hasta el ${longDate(q.validUntil)}; no necesita renovarse`
        : `La cotización ${folio} está ${stateLabel(state).toLowerCase()} y no puede renovarse`,
      'quotation_not_expired',
    );
  return q;
}

/**
 * What 'Renovar' would change, for the buyer to see before accepting (decision 053): each line's quoted price and
 * today's, the totals, and in words what is lost (prices agreed with staff, the percentage) and what is kept (the
 * note). Read only; the renewal itself prices again at its own moment.
 */
export async function renewalPreview(
  ctx: QuotationContext,
  owner: QuotationOwner,
  folio: string,
): Promise<RenewalPreview> {
  const now = nowOf(ctx);
  const q = await expiredQuotation(ctx.db, owner, folio, now, false);
  const current = await currentRevision(ctx.db, q);
  const { lines, shippingCents } = await pricedLines(ctx.db, current.lines, q.institutionId);
  const renewed = totalsOf(lines, shippingCents);
  const agreed = current.lines.filter((l) => l.basePriceCents !== volumePriceOf(l));
  const changes: string[] = [];
  if (agreed.length > 0)
    changes.push(
      `Los precios acordados con nuestro equipo para ${agreed.map((l) => l.code).join(', ')} ya no aplican: se cotiza al precio de hoy.`,
    );
  if (current.discountPercent > 0)
    changes.push(`El descuento del ${current.discountPercent} % de la revisión vencida ya no aplica.`);
  const moved = lines.filter((l, i) => l.unitPriceCents !== current.lines[i]!.unitPriceCents).length;
  if (moved > 0)
    changes.push(
      moved === 1 ? 'Cambia el precio de 1 producto.' : `Cambian los precios de ${moved} productos.`,
    );
  if (shippingCents !== current.shippingCents) changes.push('Cambia el costo de envío.');
  if (changes.length === 0) changes.push('Los precios de hoy son los mismos de la cotización vencida.');
  if (current.note) changes.push(`Se conservan las observaciones: «${current.note}».`);
  return {
    folio,
    currentTotalCents: current.totalCents,
    renewedTotalCents: renewed.totalCents,
    lines: lines.map((l, i) => ({
      code: l.code,
      description: l.description,
      quantity: l.quantity,
      quotedUnitPriceCents: current.lines[i]!.unitPriceCents,
      todayUnitPriceCents: l.unitPriceCents,
    })),
    changes,
  };
}

/**
 * POST /api/quotations/:folio/renew: an expired quotation, again at today's prices and for another 30 days; staff's
 * note is kept (the page shows renewalPreview first).
 */
export async function renewQuotation(ctx: QuotationContext, owner: QuotationOwner, folio: string) {
  const now = nowOf(ctx);
  const q = await ctx.db.transaction(async (tx) => {
    const q = await expiredQuotation(tx, owner, folio, now, true);
    const current = await currentRevision(tx, q);
    const { lines, shippingCents } = await pricedLines(tx, current.lines, q.institutionId);
    return writeRevision(ctx, tx, q, {
      revision: q.revision + 1,
      reason: 'renewed',
      lines,
      ...totalsOf(lines, shippingCents),
      note: current.note,
      validUntil: validUntilFrom(now),
      createdAt: now,
    });
  });
  return detailOf(ctx.db, q, now);
}

/** POST /api/quotations/:folio/cancel: the buyer withdraws a quotation that was not converted. */
export async function cancelQuotation(ctx: QuotationContext, owner: QuotationOwner, folio: string) {
  const now = nowOf(ctx);
  const q = await ctx.db.transaction(async (tx) => {
    const q = await findQuotation(tx, owner, folio, true);
    const state = await stateOfRow(tx, q, now);
    if (state === 'convertida' || state === 'cancelada')
      throw conflict(
        `La cotización ${folio} ya está ${stateLabel(state).toLowerCase()}`,
        'quotation_not_cancellable',
      );
    const [updated] = await tx
      .update(quotations)
      .set({ status: 'cancelled', cancelledAt: now, updatedAt: now })
      .where(eq(quotations.id, q.id))
      .returning();
    return updated!;
  });
  return detailOf(ctx.db, q, now);
}

const longDate = (at: Date) =>
  new Intl.DateTimeFormat('es-MX', { dateStyle: 'long', timeZone: 'America/Mexico_City' }).format(at);

/**
 * Staff's revision (back office): prices by code and a discount on every line, and a note; a new revision is
 * written (the old one kept), valid for another 30 days from today, and mailed to the buyer.
 */
export async function reviseQuotation(
  ctx: QuotationContext,
  actor: Actor,
  folio: string,
  body: ReviseQuotation,
) {
  const now = nowOf(ctx);
  const q = await ctx.db.transaction(async (tx) => {
    const q = await findQuotation(tx, null, folio, true);
    const state = await stateOfRow(tx, q, now);
    if (state === 'convertida' || state === 'cancelada')
      throw conflict(
        `La cotización ${folio} está ${stateLabel(state).toLowerCase()}; ya no se puede modificar`,
        'quotation_closed',
      );
    const current = await currentRevision(tx, q);
    const prices = new Map((body.prices ?? []).map((p) => [p.code, p.unitPriceCents]));
    for (const code of prices.keys())
      if (!current.lines.some((l) => l.code === code))
        throw badRequest(`El producto ${code} no está en la cotización ${folio}`);
    const pct = body.discountPercent ?? current.discountPercent;
    const lines = current.lines.map((l) => {
      const basePriceCents = prices.get(l.code) ?? l.basePriceCents;
      const unitPriceCents = Math.max(1, Math.round((basePriceCents * (100 - pct)) / 100));
      return { ...l, basePriceCents, unitPriceCents, amountCents: unitPriceCents * l.quantity };
    });
    const note = body.note ?? current.note;
    // Nothing changes (prices, percentage, note): no revision, no mail; the answer says so (decision 053).
    if (
      pct === current.discountPercent &&
      note === current.note &&
      lines.every(
        (l, i) =>
          l.unitPriceCents === current.lines[i]!.unitPriceCents &&
          l.basePriceCents === current.lines[i]!.basePriceCents,
      )
    )
      return { row: q, changed: false };
    const totals = totalsOf(lines, current.shippingCents);
    const updated = await writeRevision(ctx, tx, q, {
      revision: q.revision + 1,
      reason: 'adjusted',
      lines,
      discountPercent: pct,
      ...totals,
      note,
      validUntil: validUntilFrom(now),
      createdBy: actor.userId,
      createdAt: now,
    });
    await writeAudit(tx, actor, {
      action: 'quotation.revise',
      entityType: 'quotation',
      entityId: folio,
      before: { revision: q.revision, totalCents: current.totalCents },
      after: { revision: updated.revision, totalCents: totals.totalCents, discountPercent: pct },
    });
    return { row: updated, changed: true };
  });
  return { detail: await detailOf(ctx.db, q.row, now), changed: q.changed };
}

/** Staff extends a quotation's validity by `days` (from its end, or from today when it already expired). */
export async function extendQuotation(ctx: QuotationContext, actor: Actor, folio: string, days: number) {
  const now = nowOf(ctx);
  const q = await ctx.db.transaction(async (tx) => {
    const q = await findQuotation(tx, null, folio, true);
    const state = await stateOfRow(tx, q, now);
    if (state === 'convertida' || state === 'cancelada')
      throw conflict(
        `La cotización ${folio} está ${stateLabel(state).toLowerCase()}; ya no se puede extender`,
        'quotation_closed',
      );
    const current = await currentRevision(tx, q);
    const from = q.validUntil.getTime() > now.getTime() ? q.validUntil : now;
    const validUntil = validUntilFrom(from, days);
    const { quotationId: _id, revision: _r, createdAt: _c, createdBy: _b, ...kept } = current;
    const updated = await writeRevision(ctx, tx, q, {
      ...kept,
      revision: q.revision + 1,
      reason: 'extended',
      validUntil,
      createdBy: actor.userId,
      createdAt: now,
    });
    await writeAudit(tx, actor, {
      action: 'quotation.extend',
      entityType: 'quotation',
      entityId: folio,
      before: { validUntil: q.validUntil.toISOString() },
      after: { validUntil: validUntil.toISOString() },
    });
    return updated;
  });
  return detailOf(ctx.db, q, now);
}

/** All revisions of a quotation, oldest first (the back office's history). */
export async function revisionsOf(db: Db, quotationId: number) {
  return db
    .select({
      revision: quotationRevisions.revision,
      reason: quotationRevisions.reason,
      createdAt: quotationRevisions.createdAt,
      validUntil: quotationRevisions.validUntil,
      totalCents: quotationRevisions.totalCents,
      by: users.email,
    })
    .from(quotationRevisions)
    .leftJoin(users, eq(users.id, quotationRevisions.createdBy))
    .where(eq(quotationRevisions.quotationId, quotationId))
    .orderBy(asc(quotationRevisions.revision));
}
