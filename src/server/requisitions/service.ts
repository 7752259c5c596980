import { and, eq, inArray } from 'drizzle-orm';
import type { CreateRequisition } from '../../shared/schemas/requisitions.ts';
import type { SessionUser } from '../auth/session.ts';
import { quoteCart } from '../cart/quote.ts';
import type { Db } from '../db/client.ts';
import { requisitions } from '../db/schema.ts';
import { conflict } from '../http/errors.ts';
import { type Membership, requireInstitution } from '../institutions/membership.ts';
import { checkSpendingLimits } from '../institutions/spending.ts';
import { createQuotation, currentRevision, findQuotation, stateOfRow } from '../quotations/service.ts';
import { enqueueRequisitionMail } from './mail.ts';
import { approversFor, detailOf, personName } from './read.ts';
import { recordSent } from './transitions.ts';

/**
 * Sending for approval (issue 34, decision 059): the cart, priced by the server into a quotation issued for the
 * institution (prices frozen for its validity), or a quotation of one's own still valid; the requisition carries
 * it with the requester's note and the institution's two free fields, and the approvers who may approve it are
 * mailed.
 */
export type RequisitionCtx = { db: Db; publicUrl: string };

export const NO_APPROVAL_EMPTY = 'El carrito está vacío: agregue productos para enviarlo a aprobación';

/** POST /api/requisitions. */
export async function createRequisition(
  ctx: RequisitionCtx,
  user: SessionUser,
  membership: Membership | null,
  body: CreateRequisition,
) {
  const m = requireInstitution(membership, 'requisition.create');
  // The requester sending it: 'su límite'.
  const who = {
    institutionId: m.institution.id,
    userId: user.id,
    institution: m.institution.razonSocial,
    name: null,
  };
  let folio = body.quotation;
  if (folio) {
    const q = await findQuotation(ctx.db, { userId: user.id, institutionId: m.institution.id }, folio);
    const state = await stateOfRow(ctx.db, q);
    if (state !== 'vigente')
      throw conflict(
        `La cotización ${folio} no está vigente; solo una cotización vigente puede enviarse a aprobación`,
        'quotation_not_valid',
      );
    const [open] = await ctx.db
      .select({ id: requisitions.id })
      .from(requisitions)
      .where(
        and(
          eq(requisitions.quotationId, q.id),
          inArray(requisitions.state, ['pendiente', 'aprobada', 'devuelta']),
        ),
      );
    if (open) throw conflict(`La cotización ${folio} ya está en una requisición abierta`, 'quotation_in_use');
    await checkSpendingLimits(ctx.db, who, (await currentRevision(ctx.db, q)).totalCents);
  } else {
    const items = body.items ?? [];
    if (items.length === 0) throw conflict(NO_APPROVAL_EMPTY, 'empty_cart');
    // Above the requester's limits: said before a quotation is issued and mailed.
    const priced = await quoteCart(ctx.db, items, undefined, { institutionId: m.institution.id });
    await checkSpendingLimits(ctx.db, who, priced.totalCents);
    const issued = await createQuotation(
      ctx,
      user,
      { items, institution: m.institution.razonSocial, rfc: m.institution.rfc },
      m.institution.id,
    );
    folio = issued.folio;
  }
  const q = await findQuotation(ctx.db, { userId: user.id, institutionId: m.institution.id }, folio);
  const revision = await currentRevision(ctx.db, q);
  const now = new Date();
  const row = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(requisitions)
      .values({
        institutionId: m.institution.id,
        requesterId: user.id,
        quotationId: q.id,
        totalCents: revision.totalCents,
        lineCount: revision.lines.length,
        note: body.note ?? '',
        costCentre: body.costCentre ?? '',
        project: body.project ?? '',
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await recordSent(tx, created!, user.id, now);
    await enqueueRequisitionMail(
      tx,
      created!,
      m.institution,
      await approversFor(tx, m.institution.id, created!.totalCents, user.id),
      { kind: 'sent', requesterName: personName(user), resent: false },
      ctx.publicUrl,
      'first',
    );
    return created!;
  });
  return detailOf(ctx.db, m, user.id, row);
}
