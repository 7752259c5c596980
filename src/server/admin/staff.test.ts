import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
} from '../../../tests/server/support/staff.ts';
import { openDatabase } from '../db/client.ts';
import { totpCode, totpStep } from '../staff/totp.ts';
import { createOrPromoteStaff, staffAccountSchema } from './staff.ts';

let t: CheckoutTestApp;
beforeAll(async () => {
  t = await createCheckoutApp();
});
afterAll(() => t.close());

const login = (username: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });

describe('staff accounts', () => {
  it('creates an administrador who signs in, enrols the second factor and reaches /api/admin; audited as command-line work', async () => {
    const input = staffAccountSchema.parse({
      email: 'Almacen@Ciencia-Occidente.mx',
      nombre: 'Laura',
      password: 'Bodega#2025x',
    });
    const { created, id } = await createOrPromoteStaff(t.db, input);
    expect(created).toBe(true);
    const res = await login('almacen@ciencia-occidente.mx', 'Bodega#2025x');
    expect(res.statusCode).toBe(200);
    expect(res.json().user.role).toBe('staff');
    const cookie = String(res.headers['set-cookie']).split(';')[0]!;
    const before = await t.app.inject({ url: '/api/admin/orders', headers: { cookie } });
    expect([before.statusCode, before.json().error.code]).toEqual([403, 'second_factor_required']);
    const enrolment = await t.app.inject({ url: '/api/staff/second-factor/enrolment', headers: { cookie } });
    const secret = enrolment.json().secretGrouped.replace(/\s/g, '');
    const enrolled = await t.app.inject({
      method: 'POST',
      url: '/api/staff/second-factor/enrolment',
      headers: { cookie },
      payload: { code: totpCode(secret, totpStep()) },
    });
    expect(enrolled.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/admin/orders', headers: { cookie } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/staff/me', headers: { cookie } })).json().role).toBe(
      'administrador',
    );
    const [audit] = (
      await t.db.execute<{ action: string; actor_label: string }>(
        sql`select action, actor_label from audit_log where entity_type = 'user' and entity_id = ${String(id)}`,
      )
    ).rows;
    expect(audit).toEqual({ action: 'staff.create', actor_label: 'línea de comandos' });
  });

  it('promotes an existing shopper, sets the new password and ends their sessions', async () => {
    const shopper = await createShopper(t);
    const { created } = await createOrPromoteStaff(
      t.db,
      staffAccountSchema.parse({ email: shopper.email, password: 'Promovida#2025' }),
    );
    expect(created).toBe(false);
    expect(
      (await t.app.inject({ url: '/api/auth/session', headers: { cookie: shopper.cookie } })).json().user,
    ).toBeNull();
    expect((await login(shopper.email, 'Promovida#2025')).json().user.role).toBe('staff');
  });

  it('uses the registration password rule', () => {
    const weak = staffAccountSchema.safeParse({ email: 'a@b.mx', password: 'corta' });
    expect(weak.success).toBe(false);
    expect(weak.error?.issues[0]?.message).toBe('Escriba por lo menos 8 caracteres');
    expect(staffAccountSchema.safeParse({ email: 'a@b.mx', password: 'sinsimbolos123A' }).success).toBe(
      false,
    );
  });
});

describe('npm run staff:create', () => {
  it('reads the password from stdin and creates the account on the configured database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'staff-create-'));
    const env = { ...process.env, DATA_DIR: dir, DATABASE_URL: '', LOG_LEVEL: 'silent', NODE_ENV: 'test' };
    try {
      // The test's own Node (24) with tsx's loader, as the other harnesses start commands (decision 040): quicker
      // than npx or tsx's CLI and without npm's warnings.
      const args = [
        '--import',
        'tsx',
        '--import',
        './scripts/quick-start.mjs',
        'scripts/staff-create.ts',
        '--email',
        'jefa@ciencia-occidente.mx',
        '--nombre',
        'Rocío',
        '--rol',
        'contabilidad',
      ];
      const ok = spawnSync(process.execPath, args, { input: 'Segura#2025lab\n', env, encoding: 'utf8' });
      expect(ok.stderr).not.toMatch(/error/i);
      expect(ok.status).toBe(0);
      expect(ok.stdout).toContain('Cuenta de personal creada: jefa@ciencia-occidente.mx');
      const database = await openDatabase({ dataDir: dir });
      const [user] = (
        await database.db.execute<{
          role: string;
          staff_role: string;
          nombre: string;
          password_hash: string;
        }>(
          sql`select role, staff_role, nombre, password_hash from users where email = 'jefa@ciencia-occidente.mx'`,
        )
      ).rows;
      await database.close();
      expect(user).toMatchObject({ role: 'staff', staff_role: 'contabilidad', nombre: 'Rocío' });
      expect(user!.password_hash).toMatch(/^\$argon2id\$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);

  it('--help prints the usage, and an unknown option says so with the usage, never a stack trace', () => {
    const run = (...flags: string[]) =>
      spawnSync(
        process.execPath,
        ['--import', 'tsx', '--import', './scripts/quick-start.mjs', 'scripts/staff-create.ts', ...flags],
        { input: '', env: { ...process.env, LOG_LEVEL: 'silent' }, encoding: 'utf8' },
      );
    const help = run('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Uso: npm run staff:create -- --email/);
    expect(help.stderr).not.toMatch(/\bat \S+:\d+/);
    expect(help.stdout).toContain('--rol');
    const badRole = run('--email', 'x@y.mx', '--rol', 'gerente');
    expect(badRole.status).toBe(1);
    expect(badRole.stderr).toMatch(/^Rol: Elija un rol: ventas, almacen, contabilidad, administrador/m);
    const unknown = run('--correo', 'x@y.mx');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/Opción no válida/);
    expect(unknown.stderr).toMatch(/Uso: npm run staff:create/);
    expect(unknown.stderr).not.toMatch(/\bat \S+:\d+/);
  }, 60_000);
});
