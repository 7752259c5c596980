import { type Browser, expect } from '@playwright/test';

/**
 * A member of the staff signed in to the back office of the journey's own server (admin.spec.ts and refunds.spec.ts
 * start one, with an account made by `npm run staff:create`), in a context of its own beside the buyer's.
 */
export async function signInStaff(
  browser: Browser,
  base: string,
  staff: { email: string; password: string },
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
  await expect(page).toHaveURL(/\/admin\/pedidos$/);
  return { context, staff: page };
}
