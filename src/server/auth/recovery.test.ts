import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newEmail, PASSWORD, signIn, signUp, whoAmI } from '../../../tests/server/support/accounts.ts';
import { createTestApp, type TestApp } from '../../../tests/server/support/test-app.ts';
import { RECOVERY_ALPHABET } from '../../shared/schemas/auth.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.db.execute(sql`delete from auth_attempts`);
});

const NEW_PASSWORD = 'Pipeta.Azul7';
const SENT =
  'Si el correo está registrado, le enviamos un código de recuperación. Revise su bandeja de entrada.';
const INVALID = 'El código de recuperación no es válido o ya venció';

const requestCode = (username: string, remoteAddress = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/auth/recovery', payload: { username }, remoteAddress });

const reset = (username: string, recCode: string, newPass = NEW_PASSWORD, remoteAddress = '127.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/recovery/reset',
    payload: { username, recCode, newPass },
    remoteAddress,
  });

/** The code as the shopper reads it in the mail (the outbox keeps what was sent). */
async function codeFromMail(email: string): Promise<string> {
  const { rows } = (await t.database.db.execute(
    sql`select subject, text from mail_outbox where "to" = ${email} and kind = 'recovery-code' order by id desc limit 1`,
  )) as unknown as { rows: { subject: string; text: string }[] };
  const code = rows[0]?.subject.match(/([A-Z0-9]{8})$/)?.[1];
  if (!code) throw new Error('sin correo de recuperación');
  expect(rows[0]?.text).toContain(code);
  return code;
}

