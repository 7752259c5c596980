import { eq } from 'drizzle-orm';
import { formatMoney } from '../../shared/money.ts';
import type { ReturnState } from '../../shared/returns.ts';
import { shop } from '../../shared/shop.ts';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { renderMail } from '../mail/layout.ts';
import { enqueueMail } from '../mail/outbox.ts';

/** Each step of a return mails its buyer (in the step's transaction, once per return and state). */

type MailReturn = {
  id: number;
  orderNumber: number;
  userId: number;
  lines: { description: string; quantity: number }[];
  valueCents: number;
  instructions?: string | null;
  labelUrl?: string | null;
  staffNote?: string | null;
  refundSentence?: string | null;
};

const SUBJECTS: Record<ReturnState, (r: MailReturn) => string> = {
  requested: (r) => `Recibimos su solicitud de devolución #${r.id} (pedido #${r.orderNumber})`,
  authorized: (r) => `Devolución #${r.id} autorizada: cómo enviarnos la mercancía`,
  refused: (r) => `Devolución #${r.id}: no podemos aceptarla`,
  received: (r) => `Devolución #${r.id}: recibimos la mercancía`,
  refunded: (r) => `Devolución #${r.id}: reembolso de ${formatMoney(r.valueCents)}`,
  closed: (r) => `Devolución #${r.id} cerrada`,
};

function bodyOf(state: ReturnState, r: MailReturn) {
  switch (state) {
    case 'requested':
      return 'Revisaremos su solicitud y le responderemos en un máximo de dos días hábiles con las instrucciones de envío. No envíe la mercancía antes de que la autoricemos.';
    case 'authorized':
      return `Autorizamos su devolución. Envíenos la mercancía así: ${r.instructions ?? ''}`;
    case 'refused':
      return `No podemos aceptar su devolución: ${r.staffNote ?? ''}`;
    case 'received':
      return 'Recibimos la mercancía. La revisaremos y le avisaremos del reembolso.';
    case 'refunded':
      return `Revisamos la mercancía y la devolución procede. ${r.refundSentence ?? ''} Si su pedido tiene factura, le enviaremos la nota de crédito (CFDI de egreso) por el importe devuelto.`;
    case 'closed':
      return `Revisamos la mercancía y la devolución no procede: ${r.staffNote ?? ''}`;
  }
}

export async function enqueueReturnMail(tx: Db, state: ReturnState, r: MailReturn, publicUrl: string) {
  const [to] = await tx
    .select({ email: users.email, nombre: users.nombre })
    .from(users)
    .where(eq(users.id, r.userId));
  if (!to) return;
  const subject = SUBJECTS[state](r);
  const { html, text } = renderMail(
    {
      title: subject,
      greeting: `Hola, ${to.nombre}:`,
      blocks: [
        { kind: 'paragraph', text: bodyOf(state, r) },
        ...(state === 'authorized' && r.labelUrl
          ? [{ kind: 'button' as const, label: 'Descargar la guía de envío', url: r.labelUrl }]
          : []),
        {
          kind: 'rows',
          rows: r.lines.map((l): [string, string] => [
            l.description,
            `${l.quantity} ${l.quantity === 1 ? 'pieza' : 'piezas'}`,
          ]),
        },
        {
          kind: 'button',
          label: 'Ver la devolución',
          url: `${publicUrl}/historial/devoluciones/${r.orderNumber}`,
        },
      ],
    },
    publicUrl,
  );
  await enqueueMail(tx, {
    kind: `return-${state}`,
    to: to.email,
    subject,
    html,
    text,
    dedupeKey: `return:${r.id}:${state}`,
  });
}

/** A new request tells the shop's returns mailbox (atención a clientes), so it is answered within two business days. */
export async function enqueueStaffReturnNotice(
  tx: Db,
  r: MailReturn & { reasonLabel: string },
  publicUrl: string,
) {
  const subject = `Nueva solicitud de devolución #${r.id} (pedido #${r.orderNumber})`;
  const { html, text } = renderMail(
    {
      title: subject,
      blocks: [
        {
          kind: 'paragraph',
          text: `${r.reasonLabel} · ${formatMoney(r.valueCents)}. Autorícela o recházela en «Devoluciones».`,
        },
        {
          kind: 'rows',
          rows: r.lines.map((l): [string, string] => [
            l.description,
            `${l.quantity} ${l.quantity === 1 ? 'pieza' : 'piezas'}`,
          ]),
        },
        { kind: 'button', label: 'Abrir la devolución', url: `${publicUrl}/admin/devoluciones/${r.id}` },
      ],
    },
    publicUrl,
  );
  await enqueueMail(tx, {
    kind: 'return-staff',
    to: shop.complaintsEmail,
    subject,
    html,
    text,
    dedupeKey: `return:${r.id}:staff`,
  });
}
