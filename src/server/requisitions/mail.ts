import { formatMoney } from '../../shared/money.ts';
import { requisitionFolio } from '../../shared/requisitions.ts';
import type { Db } from '../db/client.ts';
import { renderMail } from '../mail/layout.ts';
import { enqueueMail } from '../mail/outbox.ts';
import type { RequisitionRow } from './transitions.ts';

/**
 * The mails of a requisition (decision 059), queued in the transaction of the event that causes them: to the
 * approvers whose limit covers it when it is sent, to the requester when it is decided or placed.
 */
export type RequisitionMail =
  | { kind: 'sent'; requesterName: string; resent: boolean }
  | { kind: 'approved'; approverName: string; reason: string | null; placesAtOnce: boolean }
  | { kind: 'rejected'; approverName: string; reason: string }
  | { kind: 'returned'; approverName: string; reason: string }
  | { kind: 'placed'; orderNumber: number };

type Recipient = { email: string; name: string };

function contentOf(mail: RequisitionMail, folio: string, institution: string) {
  switch (mail.kind) {
    case 'sent':
      return {
        subject: `Requisición ${folio} por aprobar`,
        intro: `${mail.requesterName} ${mail.resent ? 'reenvió' : 'envió'} la requisición ${folio} de ${institution} para su aprobación.`,
        note: null,
        button: 'Revisar la requisición',
      };
    case 'approved':
      return {
        subject: `Requisición ${folio} aprobada`,
        intro: `${mail.approverName} aprobó su requisición ${folio}. ${mail.placesAtOnce ? 'El pedido se coloca de inmediato, por la regla de su institución.' : 'Un comprador de su institución colocará el pedido.'}`,
        note: mail.reason ? `Comentario: ${mail.reason}` : null,
        button: 'Ver la requisición',
      };
    case 'rejected':
      return {
        subject: `Requisición ${folio} rechazada`,
        intro: `${mail.approverName} rechazó su requisición ${folio}.`,
        note: `Motivo: ${mail.reason}`,
        button: 'Ver la requisición',
      };
    case 'returned':
      return {
        subject: `Requisición ${folio} devuelta para cambios`,
        intro: `${mail.approverName} le devolvió la requisición ${folio} para que la corrija y la envíe de nuevo.`,
        note: `Qué cambiar: ${mail.reason}`,
        button: 'Corregir y reenviar',
      };
    case 'placed':
      return {
        subject: `Requisición ${folio}: pedido #${mail.orderNumber} colocado`,
        intro: `Su requisición ${folio} se colocó como el pedido #${mail.orderNumber}, a los precios cotizados.`,
        note: null,
        button: 'Ver la requisición',
      };
  }
}

export async function enqueueRequisitionMail(
  tx: Db,
  row: RequisitionRow,
  inst: { razonSocial: string; costCentreLabel: string; projectLabel: string },
  recipients: readonly Recipient[],
  mail: RequisitionMail,
  publicUrl: string,
  /** Distinguishes two mails of the same kind for the same requisition (a resend after a return). */
  occurrence: string,
) {
  const folio = requisitionFolio(row.id);
  const institution = inst.razonSocial;
  const c = contentOf(mail, folio, institution);
  for (const to of recipients) {
    const { html, text } = renderMail(
      {
        title: c.subject,
        preheader: `${formatMoney(row.totalCents)} · ${row.lineCount} ${row.lineCount === 1 ? 'producto' : 'productos'}`,
        greeting: `Hola, ${to.name}:`,
        blocks: [
          { kind: 'paragraph', text: c.intro },
          {
            kind: 'rows',
            rows: [
              ['Requisición', folio],
              ['Institución', institution],
              ['Total (IVA incluido)', formatMoney(row.totalCents)],
              ['Productos', String(row.lineCount)],
              ...(row.costCentre ? [[inst.costCentreLabel, row.costCentre] as [string, string]] : []),
              ...(row.project ? [[inst.projectLabel, row.project] as [string, string]] : []),
            ],
          },
          ...(c.note ? [{ kind: 'paragraph' as const, text: c.note }] : []),
          ...(mail.kind === 'sent' && row.note
            ? [{ kind: 'paragraph' as const, text: `Nota: ${row.note}` }]
            : []),
          { kind: 'button', label: c.button, url: `${publicUrl}/requisiciones/${row.id}` },
        ],
      },
      publicUrl,
    );
    await enqueueMail(tx, {
      kind: `requisition-${mail.kind}`,
      to: to.email,
      subject: c.subject,
      html,
      text,
      dedupeKey: `requisition:${row.id}:${mail.kind}:${occurrence}:${to.email}`,
    });
  }
}