describe('recovery by code', () => {
  it('mails an 8-character code from the unambiguous alphabet and stores only its hash', async () => {
    const { email } = await signUp(t.app);
    const res = await requestCode(email);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: SENT });
    const code = await codeFromMail(email);
    expect(code).toHaveLength(8);
    for (const c of code) expect(RECOVERY_ALPHABET).toContain(c);
    const { rows } = (await t.database.db.execute(
      sql`select rc.code_hash, extract(epoch from rc.expires_at - rc.created_at)::int as ttl
            from recovery_codes rc join users u on u.id = rc.user_id where u.email = ${email}`,
    )) as unknown as { rows: { code_hash: string; ttl: number }[] };
    expect(rows).toHaveLength(1);
    expect(rows[0]?.code_hash).toMatch(/^\$argon2id\$/);
    expect(rows[0]?.code_hash).not.toContain(code);
    expect(rows[0]?.ttl).toBeGreaterThanOrEqual(899);
    expect(rows[0]?.ttl).toBeLessThanOrEqual(901);
  });

  it('answers the same for an unknown e-mail, and mails nothing', async () => {
    const email = newEmail('desconocido');
    const res = await requestCode(email);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: SENT });
    const { rows } = (await t.database.db.execute(
      sql`select count(*)::int as n from mail_outbox where "to" = ${email}`,
    )) as unknown as { rows: { n: number }[] };
    expect(rows[0]?.n).toBe(0);
  });

  it('sets the new password, ends every session and sends a notice; the code works once', async () => {
    const { email, cookie } = await signUp(t.app);
    const other = await signIn(t.app, email, PASSWORD);
    expect(other.statusCode).toBe(200);
    await requestCode(email);
    const code = await codeFromMail(email);

    // Typed in lower case with a hyphen, as people do.
    const res = await reset(email, `${code.slice(0, 4).toLowerCase()}-${code.slice(4)}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Contraseña actualizada. Ingrese con su nueva contraseña.' });
    expect(await whoAmI(t.app, cookie)).toBeNull();
    expect((await signIn(t.app, email, PASSWORD)).statusCode).toBe(401);
    expect((await signIn(t.app, email, NEW_PASSWORD)).statusCode).toBe(200);

    const again = await reset(email, code, 'Gradilla!93K');
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toMatchObject({ message: INVALID, fields: { recCode: INVALID } });
    expect((await signIn(t.app, email, NEW_PASSWORD)).statusCode).toBe(200);
    const { rows } = (await t.database.db.execute(
      sql`select kind from mail_outbox where "to" = ${email} order by id`,
    )) as unknown as { rows: { kind: string }[] };
    expect(rows.map((r) => r.kind)).toEqual([
      'register-code',
      'welcome',
      'recovery-code',
      'password-changed',
    ]);
  });

  it('refuses a code after 15 minutes', async () => {
    const { email } = await signUp(t.app);
    await requestCode(email);
    const code = await codeFromMail(email);
    await t.database.db.execute(
      sql`update recovery_codes set expires_at = now() - interval '1 second' where user_id = (select id from users where email = ${email})`,
    );
    const res = await reset(email, code);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(INVALID);
    expect((await signIn(t.app, email, PASSWORD)).statusCode).toBe(200);
  });

  it('only the newest code is valid', async () => {
    const { email } = await signUp(t.app);
    await requestCode(email);
    const first = await codeFromMail(email);
    await requestCode(email);
    const second = await codeFromMail(email);
    expect((await reset(email, first)).statusCode).toBe(400);
    expect((await reset(email, second)).statusCode).toBe(200);
  });

  it('kills a code after 5 wrong attempts: the right code is refused afterwards, from anywhere', async () => {
    const { email } = await signUp(t.app);
    await requestCode(email);
    const code = await codeFromMail(email);
    const wrong = code.startsWith('A') ? 'CCCCCCCC' : 'AAAAAAAA';
    for (let i = 0; i < 5; i++) {
      // Different addresses: the code's own counter is what matters here.
      expect((await reset(email, wrong, NEW_PASSWORD, `10.9.0.${i}`)).statusCode).toBe(400);
    }
    // The account now waits (429); once the waits are gone the code is still dead.
    expect((await reset(email, code, NEW_PASSWORD, '10.9.0.50')).statusCode).toBe(429);
    await t.database.db.execute(sql`delete from auth_attempts`);
    const dead = await reset(email, code, NEW_PASSWORD, '10.9.0.51');
    expect(dead.statusCode).toBe(400);
    expect(dead.json().error.message).toBe(INVALID);
    expect((await signIn(t.app, email, PASSWORD)).statusCode).toBe(200);
  });

  it('one address guessing codes waits longer and longer (Retry-After, Spanish wait)', async () => {
    const { email } = await signUp(t.app);
    for (let i = 0; i < 5; i++)
      expect((await reset(email, 'AAAAAAAA', NEW_PASSWORD, '10.9.1.1')).statusCode).toBe(400);
    const blocked = await reset(email, 'AAAAAAAA', NEW_PASSWORD, '10.9.1.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe('2');
    expect(blocked.json().error.message).toBe(
      'Demasiados intentos. Espere 2 segundos y vuelva a intentarlo.',
    );
  });

  it('code requests per account: 3 at once, then growing waits (every request counts: each sends a mail)', async () => {
    const { email } = await signUp(t.app);
    for (let i = 0; i < 3; i++) expect((await requestCode(email, `10.8.0.${i}`)).statusCode).toBe(200);
    const blocked = await requestCode(email, '10.8.0.99');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe('30');
    expect(blocked.json().error.message).toBe(
      'Demasiados intentos. Espere 30 segundos y vuelva a intentarlo.',
    );
    await t.database.db.execute(
      sql`update auth_attempts set created_at = created_at - interval '30 seconds' where key = ${`acct:${email}`}`,
    );
    expect((await requestCode(email, '10.8.0.99')).statusCode).toBe(200);
    expect((await requestCode(email, '10.8.0.99')).headers['retry-after']).toBe('60');
  });

  it('code requests for many accounts from one address (a shared network) are not stopped by each other', async () => {
    const accounts = await Promise.all([1, 2, 3, 4, 5, 6, 7].map(() => signUp(t.app)));
    for (const a of accounts) expect((await requestCode(a.email, '10.8.1.1')).statusCode).toBe(200);
  });

  it('validates the reset payload: weak or common new password, empty code', async () => {
    const { email } = await signUp(t.app);
    const weak = await reset(email, 'ABCDEFGH', 'abc');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.fields).toEqual({ newPass: 'Escriba por lo menos 8 caracteres' });
    const common = await reset(email, 'ABCDEFGH', 'Contraseña1!');
    expect(common.json().error.fields).toEqual({ newPass: 'La contraseña es demasiado común' });
    const empty = await reset(email, '  ', NEW_PASSWORD);
    expect(empty.json().error.fields).toEqual({ recCode: 'No deje vacío este campo' });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/auth/recovery',
      payload: { username: 'no' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({ username: 'Dirección de correo inválida' });
  });
});
