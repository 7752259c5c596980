import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, expect, type Page } from '@playwright/test';
import { totpCode, totpStep } from '../../src/server/staff/totp.ts';

/**
 * A member of the staff signed in to the back office of the journey's own server (the specs start one with an account
 * made by `npm run staff:create`), in a context of its own beside the buyer's — password, then the second factor
 * (decision 064):
 *  - at the account's first sign-in the back office shows the enrolment: the key is read from the screen, kept in a
 *    file under test-results/ keyed by base URL and e-mail (so later sign-ins, in any worker, compute codes), confirmed
 *    with a code, and the recovery codes acknowledged;
 *  - later sign-ins type the code of a step newer than the last one used (the server refuses a replay): the current
 *    step, or the next one (accepted too: ±1 step) when the current one was used already; only past that does it wait,
 *    for the step boundary as a condition.
 * Done when the back office's navigation shows, whatever section it lands on.
 */
const TOTP_DIR = 'test-results/staff-totp';

type Stored = { secret: string; lastStep: number };
const fileOf = (base: string, email: string) =>
  join(
    TOTP_DIR,
    `${createHash('sha256').update(`${base}|${email.toLowerCase()}`).digest('hex').slice(0, 24)}.json`,
  );

function readStored(base: string, email: string): Stored | null {
  try {
    return JSON.parse(readFileSync(fileOf(base, email), 'utf8')) as Stored;
  } catch {
    return null;
  }
}

function writeStored(base: string, email: string, stored: Stored) {
  mkdirSync(TOTP_DIR, { recursive: true });
  const file = fileOf(base, email);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(stored));
  renameSync(temp, file);
}

/** A step the server has not seen for this account, waiting (as a condition) only when current+1 is taken too. */
async function freshStep(base: string, email: string): Promise<number> {
  const last = readStored(base, email)?.lastStep ?? 0;
  const wanted = Math.max(totpStep(), last + 1);
  await expect
    .poll(() => totpStep() >= wanted - 1, {
      message: 'waiting for the next 30-second TOTP step',
      timeout: 65_000,
      intervals: [250],
    })
    .toBe(true);
  return wanted;
}

/** The enrolment screen: read the key, confirm with a code, acknowledge the recovery codes. */
export async function enrolSecondFactor(page: Page, base: string, email: string) {
  const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const step = totpStep();
  await page.getByLabel('Código de 6 dígitos').fill(totpCode(secret, step));
  await page.getByRole('button', { name: 'Activar' }).click();
  await expect(page.getByRole('heading', { name: 'Guarde sus códigos de respaldo' })).toBeVisible();
  writeStored(base, email, { secret, lastStep: step });
  const codes = await page
    .getByRole('list', { name: 'Códigos de respaldo' })
    .getByRole('listitem')
    .allTextContents();
  await page.getByLabel('Ya guardé mis códigos').check();
  await page.getByRole('button', { name: 'Continuar a la administración' }).click();
  return { secret, recoveryCodes: codes };
}

/** The verification screen: a code of a fresh step (retried on the next step if another worker took this one). */
export async function verifySecondFactor(page: Page, base: string, email: string) {
  const stored = readStored(base, email);
  if (!stored) throw new Error(`no TOTP key kept for ${email} at ${base}: enrol first (signInStaff does)`);
  for (let attempt = 0; attempt < 3; attempt++) {
    const step = await freshStep(base, email);
    await page.getByLabel('Código', { exact: true }).fill(totpCode(stored.secret, step));
    await page.getByRole('button', { name: 'Verificar' }).click();
    writeStored(base, email, {
      secret: stored.secret,
      lastStep: Math.max(step, readStored(base, email)?.lastStep ?? 0),
    });
    const outcome = await Promise.race([
      page
        .getByRole('navigation', { name: 'Secciones' })
        .waitFor()
        .then(
          () => 'in' as const,
          () => 'gone' as const,
        ),
      page
        .getByText('Ese código ya se usó')
        .waitFor()
        .then(
          () => 'replayed' as const,
          () => 'gone' as const,
        ),
    ]);
    if (outcome === 'in') return;
    if (outcome === 'gone') break;
  }
  throw new Error(`the second factor of ${email} kept being refused as a replay`);
}

export async function signInStaff(
  browser: Browser,
  base: string,
  staff: { email: string; password: string },
  /**
   * Where the journey starts once signed in: the orders by default, where the staff journeys work. /admin itself
   * lands on the dashboard (decision 065), which tests/e2e/dashboard.spec.ts checks with null: stay where signing in
   * lands.
   */
  at: string | null = '/admin/pedidos',
) {
  const context = await browser.newContext({
    baseURL: base,
    locale: 'es-MX',
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  await page.goto('/admin');
  await page.getByLabel('Correo electrónico').fill(staff.email);
  await page.getByLabel('Contraseña', { exact: true }).fill(staff.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  const enrol = page.getByRole('heading', { name: 'Configure la verificación en dos pasos' });
  const verify = page.getByRole('heading', { name: 'Verificación en dos pasos', exact: true });
  await expect(enrol.or(verify)).toBeVisible();
  if (await enrol.isVisible()) await enrolSecondFactor(page, base, staff.email);
  else await verifySecondFactor(page, base, staff.email);
  await expect(page.getByRole('navigation', { name: 'Secciones' })).toBeVisible();
  if (at === null) return { context, staff: page };
  await page
    .getByRole('navigation', { name: 'Secciones' })
    .getByRole('link', { exact: true, name: 'Pedidos' })
    .click();
  if (at !== '/admin/pedidos') await page.goto(at);
  await expect(page).toHaveURL(new RegExp(`${at}$`));
  return { context, staff: page };
}
