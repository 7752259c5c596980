import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { renderMail } from '../mail/layout.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { rows } from './sql.ts';

const longDate = (day: string) =>
  new Intl.DateTimeFormat('es-MX', { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );

/** 'Su pedido #N va en camino': the guide, the carrier and the expected date, in the shipping transaction. */
export async function enqueueOrderShippedMail(
  tx: Db,
  order: {
    number: number;
    userId: number;
    trackingGuide: string;
    deliveryProvider: string;
    deliveryDate: string;
  },
  publicUrl: string,
) {
  const [to] = await rows<{ email: string; nombre: string }>(
    tx,
    sql`select email, nombre from users where id = ${order.userId}`,
  );
  if (!to) return;
  const title = `Su pedido #${order.number} va en camino`;
  const { html, text } = renderMail(
    {
      title,
      preheader: `Guía ${order.trackingGuide} · ${order.deliveryProvider}`,
      greeting: `Hola, ${to.nombre}:`,
      blocks: [
        { kind: 'paragraph', text: `Enviamos su pedido #${order.number}. Puede rastrearlo con estos datos:` },
        {
          kind: 'rows',
          rows: [
            ['Guía de rastreo', order.trackingGuide],
            ['Paquetería', order.deliveryProvider],
            ['Entrega estimada', longDate(order.deliveryDate)],
          ],
        },
        { kind: 'button', label: 'Ver mis pedidos', url: `${publicUrl}/historial` },
        {
          kind: 'note',
          text: 'Un pedido enviado ya no puede cancelarse desde la tienda; si necesita devolverlo, escríbanos.',
        },
      ],
    },
    publicUrl,
  );
  await enqueueMail(tx, {
    kind: 'order-shipped',
    to: to.email,
    subject: title,
    html,
    text,
    dedupeKey: `order-shipped:${order.number}`,
  });
}
