import { expect, type Page, test } from '@playwright/test';
import { mailedRegistrationCode, registerThroughApi } from './register-helper.ts';

const email = `journey.${Date.now()}@example.com`;
const firstPassword = 'Matraz#2024x';
const newPassword = 'Pipeta.Azul7';

async function recoveryCode(page: Page, to: string): Promise<string> {
  const res = await page.request.get('/dev/correo.json');
  expect(res.ok()).toBe(true);
  const { mails } = (await res.json()) as {
    mails: { kind: string; to: string; subject: string; text: string }[];
  };
  const mail = mails.find((m) => m.to === to && m.kind === 'recovery-code');
  const code = mail?.subject.match(/([A-Z0-9]{8})$/)?.[1];
  expect(code, 'código en /dev/correo').toBeTruthy();
  expect(mail?.text).toContain(code!);
  return code!;
}

test('register → signed in → save an address → sign out → recover by code → sign in with the new password', async ({
  page,
}) => {
  // Registration, with the live checklist.
  await page.goto('/registro');
  await expect(page).toHaveTitle(/Registro/);
  await expect(page.getByRole('heading', { name: 'Registre una cuenta' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Principal' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Registrarse' }).click();
  await expect(page.getByText('No deje vacío este campo').first()).toBeVisible();

  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Nombre(s)').fill('Ana María');
  await page.getByLabel('Apellido paterno').fill('López');
  await page.getByLabel('Teléfono').fill('33-1234-5678');
  await expect(page.getByLabel('Teléfono')).toHaveValue('3312345678');
  const checklist = page.getByRole('list', { name: 'Requisitos de la contraseña' });
  const item = (text: string) => checklist.getByRole('listitem').filter({ hasText: text });
  await page.getByLabel('Contraseña', { exact: true }).fill('matraz');
  await expect(item('Al menos 8 caracteres')).toHaveAttribute('data-met', 'false');
  await page.getByLabel('Contraseña', { exact: true }).fill('Matraz20');
  await expect(item('Al menos 8 caracteres')).toHaveAttribute('data-met', 'true');
  await expect(item('Al menos un número')).toHaveAttribute('data-met', 'true');
  await expect(item('Al menos una letra mayúscula')).toHaveAttribute('data-met', 'true');
  await expect(item('Incluya al menos un caracter especial')).toHaveAttribute('data-met', 'false');
  await page.getByLabel('Contraseña', { exact: true }).fill(firstPassword);
  await expect(item('Incluya al menos un caracter especial')).toHaveAttribute('data-met', 'true');
  await page.getByLabel('Confirmar contraseña').fill('Matraz#2024y');
  await page.getByRole('button', { name: 'Registrarse' }).click();
  await expect(page.getByText('Las contraseñas no coinciden')).toBeVisible();
  await page.getByRole('button', { name: 'Mostrar contraseña' }).first().click();
  await expect(page.getByLabel('Contraseña', { exact: true })).toHaveAttribute('type', 'text');
  await page.getByLabel('Confirmar contraseña').fill(firstPassword);
  await page.getByRole('button', { name: 'Registrarse' }).click();

  // The code step (issue 23): the account exists only once the code from the mail is typed.
  await expect(page.getByRole('heading', { name: 'Confirme su correo' })).toBeVisible();
  await expect(page.getByText(`Le enviamos un código de verificación a ${email}.`)).toBeVisible();
  await page.getByLabel('Código de verificación').fill('000000');
  await page.getByRole('button', { name: 'Confirmar' }).click();
  await expect(page.getByText('El código de verificación no es válido o ya venció').first()).toBeVisible();
  await page.getByLabel('Código de verificación').fill(await mailedRegistrationCode(page.request, email));
  await page.getByRole('button', { name: 'Confirmar' }).click();

  // Signed in, on the home page, with the account menu.
  await expect(page).toHaveURL(/\/$/);
  const accountButton = page.getByRole('button', { name: 'Cuenta de Ana' });
  await expect(accountButton).toBeVisible();
  await expect(page.getByRole('link', { name: 'Crear cuenta' })).toHaveCount(0);
  // A signed-in user leaves the sign-in screens.
  await page.goto('/ingresar');
  await expect(page).toHaveURL(/\/$/);

  // Save a shipping address from the account area.
  await page.getByRole('button', { name: 'Cuenta de Ana' }).click();
  await expect(page.getByRole('menuitem', { name: 'Pedidos' })).toHaveAttribute('href', '/historial');
  await page.getByRole('menuitem', { name: 'Perfil' }).click();
  await expect(page).toHaveURL(/\/cuenta$/);
  await expect(page.getByRole('heading', { name: 'Ajustes' })).toBeVisible();
  await expect(page.getByLabel('Correo electrónico')).toBeDisabled();
  await expect(page.getByLabel('Correo electrónico')).toHaveValue(email);
  await page.getByRole('link', { name: 'Mis direcciones' }).click();
  await expect(page).toHaveURL(/\/cuenta\/domicilio$/);
  await expect(page.getByRole('heading', { name: 'Mis direcciones' })).toBeVisible();
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(
    page.getByText('Escriba su nombre completo').or(page.getByText('No deje vacío este campo')).first(),
  ).toBeVisible();
  await page.getByLabel('Nombre completo').fill('Ana María López Núñez');
  await page.getByLabel('Calle').fill('Av. Mariano Otero');
  await page.getByLabel('Número exterior').fill('1249');
  await page.getByLabel('Número interior (opcional)').fill('4B');
  await page.getByLabel('Colonia').fill('Rinconada del Bosque');
  await page.getByLabel('Municipio').fill('Guadalajara');
  await page.getByLabel('Ciudad').fill('Guadalajara');
  await page.getByLabel('Código postal').fill('44530');
  await page.getByLabel('Teléfono').fill('3312345678');
  await page.getByLabel('Estado').selectOption({ label: 'Ciudad de México' });
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Información de domicilio correctamente actualizada')).toBeVisible();
  const saved = await page.request.get('/api/account/shipping-address');
  expect((await saved.json()).address).toMatchObject({
    estadoEnvio: 'CDMX',
    paisEnvio: 'México',
    cpEnvio: '44530',
  });

  // Something in the cart, then sign out: the server session ends, the cart is emptied.
  // (Saved on the server: a signed-in shopper's page replaces its local copy with the saved cart, so a cart
  // written only into localStorage would show for a moment and then go.)
  const listed = await page.request.get('/api/products?pageSize=1');
  const [product] = (await listed.json()).items as { code: string }[];
  const put = await page.request.put('/api/cart', {
    data: { items: [{ code: product!.code, quantity: 2 }] },
  });
  expect(put.status()).toBe(200);
  await page.goto('/');
  await expect(page.getByTestId('cart-count')).toHaveText('2');
  const [session] = (await page.context().cookies()).filter((c) => c.name === 'sid');
  expect(session?.httpOnly).toBe(true);
  await page.getByRole('button', { name: 'Cuenta de Ana' }).click();
  await page.getByRole('menuitem', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/ingresar$/);
  await expect(page.getByRole('heading', { name: 'Ingrese a su cuenta' })).toBeVisible();
  const replay = await page.request.get('/api/auth/session', {
    headers: { cookie: `sid=${session?.value}` },
  });
  expect((await replay.json()).user).toBeNull();
  await page.goto('/');
  await expect(page.getByTestId('cart-count')).toHaveText('0');
  await expect(page.getByRole('link', { name: 'Ingresar' })).toBeVisible();
  // Visitors are sent from /cuenta to /.
  await page.goto('/cuenta/domicilio');
  await expect(page).toHaveURL(/\/$/);

  // Recovery by code, read from /dev/correo.
  await page.goto('/ingresar');
  await page.getByRole('link', { name: '¿Olvidó su contraseña?' }).click();
  await expect(page).toHaveURL(/\/recuperar$/);
  // The e-mail field takes the focus on a page reached through a link too, not only on a fresh load.
  await expect(page.getByLabel('Correo electrónico')).toBeFocused();
  await page.getByLabel('Correo electrónico').fill(email);
  await expect(page.getByRole('link', { name: 'Continuar' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Mandar código de recuperación' }).click();
  await page.getByRole('link', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(/\/codigo_recuperar$/);
  await expect(page.getByText(email)).toBeVisible();
  const code = await recoveryCode(page, email);
  await page.getByLabel('Código de recuperación').fill('ZZZZZZZZ');
  await page.getByLabel('Nueva contraseña').fill(newPassword);
  await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
  await expect(page.getByText('El código de recuperación no es válido o ya venció').first()).toBeVisible();
  await page.getByLabel('Código de recuperación').fill(code.toLowerCase());
  await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
  await page.getByRole('link', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(/\/ingresar$/);

  // The old password no longer works; the new one does.
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(firstPassword);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(page.getByText('Correo o contraseña incorrectos')).toBeVisible();
  await page.getByLabel('Contraseña', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Cuenta de Ana' })).toBeVisible();
  // The address saved before is still there ('Mis direcciones': the default one).
  await page.goto('/cuenta/domicilio');
  await expect(page.getByTestId('saved-address')).toHaveCount(1);
  await expect(page.getByTestId('saved-address')).toContainText('Av. Mariano Otero 1249');
  await expect(page.getByTestId('saved-address')).toContainText('CDMX');
  await expect(page.getByTestId('saved-address')).toContainText('Por omisión');
});

test('registering an e-mail that already has an account looks the same as a new one (issue 23)', async ({
  browser,
}) => {
  const owner = `existente.${Date.now()}@example.com`;
  const context = await browser.newContext();
  const setup = await registerThroughApi(context.request, {
    username: owner,
    nombre: 'Dueña',
    apellidoPat: 'Previa',
    telefono: '3312345678',
    password: firstPassword,
  });
  expect(setup.ok()).toBe(true);
  await context.close();

  const fill = async (page: Page, address: string) => {
    await page.goto('/registro?redirect=/carrito');
    await page.getByLabel('Correo electrónico').fill(address);
    await page.getByLabel('Nombre(s)').fill('Otra');
    await page.getByLabel('Apellido paterno').fill('Persona');
    await page.getByLabel('Teléfono').fill('3387654321');
    await page.getByLabel('Contraseña', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirmar contraseña').fill(newPassword);
    await page.getByRole('button', { name: 'Registrarse' }).click();
    await expect(page.getByRole('heading', { name: 'Confirme su correo' })).toBeVisible();
    return (await page.getByRole('status').filter({ hasText: 'Le enviamos' }).textContent())?.replace(
      address,
      '…',
    );
  };
  const page = await browser.newPage();
  const forExisting = await fill(page, owner);
  const forNew = await fill(page, `nueva.${Date.now()}@example.com`);
  expect(forExisting).toBe(forNew);
  // No session was created for the existing e-mail.
  expect((await (await page.request.get('/api/auth/session')).json()).user).toBeNull();
  await page.close();
});

test('login keeps a same-site redirect and ignores a foreign one', async ({ page }) => {
  const user = `redirect.${Date.now()}@example.com`;
  const res = await registerThroughApi(page.request, {
    username: user,
    nombre: 'Luis',
    apellidoPat: 'Pérez',
    telefono: '5512345678',
    password: firstPassword,
  });
  expect(res.ok()).toBe(true);
  await page.context().clearCookies();

  await page.goto('/ingresar?redirect=//evil.example/x');
  await expect(page.getByRole('link', { name: 'cree una cuenta nueva' })).toHaveAttribute(
    'href',
    '/registro?redirect=/',
  );
  await page.getByLabel('Correo electrónico').fill(user);
  await page.getByLabel('Contraseña', { exact: true }).fill(firstPassword);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);

  await page.context().clearCookies();
  await page.goto('/ingreso?redirect=/cuenta/password');
  await expect(page).toHaveURL(/\/ingresar\?redirect=\/cuenta\/password$/);
  await page.getByLabel('Correo electrónico').fill(user);
  await page.getByLabel('Contraseña', { exact: true }).fill(firstPassword);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(page).toHaveURL(/\/cuenta\/password$/);
  await expect(page.getByRole('heading', { name: 'Contraseña' })).toBeVisible();
});
