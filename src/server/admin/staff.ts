import { eq, sql } from 'drizzle-orm';
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
import { users } from '../db/schema.ts';

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
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: users.id, role: users.role })
      .from(users)
      .where(eq(sql`lower(${users.email})`, input.email))
      .for('update');
    if (existing) {
      await tx
        .update(users)
        .set({
          role: 'staff',
          passwordHash,
          ...(input.nombre !== undefined ? { nombre: input.nombre } : {}),
          ...(input.apellidoPat !== undefined ? { apellidoPat: input.apellidoPat } : {}),
          ...(input.telefono !== undefined ? { telefono: input.telefono } : {}),
          updatedAt: sql`now()`,
        })
        .where(eq(users.id, existing.id));
      await deleteUserSessions(tx, existing.id);
      await writeAudit(tx, actor, {
        action: 'staff.promote',
        entityType: 'user',
        entityId: existing.id,
        before: { role: existing.role },
        after: { role: 'staff', email: input.email },
      });
      return { id: existing.id, created: false };
    }
    const [row] = await tx
      .insert(users)
      .values({
        email: input.email,
        passwordHash,
        nombre: input.nombre ?? 'Personal',
        apellidoPat: input.apellidoPat ?? 'Tienda',
        telefono: input.telefono ?? '0000000000',
        role: 'staff',
      })
      .returning({ id: users.id });
    await writeAudit(tx, actor, {
      action: 'staff.create',
      entityType: 'user',
      entityId: row!.id,
      after: { role: 'staff', email: input.email },
    });
    return { id: row!.id, created: true };
  });
}
