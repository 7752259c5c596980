import { and, asc, eq, isNull } from 'drizzle-orm';
import { daysLeftLabel } from '../../shared/low-stock.ts';
import { mexicoCityDate, mexicoLongDate, mexicoWallClock } from '../../shared/mexico-time.ts';
import { groupThousands } from '../../shared/money.ts';
import { shop } from '../../shared/shop.ts';
import type { StaffRole } from '../../shared/staff-roles.ts';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { renderMail } from '../mail/layout.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { lowStock } from './service.ts';

/**
 * The almacén's daily digest of 'Por agotarse' (issue 36, decision 066): a job of the registry (jobs.ts) runs this
 * every hour; from DIGEST_HOUR on (Mexico City), the first round of the day that finds something low queues one mail
 * per almacén staff member (active accounts; none: the administradores) through the outbox. The outbox's dedupe key
 * (day + address) makes it one mail a day per person, whatever the number of rounds, processes or hosts; a day with
 * nothing low sends nothing.
 */

/** Mexico City hour from which the day's digest goes out (07:00, before the warehouse opens). */
export const DIGEST_HOUR = 7;
/** Lines listed in the mail; the rest are on the screen. */
export const DIGEST_MAX_LINES = 40;

export type DigestOutcome = 'early' | 'empty' | 'no-recipients' | number;

async function staffWith(db: Db, role: StaffRole): Promise<string[]> {
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.role, 'staff'), eq(users.staffRole, role), isNull(users.staffDisabledAt)))
    .orderBy(asc(users.id));
  return rows.map((r) => r.email);
}

/** Who gets the digest: the almacén's active accounts, else the administradores. */
export async function digestRecipients(db: Db): Promise<string[]> {
  const almacen = await staffWith(db, 'almacen');
  return almacen.length > 0 ? almacen : staffWith(db, 'administrador');
}

export async function lowStockDigestRound(
  db: Db,
  options: { publicUrl: string; defaultReorderPoint: number },
  now = new Date(),
): Promise<DigestOutcome> {
  if (Number(mexicoWallClock(now).slice(11, 13)) < DIGEST_HOUR) return 'early';
  const { items } = await lowStock(db, options.defaultReorderPoint, now);
  if (items.length === 0) return 'empty';
  const recipients = await digestRecipients(db);
  if (recipients.length === 0) return 'no-recipients';
  const day = mexicoCityDate(now);
  const site = options.publicUrl.replace(/\/$/, '');
  const out = items.filter((i) => i.stock === 0).length;
  const count = items.length === 1 ? 'una presentación' : `${groupThousands(items.length)} presentaciones`;
  const shown = items.slice(0, DIGEST_MAX_LINES);
  const { html, text } = renderMail(
    {
      title: `Por agotarse: ${count}`,
      preheader: out > 0 ? `${out} sin existencia` : 'Revise los puntos de reorden',
      blocks: [
        {
          kind: 'paragraph',
          text: `Resumen del ${mexicoLongDate(now)}: ${count} en su punto de reorden o por agotarse al ritmo de ventas de los últimos 90 días${out > 0 ? `, ${out === 1 ? 'una de ellas agotada' : `${out} de ellas agotadas`}` : ''}. Ordenadas por los días de existencia que quedan.`,
        },
        {
          kind: 'rows',
          rows: shown.map((i) => [
            `${i.code} · ${i.presentationLabel ? `${i.name}, ${i.presentationLabel}` : i.name}`,
            `${groupThousands(i.stock)} pzas. (reorden ${groupThousands(i.effectiveReorderPoint)}) · ${daysLeftLabel(i.daysLeft)}`,
          ]),
        },
        ...(items.length > shown.length
          ? [
              {
                kind: 'note' as const,
                text: `Y ${items.length - shown.length} más en la pantalla «Por agotarse».`,
              },
            ]
          : []),
        { kind: 'button', label: 'Abrir «Por agotarse»', url: `${site}/admin/por-agotarse` },
      ],
    },
    options.publicUrl,
  );
  let queued = 0;
  for (const to of recipients) {
    const id = await enqueueMail(db, {
      kind: 'low-stock-digest',
      to,
      subject: `Por agotarse (${day}): ${count} — ${shop.tradeName}`,
      html,
      text,
      dedupeKey: `low-stock-digest:${day}:${to.toLowerCase()}`,
    });
    if (id !== null) queued += 1;
  }
  return queued;
}
