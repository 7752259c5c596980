import { expect, test } from '@playwright/test';
import { ownShop } from './own-server.ts';
import { enrolSecondFactor, signInStaff } from './staff-session.ts';

/**
 * Staff roles and the second factor (issue 36, decision 064): an administrador made by `npm run staff:create` signs in,
 * enrols TOTP (QR and key on screen, a code, the recovery codes), signs in again with a code, invites an almacén member
 * by mail; the invitee opens the link, sets name and password, enrols, and sees only almacén's sections — a section
 * outside them, opened by its address, says so. Screenshots at 1280 px in test-results/.
 */
const ADMIN = {
  email: 'direccion@ciencia-occidente.mx',
  password: 'Direccion#Roles2026',
  nombre: 'Dirección',
};
const shop = ownShop('staff', ADMIN);
const { base } = shop;

test.use({ baseURL: base });
test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  await shop.start();
});
test.afterAll(() => shop.stop());

test('an administrador enrols TOTP, signs in with a code, invites almacén, who sees only almacén’s sections', async ({
  browser,
  page,
}) => {
  // First sign-in: the password, then the enrolment screen (the back office is not shown before it).
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/admin');
  await page.getByLabel('Correo electrónico').fill(ADMIN.email);
  await page.getByLabel('Contraseña', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByRole('heading', { name: 'Configure la verificación en dos pasos' })).toBeVisible();
  await expect(
    page.getByRole('img', { name: 'Código QR para su aplicación de autenticación' }),
  ).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Secciones' })).toHaveCount(0);
  const refused = await page.request.get('/api/admin/orders');
  expect(refused.status()).toBe(403);
  await page.screenshot({ path: 'test-results/staff-enrolment-1280.png', fullPage: true });
  const { recoveryCodes } = await enrolSecondFactor(page, base, ADMIN.email);
  expect(recoveryCodes).toHaveLength(10);
  await expect(
    page.getByRole('navigation', { name: 'Secciones' }).getByRole('link', { name: 'Personal' }),
  ).toBeVisible();

  // A second sign-in, elsewhere: the password and then a code from the app.
  const { context: adminContext, staff: admin } = await signInStaff(browser, base, ADMIN);
  await admin.getByRole('navigation', { name: 'Secciones' }).getByRole('link', { name: 'Personal' }).click();
  await expect(admin.getByRole('heading', { name: 'Personal', exact: true })).toBeVisible();
  const invitee = `almacen.${Date.now()}@ciencia-occidente.mx`;
  const form = admin.getByRole('form', { name: 'Invitar al personal' });
  await form.getByLabel('Correo').fill(invitee);
  await form.getByLabel('Rol').selectOption('almacen');
  await form.getByRole('button', { name: 'Enviar invitación' }).click();
  await expect(admin.getByText(`Invitación enviada a ${invitee}`)).toBeVisible();
  await expect(
    admin.getByRole('list', { name: 'Invitaciones pendientes' }).getByRole('listitem'),
  ).toContainText(invitee);
  await admin.screenshot({ path: 'test-results/staff-personal-1280.png', fullPage: true });

  // The invitation's single-use link, from the mail.
  let link = '';
  await expect
    .poll(
      async () => {
        const { mails } = (await (await admin.request.get('/dev/correo.json')).json()) as {
          mails: { kind: string; to: string; text: string }[];
        };
        const mail = mails.find((m) => m.kind === 'staff-invitation' && m.to === invitee);
        link = /\/admin\/invitacion\/[A-Za-z0-9_-]{43}/.exec(mail?.text ?? '')?.[0] ?? '';
        return link;
      },
      { message: 'the staff invitation mail' },
    )
    .not.toBe('');

  // The invitee: name and password, then the enrolment, then almacén's back office.
  const almacenContext = await browser.newContext({
    baseURL: base,
    locale: 'es-MX',
    viewport: { width: 1280, height: 900 },
  });
  const almacen = await almacenContext.newPage();
  await almacen.goto(link);
  await expect(almacen.getByText('Almacén', { exact: true })).toBeVisible();
  await almacen.getByLabel('Nombre').fill('Ramiro');
  await almacen.getByLabel('Apellido').fill('Bodega');
  await almacen.getByLabel('Teléfono').fill('3312345678');
  await almacen.getByLabel('Contraseña', { exact: true }).fill('Almacen#Roles2026');
  await almacen.getByRole('button', { name: 'Crear mi acceso' }).click();
  await expect(
    almacen.getByRole('heading', { name: 'Configure la verificación en dos pasos' }),
  ).toBeVisible();
  await enrolSecondFactor(almacen, base, invitee);
  const nav = almacen.getByRole('navigation', { name: 'Secciones' });
  await expect(nav).toBeVisible();
  await expect(nav.getByRole('link')).toHaveText([
    'Tablero',
    'Pedidos',
    'Productos',
    'Por agotarse',
    'Pagos diferidos',
    'Devoluciones',
    'Ventas controladas',
  ]);
  await expect(almacen.getByText('Almacén', { exact: true })).toBeVisible();
  await almacen.screenshot({ path: 'test-results/staff-almacen-1280.png', fullPage: true });

  // Products: readable (stock is counted there), but no «Nuevo producto» for almacén.
  await nav.getByRole('link', { name: 'Productos' }).click();
  await expect(almacen.getByRole('heading', { name: 'Productos' })).toBeVisible();
  await expect(almacen.getByRole('row').nth(1)).toBeVisible();
  await expect(almacen.getByRole('link', { name: 'Nuevo producto' })).toHaveCount(0);

  // A section outside almacén's role, opened by its address: said plainly; its API refuses too.
  await almacen.goto('/admin/facturas');
  await expect(almacen.getByRole('heading', { name: 'No tiene permiso para esta acción' })).toBeVisible();
  expect((await almacen.request.get('/api/admin/invoices')).status()).toBe(403);
  expect((await almacen.request.get('/api/admin/orders')).status()).toBe(200);

  // The administrador sees the new member with the second factor on, and the log filtered by them.
  await admin.reload();
  const row = admin.getByRole('row').filter({ hasText: invitee });
  await expect(row.getByRole('combobox')).toHaveValue('almacen');
  await expect(row.getByText('Dos pasos: configurada')).toBeVisible();
  await admin.goto(`/admin/bitacora?actor=${encodeURIComponent(invitee)}`);
  const entries = admin.getByRole('listitem');
  await expect(entries.filter({ hasText: 'Verificación en dos pasos activada' })).toHaveCount(1);
  await expect(entries.filter({ hasText: 'Invitación al personal aceptada' })).toHaveCount(1);
  // The invitation was the administrador's action, not the invitee's.
  await expect(entries.filter({ hasText: 'Invitación al personal enviada' })).toHaveCount(0);
  await admin.screenshot({ path: 'test-results/staff-bitacora-1280.png', fullPage: true });
  await almacenContext.close();
  await adminContext.close();
});
