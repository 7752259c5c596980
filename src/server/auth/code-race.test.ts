import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEmail, registration, registrationCode, signUp } from '../../../tests/server/support/accounts.ts';
import { createTestApp, type TestApp } from '../../../tests/server/support/test-app.ts';
import { CODE_MAX_ATTEMPTS, RECOVERY_MAX_ATTEMPTS } from './recovery-code.ts';

/**
 * Issue 37, item 11: a code's tries and a mailbox's brake must hold when the requests come all at once. Run on
 * the database of the run (PGlite by default) and on PostgreSQL itself, where requests really run side by side.
 */
const PARALLEL = 40;

describe.each([
  ['the run database', false],
  ['PostgreSQL', true],
])('codes and mails under %s', (_name, postgres) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ postgres });
  }, 120_000);
  afterAll(() => t.close());

  /** Each request from its own address: the per-address throttle is not what is under test here. */
  const from = (i: number) => `10.37.${Math.floor(i / 250)}.${(i % 250) + 1}`;

  it(`compares at most ${CODE_MAX_ATTEMPTS} registration codes when ${PARALLEL} wrong ones arrive together, and the code is dead after`, async () => {
    const body = registration();
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: body });
    expect(res.statusCode, res.body).toBe(200);
    const code = await registrationCode(t.app, body.username);
    const wrong = code === '000000' ? '111111' : '000000';
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/register/verify',
          payload: { username: body.username, code: wrong },
          remoteAddress: from(i),
        }),
      ),
    );
    // Refused as wrong (400), or by the account's throttle once it has counted enough failures (429).
    expect(answers.map((a) => a.statusCode).filter((s) => s !== 400 && s !== 429)).toEqual([]);
    const { rows } = await t.database.db.execute<{ attempts: number }>(
      sql`select attempts from pending_registrations where email = ${body.username}`,
    );
    expect(Number(rows[0]?.attempts)).toBeLessThanOrEqual(CODE_MAX_ATTEMPTS);
    // The real code no longer opens the account: the five tries are spent.
    const late = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register/verify',
      payload: { username: body.username, code },
      remoteAddress: from(PARALLEL + 1),
    });
    expect(late.statusCode).not.toBe(200);
    await t.database.db.execute(sql`delete from auth_attempts`);
    const afterWait = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register/verify',
      payload: { username: body.username, code },
      remoteAddress: from(PARALLEL + 2),
    });
    expect(afterWait.statusCode).toBe(400);
    expect(afterWait.json().error.message).toBe('El código de verificación no es válido o ya venció');
  }, 120_000);

  it(`compares at most ${RECOVERY_MAX_ATTEMPTS} recovery codes when ${PARALLEL} wrong ones arrive together`, async () => {
    const { email } = await signUp(t.app);
    const asked = await t.app.inject({
      method: 'POST',
      url: '/api/auth/recovery',
      payload: { username: email },
    });
    expect(asked.statusCode).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/recovery/reset',
          payload: { username: email, recCode: 'ZZZZZZZZ', newPass: 'Pipeta.Azul7' },
          remoteAddress: from(i),
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode).filter((s) => s !== 400 && s !== 429)).toEqual([]);
    const { rows } = await t.database.db.execute<{ attempts: number }>(
      sql`select rc.attempts from recovery_codes rc join users u on u.id = rc.user_id where u.email = ${email}`,
    );
    expect(Number(rows[0]?.attempts)).toBeLessThanOrEqual(RECOVERY_MAX_ATTEMPTS);
  }, 120_000);

  it('mails at most 3 registration codes to one address however many requests arrive at once', async () => {
    const victim = newEmail('victima');
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/register',
          payload: registration({ username: victim }),
          remoteAddress: from(100 + i),
        }),
      ),
    );
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(refused.length).toBeGreaterThanOrEqual(12);
    expect(refused[0]?.json().error.message).toMatch(/^Demasiados intentos\. Espere/);
    const { rows } = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from mail_outbox where "to" = ${victim}`,
    );
    expect(Number(rows[0]?.n)).toBeLessThanOrEqual(3);
    expect(Number(rows[0]?.n)).toBeGreaterThanOrEqual(1);
  }, 120_000);
});
