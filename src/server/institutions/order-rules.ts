import { and, eq, isNull } from 'drizzle-orm';
import { canInstitution, INSTITUTION_ROLE_LABELS } from '../../shared/institutions.ts';
import { formatMoney } from '../../shared/money.ts';
import type { Tx } from '../db/client.ts';
import { institutionMembers, institutions } from '../db/schema.ts';
import { conflict, forbidden } from '../http/errors.ts';
import { checkSpendingLimits } from './spending.ts';

/**
 * The one check the checkout runs when the session buys for an institution (issue 34, decision 058), inside the
 * order's transaction: the member may place orders, the institution's purchase-order rule, and the member's spending
 * limits per order and per calendar month in Mexico City time (their orders for this institution that were not
 * cancelled or refused, pending ones included, plus this one). The membership row is locked first, so two orders of
 * the same member at once cannot both pass a monthly limit only one of them fits.
 */
export const NO_LONGER_MEMBER =
  'Ya no pertenece a la institución para la que compraba; elija en el encabezado para quién compra';

export const cannotPlace = (institution: string, role: keyof typeof INSTITUTION_ROLE_LABELS) =>
  `Su papel en ${institution} (${INSTITUTION_ROLE_LABELS[role]}) no permite colocar pedidos: envíe el carrito a aprobación para que un comprador lo coloque.`;
export const institutionNeedsPurchaseOrder = (institution: string) =>
  `${institution} requiere el número de orden de compra en cada pedido. Escríbalo para continuar.`;

/**
 * The role part of the rule, alone: checkout asks it first, before the address, the cart or the card are looked at,
 * so a solicitante hears at once that their cart goes for approval; `checkInstitutionOrder` asks it again under the
 * membership's lock (a role changed in between is caught there).
 */
export function refuseUnlessMayPlace(
  membership: { role: keyof typeof INSTITUTION_ROLE_LABELS; institution: { razonSocial: string } },
  action: 'order.place' | 'order.place_on_credit' = 'order.place',
): void {
  if (!canInstitution(membership.role, action))
    throw forbidden(cannotPlace(membership.institution.razonSocial, membership.role));
}

export async function checkInstitutionOrder(
  tx: Tx,
  who: { userId: number; institutionId: number },
  order: { totalCents: number; purchaseOrder: string | null },
  action: 'order.place' | 'order.place_on_credit' = 'order.place',
  now = new Date(),
): Promise<{ institutionId: number }> {
  const [row] = await tx
    .select({ member: institutionMembers, institution: institutions })
    .from(institutionMembers)
    .innerJoin(institutions, eq(institutions.id, institutionMembers.institutionId))
    .where(
      and(
        eq(institutionMembers.institutionId, who.institutionId),
        eq(institutionMembers.userId, who.userId),
        isNull(institutionMembers.removedAt),
      ),
    )
    .for('update', { of: institutionMembers });
  if (!row) throw forbidden(NO_LONGER_MEMBER);
  const { member, institution } = row;
  const name = institution.razonSocial;
  refuseUnlessMayPlace({ role: member.role, institution }, action);
  if (institution.requiresPurchaseOrder && !order.purchaseOrder)
    throw conflict(institutionNeedsPurchaseOrder(name), 'purchase_order_required');
  // The membership row is locked above: the limits are read under it.
  await checkSpendingLimits(
    tx,
    { institutionId: who.institutionId, userId: who.userId, institution: name, name: null },
    order.totalCents,
    { now },
  );
  return { institutionId: who.institutionId };
}
