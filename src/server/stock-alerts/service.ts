import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import { shop } from '../../shared/shop.ts';
import type { Db } from '../db/client.ts';
import { products, stockAlerts } from '../db/schema.ts';
import { conflict, notFound } from '../http/errors.ts';
import { renderMail } from '../mail/layout.ts';
import { enqueueMail } from '../mail/outbox.ts';

/**
 * 'Avísame cuando haya' (issue 35, decision 062). A subscription waits while its product has no stock; the round
 * `notifyRestocked` (a job of the registry, every minute) finds the waiting ones whose product has stock again —
 * whatever put it back: an import, a staff adjustment, a goods receipt, a return, a cancellation — and queues one
 * mail each through the outbox, with a fresh unsubscribe link. The token is kept only as its SHA-256.
 */

/** Waiting alerts one address may hold (an abuse brake beside the per-address rate limit of the route). */
export const MAX_WAITING_PER_EMAIL = 30;
export const SUBSCRIBED_MESSAGE = 'Listo: le escribiremos una sola vez cuando vuelva a haber existencia.';

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(24).toString('base64url');

export async function subscribe(
  db: Db,
  request: { code: string; email: string; userId: number | null },
): Promise<string> {
  const [product] = await db
    .select({ code: products.code, stock: products.stock, active: products.active })
    .from(products)
    .where(eq(products.code, request.code));
  if (!product?.active) throw notFound('Producto no encontrado');
  if (product.stock > 0) throw conflict('Este producto tiene existencia: puede comprarlo ahora', 'in_stock');
  const email = request.email.toLowerCase();
  // An address that asked for no more notices is not subscribed again by someone who is not signed in as it.
  if (request.userId === null) {
    const optedOut = await db.$count(
      stockAlerts,
      and(eq(stockAlerts.email, email), isNotNull(stockAlerts.unsubscribedAt)),
    );
    if (optedOut > 0)
      throw conflict(
        'Este correo pidió no recibir avisos de existencia; inicie sesión con él para volver a pedirlos',
        'opted_out',
      );
  }
  const waiting = await db.$count(
    stockAlerts,
    and(eq(stockAlerts.email, email), isNull(stockAlerts.notifiedAt), isNull(stockAlerts.unsubscribedAt)),
  );
  if (waiting >= MAX_WAITING_PER_EMAIL)
    throw conflict(
      `Este correo ya espera aviso de ${MAX_WAITING_PER_EMAIL} productos; le avisaremos de esos primero`,
      'too_many',
    );
  // One per address and product: asking again while waiting changes nothing; after a notice or a «baja», it waits again.
  await db
    .insert(stockAlerts)
    .values({ productCode: product.code, email, userId: request.userId, tokenHash: hash(newToken()) })
    .onConflictDoUpdate({
      target: [stockAlerts.productCode, stockAlerts.email],
      set: { notifiedAt: null, unsubscribedAt: null, createdAt: sql`now()` },
      setWhere: sql`${stockAlerts.notifiedAt} is not null or ${stockAlerts.unsubscribedAt} is not null`,
    });
  return SUBSCRIBED_MESSAGE;
}

/** The round: one mail per waiting alert whose product is back in stock (at most `batch` per round). */
export async function notifyRestocked(db: Db, publicUrl: string, batch = 200): Promise<number> {
  const due = await db
    .select({
      id: stockAlerts.id,
      email: stockAlerts.email,
      code: products.code,
      name: products.name,
      label: products.presentationLabel,
    })
    .from(stockAlerts)
    .innerJoin(products, eq(products.code, stockAlerts.productCode))
    .where(
      and(
        isNull(stockAlerts.notifiedAt),
        isNull(stockAlerts.unsubscribedAt),
        gt(products.stock, 0),
        eq(products.active, true),
      ),
    )
    .orderBy(asc(stockAlerts.id))
    .limit(batch);
  let sent = 0;
  const site = publicUrl.replace(/\/$/, '');
  for (const alert of due) {
    const token = newToken();
    const queued = await db.transaction(async (tx) => {
      // Claimed by the update itself: a second process or round finds it notified and sends nothing.
      const claimed = await tx
        .update(stockAlerts)
        .set({ notifiedAt: sql`now()`, tokenHash: hash(token) })
        .where(
          and(
            eq(stockAlerts.id, alert.id),
            isNull(stockAlerts.notifiedAt),
            isNull(stockAlerts.unsubscribedAt),
          ),
        )
        .returning({ id: stockAlerts.id });
      if (claimed.length === 0) return false;
      const name = alert.label ? `${alert.name}, ${alert.label}` : alert.name;
      const unsubscribe = `${site}/avisos/baja?t=${token}`;
      const { html, text } = renderMail(
        {
          title: `Ya hay existencia: ${name}`,
          blocks: [
            {
              kind: 'paragraph',
              text: `Nos pidió avisarle cuando volviera a haber ${name} (código ${alert.code}). Ya hay existencia; las piezas se apartan al pagar.`,
            },
            {
              kind: 'button',
              label: 'Ver el producto',
              url: `${site}/productos/${encodeURIComponent(alert.code)}`,
            },
            {
              kind: 'note',
              text: `Este es el único aviso de este producto. Para no recibir más avisos de existencia en este correo, dése de baja: ${unsubscribe}`,
            },
          ],
        },
        publicUrl,
      );
      await enqueueMail(tx, {
        kind: 'stock-alert',
        to: alert.email,
        subject: `Ya hay existencia de ${name} — ${shop.tradeName}`,
        html,
        text,
        dedupeKey: `stock-alert:${alert.id}:${hash(token).slice(0, 16)}`,
      });
      return true;
    });
    if (queued) sent += 1;
  }
  return sent;
}

/**
 * «Darme de baja» from the mail's link, without signing in: every alert of that address ends (waiting ones too),
 * and the address is not subscribed again unless signed in as it. A wrong token changes nothing.
 */
export async function unsubscribe(db: Db, token: string): Promise<{ email: string } | null> {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return null;
  const [row] = await db
    .select({ email: stockAlerts.email })
    .from(stockAlerts)
    .where(eq(stockAlerts.tokenHash, hash(token)));
  if (!row) return null;
  await db
    .update(stockAlerts)
    .set({ unsubscribedAt: sql`coalesce(${stockAlerts.unsubscribedAt}, now())` })
    .where(eq(stockAlerts.email, row.email));
  return row;
}
