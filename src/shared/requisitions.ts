/**
 * Requisitions (issue 34, decision 059): what a member of an institution sends for approval, and its life. The
 * states and events in Spanish for the screens and mails; the table of moves lives on the server
 * (src/server/requisitions/transitions.ts).
 */
export const REQUISITION_STATES = [
  'pendiente',
  'aprobada',
  'rechazada',
  'devuelta',
  'colocada',
  'cancelada',
] as const;
export type RequisitionState = (typeof REQUISITION_STATES)[number];

export const REQUISITION_STATE_LABELS: Record<RequisitionState, string> = {
  pendiente: 'Pendiente de aprobación',
  aprobada: 'Aprobada',
  rechazada: 'Rechazada',
  devuelta: 'Devuelta para cambios',
  colocada: 'Pedido colocado',
  cancelada: 'Cancelada',
};

export const REQUISITION_EVENTS = [
  'send',
  'resend',
  'approve',
  'reject',
  'return',
  'place',
  'reopen',
  'cancel',
] as const;
export type RequisitionEvent = (typeof REQUISITION_EVENTS)[number];

/** How the trail reads each event. */
export const REQUISITION_EVENT_LABELS: Record<RequisitionEvent, string> = {
  send: 'Enviada a aprobación',
  resend: 'Reenviada a aprobación',
  approve: 'Aprobada',
  reject: 'Rechazada',
  return: 'Devuelta para cambios',
  place: 'Pedido colocado',
  reopen: 'Sin pedido: el pago no pudo generarse; vuelve a aprobada',
  cancel: 'Cancelada',
};

/** REQ-000042: the requisition's number as people say it. */
export const requisitionFolio = (id: number) => `REQ-${String(id).padStart(6, '0')}`;
