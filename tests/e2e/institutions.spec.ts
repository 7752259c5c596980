import { expect, type Page, test } from '@playwright/test';
import { ownShop } from './own-server.ts';
import { registerThroughApi } from './register-helper.ts';
import { signInStaff } from './staff-session.ts';

/**
 * Institution accounts (issue 34): staff create an institution in the back office and invite its administrador → the
 * person opens the mailed link and accepts → chooses the institution in the header's «Comprando para» → sees it and
 * its members. Staff accounts are made with `npm run staff:create` before the server opens the embedded database, so
 * this journey starts its own server like admin.spec.ts, on its own port (own-server.ts).
 * SHOTS_DIR=… saves screenshots of the members page at 1280 and 390 px.
 */
const STAFF = {
  email: 'credito@ciencia-occidente.mx',
  password: 'Credito#Instituciones2026',
  nombre: 'Crédito',
};
const shop = ownShop('institutions', STAFF);
const { base } = shop;

test.use({ baseURL: base });
test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  await shop.start();
});

test.afterAll(() => shop.stop());

/** A page at 1280 and 390 px, whole (SHOTS_DIR only). */
async function pageShots(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function shots(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
    // The members' section alone, readable at its real size.
    const members = page.getByRole('heading', { name: 'Miembros' }).locator('xpath=ancestor::section[1]');
    await members.screenshot({ path: `${dir}/${name}-${width}-lista.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('staff create an institution, its administrador accepts the invitation and buys for it', async ({
  browser,
  page,
}) => {
  // The future administrador has an account of their own.
  const email = `compras.${Date.now()}@cucei.example.mx`;
  const registered = await registerThroughApi(page.request, {
    username: email,
    nombre: 'Patricia',
    apellidoPat: 'Ramírez',
    apellidoMat: 'Solís',
    telefono: '3336547890',
    password: 'Matraz.Aforado2026!',
  });
  expect(registered.ok(), await registered.text()).toBe(true);

  const { context, staff } = await signInStaff(browser, base, STAFF);
  await staff.getByRole('link', { name: 'Instituciones' }).click();
  const form = staff.getByRole('form', { name: 'Nueva institución' });
  await form
    .getByLabel('Razón social (sin régimen de capital)')
    .fill('Universidad Tecnológica del Occidente');
  await form.getByLabel('RFC').fill('LQB150101AB3');
  await form.getByLabel('Código postal fiscal').fill('44100');
  await form.getByLabel('Correo de cuentas por pagar').fill('cxp@uto.example.mx');
  await form.getByLabel('Correo del administrador (se le envía la invitación)').fill(email);
  await form.getByRole('button', { name: 'Crear institución' }).click();
  await expect(staff.getByRole('heading', { name: 'Universidad Tecnológica del Occidente' })).toBeVisible();
  await staff.getByRole('button', { name: 'Marcar como verificada (CSF revisada)' }).click();
  await expect(staff.getByText(/^Verificada/)).toBeVisible();
  await pageShots(staff, 'admin-institucion');
  await context.close();

  // The invitation arrives by mail with its single-use link.
  let link = '';
  await expect
    .poll(async () => {
      const { mails } = (await (await page.request.get('/dev/correo.json')).json()) as {
        mails: { kind: string; to: string; text: string }[];
      };
      const mail = mails.find((m) => m.kind === 'institution-invitation' && m.to === email);
      link = /\/cuenta\/instituciones\/invitacion\/[A-Za-z0-9_-]{43}/.exec(mail?.text ?? '')?.[0] ?? '';
      return link;
    })
    .toBeTruthy();

  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Universidad Tecnológica del Occidente' })).toBeVisible();
  await pageShots(page, 'invitacion');
  await page.getByRole('button', { name: 'Aceptar la invitación' }).click();
  await expect(page).toHaveURL(/\/cuenta\/instituciones\/\d+$/);
  await expect(page.getByText('Su papel:')).toContainText('Administrador');

  // «Comprando para» in the header: the person now buys for the institution.
  const chooser = page.getByLabel('Comprando para:');
  await chooser.selectOption({ label: 'Universidad Tecnológica del Occidente · Administrador' });
  await expect(page.getByText('Esta sesión compra para esta institución')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Comprando para:')).toHaveValue(/^\d+$/);

  // A shared address (a campus laboratory), with the same form and checks as a person's own.
  await page.getByRole('button', { name: 'Agregar dirección' }).click();
  const address = page.getByRole('form', { name: 'Domicilio de envío' });
  await address.getByLabel('Nombre de la dirección').fill('CUCEI — Laboratorio de Química 3');
  await address.getByLabel('Nombre completo').fill('Almacén de Ciencias Químicas');
  await address.getByLabel('Calle').fill('Boulevard Marcelino García Barragán');
  await address.getByLabel('Número exterior').fill('1421');
  await address.getByLabel('Colonia').fill('Olímpica');
  await address.getByLabel('Municipio').fill('Guadalajara');
  await address.getByLabel('Ciudad').fill('Guadalajara');
  await address.getByLabel('Código postal').fill('44430');
  await address.getByLabel('Teléfono').fill('3313785900');
  await address.getByLabel('Estado').selectOption({ label: 'Jalisco' });
  await address.getByRole('button', { name: 'Guardar dirección' }).click();
  await expect(page.getByText('CUCEI — Laboratorio de Química 3', { exact: true })).toBeVisible();

  // The administrador's members page: themself, an invitation, the trail.
  const invite = page.getByRole('form', { name: 'Invitar a un miembro' });
  await invite.getByLabel('Correo electrónico').fill('solicitante.lab3@cucei.example.mx');
  await invite.getByLabel('Límite por pedido (pesos)').fill('15000');
  await invite.getByRole('button', { name: 'Enviar invitación' }).click();
  await expect(
    page.getByText(/^solicitante\.lab3@cucei\.example\.mx · Solicitante · vence el/),
  ).toBeVisible();
  await expect(page.getByRole('list', { name: 'Miembros' })).toContainText(email);
  await expect(page.getByText('Invitación aceptada: nuevo miembro')).toBeVisible();
  await shots(page, 'institucion-miembros');

  // Back to buying for themself: the strip says so.
  await page.getByLabel('Comprando para:').selectOption({ label: 'Mí mismo (compra personal)' });
  await expect(page.getByRole('button', { name: 'Comprar para esta institución' })).toBeVisible();
});
