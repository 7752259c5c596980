import {
  INSTITUTION_ROLE_HELP,
  INSTITUTION_ROLE_LABELS,
  type InstitutionRole,
} from '../../shared/institutions.ts';
import { mexicoLongDate } from '../../shared/mexico-time.ts';
import { shop } from '../../shared/shop.ts';
import { renderMail } from '../mail/layout.ts';
import type { OutgoingMail } from '../mail/outbox.ts';

/** The invitation to join an institution: its single-use link, valid until `expiresAt`. */
export function invitationMail(invitation: {
  to: string;
  institution: string;
  role: InstitutionRole;
  invitedBy: string;
  url: string;
  expiresAt: Date;
  publicUrl: string;
}): OutgoingMail {
  const role = INSTITUTION_ROLE_LABELS[invitation.role];
  const subject = `Invitación para comprar a nombre de ${invitation.institution}`;
  return {
    kind: 'institution-invitation',
    to: invitation.to,
    subject,
    ...renderMail(
      {
        title: 'Invitación a una cuenta institucional',
        preheader: `${invitation.institution} lo invita como ${role.toLowerCase()}`,
        greeting: 'Hola:',
        blocks: [
          {
            kind: 'paragraph',
            text: `${invitation.invitedBy} lo invita a comprar en ${shop.tradeName} a nombre de ${invitation.institution}.`,
          },
          {
            kind: 'rows',
            rows: [
              ['Institución', invitation.institution],
              ['Su papel', `${role}: ${INSTITUTION_ROLE_HELP[invitation.role]}`],
              ['Válida hasta', mexicoLongDate(invitation.expiresAt)],
            ],
          },
          { kind: 'button', label: 'Aceptar la invitación', url: invitation.url },
          {
            kind: 'paragraph',
            text: `Inicie sesión (o cree su cuenta) con este mismo correo, ${invitation.to}, y acepte. El enlace sirve una sola vez.`,
          },
          {
            kind: 'note',
            text: 'Si no esperaba esta invitación, ignore este correo: nadie tendrá acceso a su cuenta por ella.',
          },
        ],
      },
      invitation.publicUrl,
    ),
  };
}
