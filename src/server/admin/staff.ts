import { sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  apellidoPatSchema,
  emailSchema,
  newPasswordSchema,
  nombreSchema,
  phoneSchema,
} from '../../shared/schemas/auth.ts';
import { type Actor, CLI_ACTOR, writeAudit } from '../audit/log.ts';
import { hashPassword } from '../auth/password.ts';
import { deleteUserSessions } from '../auth/session.ts';
import type { Db } from '../db/client.ts';
import { rows } from './sql.ts';

/** npm run staff:create: the same e-mail and password rules as registration. */
export const staffAccountSchema = z.object({
  email: emailSchema,
  nombre: nombreSchema.optional(),
  apellidoPat: apellidoPatSchema.optional(),
  telefono: phoneSchema.optional(),
  password: newPasswordSchema,
});
export type StaffAccountInput = z.input<typeof staffAccountSchema>;

/**
 * Creates a staff account, or promotes an existing account to staff and sets the given password (its
 * sessions end, so the new password is the only way in). Audited as command-line work.
 */
export async function createOrPromoteStaff(
  db: Db,
  input: z.output<typeof staffAccountSchema>,
  actor: Actor = CLI_ACTOR,
): Promise<{ id: number; created: boolean }> {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const [existing] = await rows<{ id: number; role: string }>(
      tx,
      sql`select id, role from users where lower(email) = ${input.email} for update`,
    );
    if (existing) {
      await tx.execute(sql`update users set role = 'staff', password_hash = ${passwordHash},
          nombre = coalesce(${input.nombre ?? null}, nombre), apellido_pat = coalesce(${input.apellidoPat ?? null}, apellido_pat),
          telefono = coalesce(${input.telefono ?? null}, telefono), updated_at = now()
        where id = ${existing.id}`);
      await deleteUserSessions(tx, Number(existing.id));
      await writeAudit(tx, actor, {
        action: 'staff.promote',
        entityType: 'user',
        entityId: existing.id,
        before: { role: existing.role },
        after: { role: 'staff', email: input.email },
      });
      return { id: Number(existing.id), created: false };
    }
    const [row] = await rows<{ id: number }>(
      tx,
      sql`insert into users (email, password_hash, nombre, apellido_pat, telefono, role)
        values (${input.email}, ${passwordHash}, ${input.nombre ?? 'Personal'}, ${input.apellidoPat ?? 'Tienda'},
          ${input.telefono ?? '0000000000'}, 'staff')
        returning id`,
    );
    await writeAudit(tx, actor, {
      action: 'staff.create',
      entityType: 'user',
      entityId: row!.id,
      after: { role: 'staff', email: input.email },
    });
    return { id: Number(row!.id), created: true };
  });
}
