import { z } from 'zod';
import { INSTITUTION_ROLES } from '../institutions.ts';
import { REQUISITION_EVENTS, REQUISITION_STATES } from '../requisitions.ts';
import { cartLinesSchema } from './cart.ts';
import { purchaseOrderSchema, quotationFolioSchema } from './orders.ts';

/**
 * Requisitions API payloads (issue 34, decision 059): the contract between src/server/requisitions and
 * src/client/requisitions. Amounts are integer centavos with IVA included, and every one is the server's.
 */

const noControl = (v: string) => !/[\p{Cc}\p{Cf}]/u.test(v.replace(/[\n\r\t]/g, ''));

const freeText = (label: string, max: number) =>
  z
    .string({ error: `${label} debe ser texto` })
    .trim()
    .max(max, `${label} admite hasta ${max} caracteres`)
    .refine(noControl, `${label} contiene caracteres no válidos`);

/** The requester's words: note, and the institution's two free fields. */
export const requisitionFieldsSchema = z.object({
  note: freeText('La nota', 1000).optional(),
  costCentre: freeText('El centro de costos', 80).optional(),
  project: freeText('El proyecto', 80).optional(),
});

/** POST /api/requisitions: the cart (codes and quantities; the server prices them) or a quotation of one's own. */
export const createRequisitionSchema = requisitionFieldsSchema.extend({
  items: cartLinesSchema.optional(),
  quotation: quotationFolioSchema.optional(),
});
export type CreateRequisition = z.input<typeof createRequisitionSchema>;

export const requisitionIdParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'Requisición no encontrada' })
    .int('Requisición no encontrada')
    .min(1, 'Requisición no encontrada')
    .max(2_147_483_647, 'Requisición no encontrada'),
});

/** Reject and return need a reason; the server refuses an empty one. */
export const decisionSchema = z.object({
  reason: z
    .string({ error: 'Escriba el motivo' })
    .trim()
    .min(3, 'Escriba el motivo (al menos 3 caracteres)')
    .max(500, 'El motivo admite hasta 500 caracteres')
    .refine(noControl, 'El motivo contiene caracteres no válidos'),
});
export const approveSchema = z.object({ reason: freeText('El comentario', 500).optional() });
export const placeRequisitionSchema = z.object({ purchaseOrder: purchaseOrderSchema.optional() });

export const requisitionStateSchema = z.enum(REQUISITION_STATES);

export const requisitionSummarySchema = z.object({
  id: z.number().int(),
  folio: z.string(),
  state: requisitionStateSchema,
  stateLabel: z.string(),
  requesterName: z.string(),
  totalCents: z.number().int(),
  lineCount: z.number().int(),
  costCentre: z.string(),
  project: z.string(),
  createdAt: z.string(),
  orderNumber: z.number().int().nullable(),
});
export type RequisitionSummary = z.infer<typeof requisitionSummarySchema>;

export const requisitionListSchema = z.object({
  institution: z.object({ razonSocial: z.string(), costCentreLabel: z.string(), projectLabel: z.string() }),
  /** The administrador reads the institution's whole trail (GET /api/requisitions/trail). */
  canReadTrail: z.boolean(),
  requisitions: z.array(requisitionSummarySchema),
});
export type RequisitionList = z.infer<typeof requisitionListSchema>;

export const requisitionDetailSchema = requisitionSummarySchema.extend({
  institution: z.object({
    razonSocial: z.string(),
    rfc: z.string(),
    costCentreLabel: z.string(),
    projectLabel: z.string(),
    approvalPlacesOrder: z.boolean(),
  }),
  note: z.string(),
  requesterEmail: z.string(),
  quotationFolio: z.string(),
  validUntil: z.string(),
  lines: z.array(
    z.object({
      code: z.string(),
      description: z.string(),
      unitPriceCents: z.number().int(),
      quantity: z.number().int(),
      amountCents: z.number().int(),
    }),
  ),
  subtotalCents: z.number().int(),
  shippingCents: z.number().int(),
  ivaCents: z.number().int(),
  reason: z.string().nullable(),
  trail: z.array(
    z.object({
      event: z.enum(REQUISITION_EVENTS),
      label: z.string(),
      actor: z.string(),
      reason: z.string().nullable(),
      orderNumber: z.number().int().nullable(),
      at: z.string(),
    }),
  ),
  /** What the session's member may do now (the server checks each again). */
  actions: z.object({
    approve: z.boolean(),
    reject: z.boolean(),
    return: z.boolean(),
    place: z.boolean(),
    edit: z.boolean(),
    cancel: z.boolean(),
  }),
  /** Why placing would be refused now (a spending limit), said before the comprador tries. */
  placeNote: z.string().nullable(),
});
export type RequisitionDetail = z.infer<typeof requisitionDetailSchema>;

export const requisitionTrailSchema = z.object({
  events: z.array(
    z.object({
      requisitionId: z.number().int(),
      folio: z.string(),
      event: z.enum(REQUISITION_EVENTS),
      label: z.string(),
      actor: z.string(),
      reason: z.string().nullable(),
      orderNumber: z.number().int().nullable(),
      totalCents: z.number().int(),
      at: z.string(),
    }),
  ),
});
export type RequisitionTrail = z.infer<typeof requisitionTrailSchema>;

/** What the cart's «Enviar a aprobación» and the new requisition page need to know about the session. */
export const requisitionContextSchema = z.object({
  institution: z
    .object({
      id: z.number().int(),
      razonSocial: z.string(),
      role: z.enum(INSTITUTION_ROLES),
      costCentreLabel: z.string(),
      projectLabel: z.string(),
    })
    .nullable(),
});
export type RequisitionContext = z.infer<typeof requisitionContextSchema>;

/** Approving may place the order at once (the institution's rule): the answer says which order, or why not. */
export const decisionResponseSchema = z.object({
  requisition: requisitionDetailSchema,
  placed: z.object({ orderNumber: z.number().int() }).nullable(),
  placeError: z.string().nullable(),
});
export type DecisionResponse = z.infer<typeof decisionResponseSchema>;
