import { mexicoLongDate } from '../../shared/mexico-time.ts';
import { shop } from '../../shared/shop.ts';
import { STAFF_ROLE_LABELS, type StaffRole } from '../../shared/staff-roles.ts';
import { renderMail } from '../mail/layout.ts';
import type { OutgoingMail } from '../mail/outbox.ts';

/** The invitation to join the staff: its single-use link, valid until `expiresAt`. */
export function staffInvitationMail(invitation: {
  to: string;
  role: StaffRole;
  invitedBy: string;
  url: string;
  expiresAt: Date;
  publicUrl: string;
}): OutgoingMail {
  const role = STAFF_ROLE_LABELS[invitation.role];
  return {
    kind: 'staff-invitation',
    to: invitation.to,
    subject: `Invitación al personal de ${shop.tradeName}`,
    ...renderMail(
      {
        title: 'Invitación al personal de la tienda',
        preheader: `${invitation.invitedBy} lo invita con el rol ${role}`,
        greeting: 'Hola:',
        blocks: [
          {
            kind: 'paragraph',
            text: `${invitation.invitedBy} lo invita a la administración de ${shop.tradeName}.`,
          },
          {
            kind: 'rows',
            rows: [
              ['Rol', role],
              ['Válida hasta', mexicoLongDate(invitation.expiresAt)],
            ],
          },
          { kind: 'button', label: 'Crear mi acceso', url: invitation.url },
          {
            kind: 'paragraph',
            text: 'Escriba su nombre y una contraseña; al entrar configurará la verificación en dos pasos con una aplicación de autenticación en su teléfono. El enlace sirve una sola vez.',
          },
          {
            kind: 'note',
            text: 'Si no esperaba esta invitación, ignore este correo: nadie tendrá acceso por ella.',
          },
        ],
      },
      invitation.publicUrl,
    ),
  };
}
