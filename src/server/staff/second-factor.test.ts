import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  createStaff,
  type Shopper,
  signInWithPassword,
} from '../../../tests/server/support/staff.ts';
import { SECOND_FACTOR_REQUIRED } from '../../shared/staff-roles.ts';
import { createOrPromoteStaff, staffAccountSchema } from '../admin/staff.ts';
import { SECOND_FACTOR_MESSAGES } from './second-factor.ts';
import { base32Decode, totpCode, totpStep } from './totp.ts';

/**
 * The staff's second factor through the API (issue 36, decision 064): enrolment at the first sign-in, then sign-ins
 * with a wrong, a right and a replayed code, recovery codes used once, the brake on wrong codes, two requests racing
 * with one code, and an administrator's reset.
 */

let t: CheckoutTestApp;
let admin: Shopper;
const PASSWORD = 'Segura#2026lab';
beforeAll(async () => {
  t = await createCheckoutApp();
  admin = await createStaff(t);
});
afterAll(() => t.close());

let serial = 0;
async function newStaff(rol: 'ventas' | 'almacen' | 'contabilidad' | 'administrador' = 'contabilidad') {
  const email = `dos.pasos.${++serial}@ciencia-occidente.mx`;
  await createOrPromoteStaff(t.db, staffAccountSchema.parse({ email, password: PASSWORD, rol }));
  return email;
}

const get = (url: string, cookie: string) => t.app.inject({ url, headers: { cookie } });
const post = (url: string, cookie: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url, headers: { cookie }, payload: payload as object });

async function enrol(email: string) {
  const { cookie } = await signInWithPassword(t, email, PASSWORD);
  const enrolment = await get('/api/staff/second-factor/enrolment', cookie);
  const secret = (enrolment.json().secretGrouped as string).replace(/\s/g, '');
  const step = totpStep();
  const done = await post('/api/staff/second-factor/enrolment', cookie, { code: totpCode(secret, step) });
  expect(done.statusCode, done.body).toBe(200);
  return { cookie, secret, step, recoveryCodes: done.json().recoveryCodes as string[] };
}

async function auditActions(email: string) {
  return (
    await t.db.execute<{ action: string; actor_label: string }>(
      sql`select action, actor_label from audit_log where entity_type = 'user'
        and entity_id = (select id::text from users where email = ${email}) order by id`,
    )
  ).rows;
}

