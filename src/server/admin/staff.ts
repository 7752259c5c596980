import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  apellidoPatSchema,
  emailSchema,
  newPasswordSchema,
  nombreSchema,
  phoneSchema,
} from '../../shared/schemas/auth.ts';
import { STAFF_ROLES } from '../../shared/staff-roles.ts';
import { type Actor, CLI_ACTOR, writeAudit } from '../audit/log.ts';
import { hashPassword } from '../auth/password.ts';
import { deleteUserSessions } from '../auth/session.ts';
import type { Db } from '../db/client.ts';
import { staffRecoveryCodes, users } from '../db/schema.ts';

/** npm run staff:create: the same e-mail and password rules as registration; the role defaults to administrador. */
export const staffAccountSchema = z.object({
  email: emailSchema,
  nombre: nombreSchema.optional(),
  apellidoPat: apellidoPatSchema.optional(),
  telefono: phoneSchema.optional(),
  password: newPasswordSchema,
  rol: z.enum(STAFF_ROLES, { error: `Elija un rol: ${STAFF_ROLES.join(', ')}` }).default('administrador'),
  /** Turn the second factor off (a lost phone and no recovery code): enrolled again at the next sign-in. */
  resetSecondFactor: z.boolean().default(false),
});
export type StaffAccountInput = z.input<typeof staffAccountSchema>;

/**
 * Creates a staff account with its role, or promotes an existing account to staff (with the role, active again) and
 * sets the given password (its sessions end, so the new password is the only way in); `resetSecondFactor` also turns
 * its TOTP off — the way back in for the last administrator who lost the phone and the recovery codes. Audited as
 * command-line work.
 */
export async function createOrPromoteStaff(
  db: Db,
  input: z.output<typeof staffAccountSchema>,
  actor: Actor = CLI_ACTOR,
): Promise<{ id: number; created: boolean }> {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: users.id, role: users.role, staffRole: users.staffRole })
      .from(users)
      .where(eq(sql`lower(${users.email})`, input.email))
      .for('update');
    if (existing) {
      await tx
        .update(users)
        .set({
          role: 'staff',
          staffRole: input.rol,
          staffDisabledAt: null,
          ...(input.resetSecondFactor ? { totpSecret: null, totpEnabledAt: null, totpLastStep: null } : {}),
          passwordHash,
          ...(input.nombre !== undefined ? { nombre: input.nombre } : {}),
          ...(input.apellidoPat !== undefined ? { apellidoPat: input.apellidoPat } : {}),
          ...(input.telefono !== undefined ? { telefono: input.telefono } : {}),
          updatedAt: sql`now()`,
        })
        .where(eq(users.id, existing.id));
      await deleteUserSessions(tx, existing.id);
      if (input.resetSecondFactor)
        await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, existing.id));
      await writeAudit(tx, actor, {
        action: 'staff.promote',
        entityType: 'user',
        entityId: existing.id,
        before: { role: existing.role, staffRole: existing.staffRole },
        after: {
          role: 'staff',
          staffRole: input.rol,
          email: input.email,
          ...(input.resetSecondFactor ? { secondFactor: 'reset' } : {}),
        },
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
        staffRole: input.rol,
      })
      .returning({ id: users.id });
    await writeAudit(tx, actor, {
      action: 'staff.create',
      entityType: 'user',
      entityId: row!.id,
      after: { role: 'staff', staffRole: input.rol, email: input.email },
    });
    return { id: row!.id, created: true };
  });
}
