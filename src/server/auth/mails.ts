import { shop } from '../../shared/shop.ts';
import { renderMail } from '../mail/layout.ts';
import type { OutgoingMail } from '../mail/outbox.ts';

/** The accounts' mails, in Spanish, with the shop's identity (src/server/mail/layout.ts). */

type Person = { email: string; nombre: string };

export function recoveryCodeMail(to: Person, code: string, publicUrl: string): OutgoingMail {
  const subject = `Su código de recuperación: ${code}`;
  return {
    kind: 'recovery-code',
    to: to.email,
    subject,
    ...renderMail(
      {
        title: 'Recuperación de contraseña',
        preheader: `Código ${code}, válido 15 minutos`,
        greeting: `Hola, ${to.nombre}:`,
        blocks: [
          {
            kind: 'paragraph',
            text: 'Recibimos una solicitud para cambiar la contraseña de su cuenta. Su código es:',
          },
          { kind: 'code', text: code },
          {
            kind: 'paragraph',
            text: 'Escríbalo en la página "Recuperar contraseña" junto con su nueva contraseña. El código vale 15 minutos y sólo se puede usar una vez.',
          },
          { kind: 'button', label: 'Cambiar contraseña', url: `${publicUrl}/codigo_recuperar` },
          {
            kind: 'note',
            text: 'Si usted no lo pidió, ignore este correo: su contraseña no cambiará. Nunca le pediremos este código por teléfono ni por WhatsApp.',
          },
        ],
      },
      publicUrl,
    ),
  };
}

/** Registration step 2: the 6-digit code that creates the account (issue 23). */
export function verificationCodeMail(to: Person, code: string, publicUrl: string): OutgoingMail {
  return {
    kind: 'register-code',
    to: to.email,
    subject: `Su código de verificación: ${code}`,
    ...renderMail(
      {
        title: 'Confirme su correo',
        preheader: `Código ${code}, válido 15 minutos`,
        greeting: `Hola, ${to.nombre}:`,
        blocks: [
          {
            kind: 'paragraph',
            text: `Para terminar de crear su cuenta en ${shop.tradeName}, escriba este código en la página de registro:`,
          },
          { kind: 'code', text: code },
          {
            kind: 'paragraph',
            text: 'El código vale 15 minutos y sólo se puede usar una vez.',
          },
          {
            kind: 'note',
            text: 'Si usted no pidió crear una cuenta, ignore este correo: no se creará ninguna. Nunca le pediremos este código por teléfono ni por WhatsApp.',
          },
        ],
      },
      publicUrl,
    ),
  };
}

export function welcomeMail(to: Person, publicUrl: string): OutgoingMail {
  return {
    kind: 'welcome',
    to: to.email,
    subject: `Bienvenido a ${shop.tradeName}`,
    ...renderMail(
      {
        title: `Bienvenido a ${shop.tradeName}`,
        preheader: 'Su cuenta está lista',
        greeting: `Hola, ${to.nombre}:`,
        blocks: [
          {
            kind: 'paragraph',
            text: `Gracias por crear su cuenta. Ya puede comprar equipo, material y reactivos para laboratorio con envío a todo México, seguir sus pedidos y solicitar su factura CFDI 4.0.`,
          },
          { kind: 'rows', rows: [['Cuenta', to.email]] },
          { kind: 'button', label: 'Ir a la tienda', url: `${publicUrl}/` },
          {
            kind: 'note',
            text: `¿Dudas? Escríbanos a ${shop.email} o llámenos al ${shop.phones[0] ?? ''}. ${shop.hours}.`,
          },
        ],
      },
      publicUrl,
    ),
  };
}

/** Sent instead of a second account when someone registers an e-mail that already has one. */
export function existingAccountMail(to: Person, publicUrl: string): OutgoingMail {
  return {
    kind: 'register-existing',
    to: to.email,
    subject: `Ya tiene una cuenta en ${shop.tradeName}`,
    ...renderMail(
      {
        title: 'Ya tiene una cuenta con este correo',
        greeting: `Hola, ${to.nombre}:`,
        blocks: [
          {
            kind: 'paragraph',
            text: 'Alguien (quizá usted) intentó registrar una cuenta nueva con este correo. Como ya existe una, no creamos otra.',
          },
          { kind: 'button', label: 'Ingresar', url: `${publicUrl}/ingresar` },
          {
            kind: 'paragraph',
            text: `Si olvidó su contraseña, puede recuperarla en ${publicUrl}/recuperar.`,
          },
          { kind: 'note', text: 'Si no fue usted, puede ignorar este correo.' },
        ],
      },
      publicUrl,
    ),
  };
}

export function passwordChangedMail(to: Person, publicUrl: string): OutgoingMail {
  return {
    kind: 'password-changed',
    to: to.email,
    subject: 'Su contraseña fue cambiada',
    ...renderMail(
      {
        title: 'Su contraseña fue cambiada',
        greeting: `Hola, ${to.nombre}:`,
        blocks: [
          {
            kind: 'paragraph',
            text: 'La contraseña de su cuenta acaba de cambiar y cerramos las sesiones abiertas en otros dispositivos.',
          },
          {
            kind: 'note',
            text: `Si usted no hizo este cambio, recupere su contraseña en ${publicUrl}/recuperar y avísenos a ${shop.email}.`,
          },
        ],
      },
      publicUrl,
    ),
  };
}