describe('enrolment at the first sign-in', () => {
  it('shows the secret and its QR until a right code turns the second factor on and gives ten recovery codes once', async () => {
    const email = await newStaff();
    const { cookie } = await signInWithPassword(t, email, PASSWORD);
    const me = await get('/api/staff/me', cookie);
    expect(me.json()).toMatchObject({ role: 'contabilidad', secondFactor: 'enrol', permissions: [] });
    const refused = await get('/api/admin/invoices', cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe(SECOND_FACTOR_REQUIRED);

    const first = (await get('/api/staff/second-factor/enrolment', cookie)).json();
    const again = (await get('/api/staff/second-factor/enrolment', cookie)).json();
    expect(again.secretGrouped).toBe(first.secretGrouped);
    expect(first.secretGrouped).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
    const secret = first.secretGrouped.replace(/\s/g, '');
    expect(base32Decode(secret)).toHaveLength(20);
    expect(first.uri).toContain(`secret=${secret}`);
    expect(first.uri).toMatch(/^otpauth:\/\/totp\/.+:dos\.pasos\.\d+%40ciencia-occidente\.mx\?/);
    expect(first.qrSvg).toMatch(/^<svg[\s\S]+<\/svg>\s*$/);

    const wrong = await post('/api/staff/second-factor/enrolment', cookie, {
      code: totpCode(secret, totpStep() + 5),
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toBe(SECOND_FACTOR_MESSAGES.invalid);
    expect((await get('/api/staff/me', cookie)).json().secondFactor).toBe('enrol');
    const letters = await post('/api/staff/second-factor/enrolment', cookie, { code: 'abc' });
    expect(letters.statusCode).toBe(400);
    expect(letters.json().error.message).toBe('Escriba el código de 6 dígitos de su aplicación');

    const ok = await post('/api/staff/second-factor/enrolment', cookie, {
      code: totpCode(secret, totpStep()),
    });
    expect(ok.statusCode).toBe(200);
    const codes = ok.json().recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    const stored = (
      await t.db.execute<{ code_hash: string }>(
        sql`select code_hash from staff_recovery_codes where user_id = (select id from users where email = ${email})`,
      )
    ).rows.map((r) => r.code_hash);
    expect(stored).toHaveLength(10);
    for (const code of codes) expect(stored.join(' ')).not.toContain(code.replace('-', ''));
    for (const hash of stored) expect(hash).toMatch(/^[0-9a-f]{64}$/);

    // This session passed; the back office opens with contabilidad's permissions, and the secret is never shown again.
    const after = (await get('/api/staff/me', cookie)).json();
    expect(after).toMatchObject({ secondFactor: 'done', role: 'contabilidad' });
    expect(after.permissions).toContain('facturas.gestionar');
    expect(after.permissions).not.toContain('personal.gestionar');
    expect((await get('/api/admin/invoices', cookie)).statusCode).toBe(200);
    const hidden = await get('/api/staff/second-factor/enrolment', cookie);
    expect(hidden.statusCode).toBe(409);
    expect(hidden.body).not.toContain(secret);
    expect((await auditActions(email)).map((a) => a.action)).toContain('staff.totp_enrol');
  });

  it('refuses the enrolment and verification steps to a shopper and a visitor', async () => {
    expect((await get('/api/staff/me', '')).statusCode).toBe(401);
    const visitor = await t.app.inject({ url: '/api/staff/second-factor/enrolment' });
    expect(visitor.statusCode).toBe(401);
    const shopper = await createShopper(t);
    for (const res of [
      await get('/api/staff/me', shopper.cookie),
      await get('/api/staff/second-factor/enrolment', shopper.cookie),
      await post('/api/staff/second-factor/verify', shopper.cookie, { code: '123456' }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toBe('No tiene permiso para esta acción');
    }
  });
});

describe('sign-in with the second factor', () => {
  it('a wrong code is refused, a right one lets in, the same code again is a replay', async () => {
    const email = await newStaff('almacen');
    const enrolled = await enrol(email);
    const session = await signInWithPassword(t, email, PASSWORD);
    expect((await get('/api/staff/me', session.cookie)).json().secondFactor).toBe('verify');
    expect((await get('/api/admin/orders', session.cookie)).json().error.code).toBe(SECOND_FACTOR_REQUIRED);

    const wrongCode = totpCode(enrolled.secret, enrolled.step + 7);
    const wrong = await post('/api/staff/second-factor/verify', session.cookie, { code: wrongCode });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toBe(SECOND_FACTOR_MESSAGES.invalid);

    // The code used to enrol is of a step already accepted: a replay, even within its 30 seconds.
    const replayOfEnrolment = await post('/api/staff/second-factor/verify', session.cookie, {
      code: totpCode(enrolled.secret, enrolled.step),
    });
    expect(replayOfEnrolment.statusCode).toBe(400);
    expect(replayOfEnrolment.json().error.message).toBe(SECOND_FACTOR_MESSAGES.replayed);

    // The next step's code (accepted: ±1 step) lets this session in.
    const right = totpCode(enrolled.secret, enrolled.step + 1);
    const ok = await post('/api/staff/second-factor/verify', session.cookie, { code: right });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await get('/api/admin/orders', session.cookie)).statusCode).toBe(200);
    expect((await get('/api/admin/invoices', session.cookie)).statusCode).toBe(403);

    // The same code on another session: refused as a replay.
    const other = await signInWithPassword(t, email, PASSWORD);
    const replay = await post('/api/staff/second-factor/verify', other.cookie, { code: right });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.message).toBe(SECOND_FACTOR_MESSAGES.replayed);
    expect((await get('/api/admin/orders', other.cookie)).statusCode).toBe(403);
    const actions = (await auditActions(email)).map((a) => a.action);
    expect(actions.filter((a) => a === 'staff.second_factor')).toHaveLength(1);
  });

  it('two sessions racing with one code: exactly one gets in', async () => {
    const email = await newStaff();
    const enrolled = await enrol(email);
    const a = await signInWithPassword(t, email, PASSWORD);
    const b = await signInWithPassword(t, email, PASSWORD);
    const code = totpCode(enrolled.secret, enrolled.step + 1);
    const answers = await Promise.all([
      post('/api/staff/second-factor/verify', a.cookie, { code }),
      post('/api/staff/second-factor/verify', b.cookie, { code }),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400]);
  });

  it('a recovery code lets in once, in any case and with or without its dash', async () => {
    const email = await newStaff();
    const { recoveryCodes } = await enrol(email);
    const first = await signInWithPassword(t, email, PASSWORD);
    const used = await post('/api/staff/second-factor/verify', first.cookie, {
      code: recoveryCodes[3]!.toLowerCase().replace('-', ' '),
    });
    expect(used.statusCode, used.body).toBe(200);
    expect(used.json().recoveryCodesLeft).toBe(9);
    const second = await signInWithPassword(t, email, PASSWORD);
    const again = await post('/api/staff/second-factor/verify', second.cookie, { code: recoveryCodes[3] });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.message).toBe(SECOND_FACTOR_MESSAGES.invalidRecovery);
    const another = await post('/api/staff/second-factor/verify', second.cookie, { code: recoveryCodes[4] });
    expect(another.json().recoveryCodesLeft).toBe(8);
  });

  it('brakes wrong codes: after five, the next try waits (429 in Spanish with Retry-After)', async () => {
    const email = await newStaff();
    const enrolled = await enrol(email);
    const session = await signInWithPassword(t, email, PASSWORD);
    for (let i = 0; i < 5; i++) {
      const res = await post('/api/staff/second-factor/verify', session.cookie, { code: 'ZZZZZ-ZZZZZ' });
      expect(res.statusCode).toBe(400);
    }
    const braked = await post('/api/staff/second-factor/verify', session.cookie, {
      code: totpCode(enrolled.secret, enrolled.step + 1),
    });
    expect(braked.statusCode).toBe(429);
    expect(braked.json().error.message).toMatch(/^Demasiados intentos\. Espere \d+ segundos?/);
    expect(Number(braked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await get('/api/admin/orders', session.cookie)).statusCode).toBe(403);
  });
});

describe("an administrator resets someone's second factor", () => {
  it('ends their sessions; at the next sign-in they enrol again with a new secret', async () => {
    const email = await newStaff('ventas');
    const enrolled = await enrol(email);
    const [{ id } = { id: 0 }] = (
      await t.db.execute<{ id: number }>(sql`select id from users where email = ${email}`)
    ).rows;
    const reset = await post(`/api/admin/staff/${id}/second-factor/reset`, admin.cookie, {});
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await get('/api/staff/me', enrolled.cookie)).statusCode).toBe(401);
    const again = await signInWithPassword(t, email, PASSWORD);
    expect((await get('/api/staff/me', again.cookie)).json().secondFactor).toBe('enrol');
    const fresh = (await get('/api/staff/second-factor/enrolment', again.cookie)).json();
    expect(fresh.secretGrouped.replace(/\s/g, '')).not.toBe(enrolled.secret);
    const codes = (
      await t.db.execute<{ n: number }>(
        sql`select count(*)::int as n from staff_recovery_codes where user_id = ${id}`,
      )
    ).rows[0]!.n;
    expect(codes).toBe(0);
    const log = await auditActions(email);
    expect(log.at(-1)).toEqual({ action: 'staff.totp_reset', actor_label: admin.email });
  });
});
