import { type Actor, auditPage, writeAudit } from '../audit/log.ts';
import type { Db } from '../db/client.ts';

/**
 * The institution's audit trail (decision 058): the shop's one audit log, entity 'institution' and its id. Every
 * change of members, invitations, settings, terms and addresses is written in the transaction of the change, with
 * who made it (a member or staff); the administrador reads their institution's entries, staff read them all.
 */
export const INSTITUTION_ENTITY = 'institution';

export const writeInstitutionAudit = (
  tx: Db,
  actor: Actor,
  institutionId: number,
  action: string,
  change: { before?: unknown; after?: unknown } = {},
) => writeAudit(tx, actor, { action, entityType: INSTITUTION_ENTITY, entityId: institutionId, ...change });

export const institutionAuditPage = (
  db: Db,
  institutionId: number,
  page: { limit: number; offset: number },
) => auditPage(db, { entityType: INSTITUTION_ENTITY, entityId: String(institutionId) }, page);
