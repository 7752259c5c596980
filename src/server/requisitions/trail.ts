import { desc, eq } from 'drizzle-orm';
import { REQUISITION_EVENT_LABELS, requisitionFolio } from '../../shared/requisitions.ts';
import type { RequisitionTrail } from '../../shared/schemas/requisitions.ts';
import type { Db } from '../db/client.ts';
import { requisitionEvents, requisitions, users } from '../db/schema.ts';
import { type Membership, requireInstitution } from '../institutions/membership.ts';
import { personName } from './read.ts';

/**
 * GET /api/requisitions/trail: the institution's audit trail of requisitions, newest first — who sent, approved,
 * rejected, returned, placed or cancelled what, when and why — for its administrador (`audit.read`).
 */
export async function institutionTrail(db: Db, membership: Membership | null): Promise<RequisitionTrail> {
  const m = requireInstitution(membership, 'audit.read');
  const rows = await db
    .select({
      requisitionId: requisitionEvents.requisitionId,
      event: requisitionEvents.event,
      reason: requisitionEvents.reason,
      orderNumber: requisitionEvents.orderNumber,
      at: requisitionEvents.at,
      totalCents: requisitions.totalCents,
      nombre: users.nombre,
      apellidoPat: users.apellidoPat,
      apellidoMat: users.apellidoMat,
    })
    .from(requisitionEvents)
    .innerJoin(requisitions, eq(requisitions.id, requisitionEvents.requisitionId))
    .leftJoin(users, eq(users.id, requisitionEvents.actorId))
    .where(eq(requisitions.institutionId, m.institution.id))
    .orderBy(desc(requisitionEvents.id))
    .limit(500);
  return {
    events: rows.map((r) => ({
      requisitionId: r.requisitionId,
      folio: requisitionFolio(r.requisitionId),
      event: r.event,
      label: REQUISITION_EVENT_LABELS[r.event],
      actor:
        r.nombre === null
          ? 'La tienda (regla de la institución)'
          : personName({
              nombre: r.nombre,
              apellidoPat: r.apellidoPat ?? '',
              apellidoMat: r.apellidoMat ?? '',
            }),
      reason: r.reason,
      orderNumber: r.orderNumber,
      totalCents: r.totalCents,
      at: r.at.toISOString(),
    })),
  };
}
