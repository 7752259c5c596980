import { type APIRequestContext, expect, test } from '@playwright/test';
import { registerThroughApi } from './register-helper.ts';

type Card = { code: string; name: string; priceCents: number; stock: number; imageUrl: string | null };
type Saved = { items: { code: string; quantity: number }[] };

async function pickProduct(request: APIRequestContext) {
  const res = await request.get('/api/products?pageSize=60');
  const { items } = (await res.json()) as { items: Card[] };
  const some = items.find((p) => p.stock >= 5 && p.stock <= 40);
  if (!some) throw new Error('the demo catalogue has no product with stock 5–40');
  return some;
}

const savedQuantity = async (request: APIRequestContext, code: string) => {
  const res = await request.get('/api/cart');
  if (res.status() !== 200) return -1;
  return ((await res.json()) as Saved).items.find((i) => i.code === code)?.quantity ?? 0;
};

/** A shopper registered (and so signed in) through the API: the request context and its page carry the session. */
async function registerShopper(request: APIRequestContext, prefix: string) {
  const reg = await registerThroughApi(request, {
    username: `${prefix}.${Date.now()}@example.mx`,
    nombre: 'Rocío',
    apellidoPat: 'Navarro',
    apellidoMat: 'Ibarra',
    telefono: '3312345678',
    password: 'Matraz.Kitasato2024!',
  });
  expect(reg.status()).toBeLessThan(300);
}

test('a visitor cart is merged at sign-in, saved on every change and follows the shopper to another browser', async ({
  page,
  browser,
}) => {
  const some = await pickProduct(page.request);
  const email = `carrito.${Date.now()}@example.mx`;
  const password = 'Matraz.Kitasato2024!';

  // A visitor fills the cart; the server knows nothing of it.
  await page.addInitScript((item) => {
    if (!sessionStorage.getItem('seeded')) {
      localStorage.setItem('cartItems', JSON.stringify([{ ...item, quantity: 2 }]));
      sessionStorage.setItem('seeded', '1');
    }
  }, some);
  await page.goto('/carrito');
  await expect(page.getByTestId('cart-count')).toHaveText('2');
  expect((await page.request.get('/api/cart')).status()).toBe(401);

  // Finalizar compra as a visitor: sign in first.
  await page.getByRole('button', { name: 'Finalizar compra' }).click();
  await expect(page).toHaveURL(/\/ingresar\?redirect=(%2F|\/)orden$/);

  // Registering signs in (the cookie is shared by page.request and the page).
  const reg = await registerThroughApi(page.request, {
    username: email,
    nombre: 'Rocío',
    apellidoPat: 'Navarro',
    apellidoMat: 'Ibarra',
    telefono: '3312345678',
    password,
  });
  expect(reg.status()).toBeLessThan(300);
  await page.goto('/carrito');
  await expect.poll(() => savedQuantity(page.request, some.code)).toBe(2);

  // A change in the cart reaches the server.
  const qty = page.getByRole('textbox', { name: `Cantidad de ${some.name}` });
  await qty.fill('3');
  await qty.press('Enter');
  await expect(page.getByTestId('cart-count')).toHaveText('3');
  await expect.poll(() => savedQuantity(page.request, some.code)).toBe(3);

  // Signed in without a saved address: Finalizar compra → /envio; with one → /orden.
  await page.getByRole('button', { name: 'Finalizar compra' }).click();
  await expect(page).toHaveURL(/\/envio$/);
  const address = await page.request.put('/api/account/shipping-address', {
    data: {
      nombreEnvio: 'Rocío Navarro Ibarra',
      telefonoEnvio: '3312345678',
      cpEnvio: '44530',
      calleEnvio: 'Av. Mariano Otero',
      numExtEnvio: '1249',
      numIntEnvio: '',
      coloniaEnvio: 'Rinconada del Bosque',
      municipioEnvio: 'Guadalajara',
      ciudadEnvio: 'Guadalajara',
      estadoEnvio: 'Jalisco',
    },
  });
  expect(address.status()).toBe(200);
  await page.goto('/carrito');
  await page.getByRole('button', { name: 'Finalizar compra' }).click();
  await expect(page).toHaveURL(/\/orden$/);

  // Another browser (empty local storage) signs in and finds the same cart.
  const other = await browser.newContext();
  const phone = await other.newPage();
  const login = await phone.request.post('/api/auth/login', { data: { username: email, password } });
  expect(login.status()).toBe(200);
  await phone.goto('/carrito');
  await expect(phone.getByTestId('cart-line')).toHaveCount(1);
  await expect(phone.getByRole('textbox', { name: `Cantidad de ${some.name}` })).toHaveValue('3');
  await expect(phone.getByTestId('cart-count')).toHaveText('3');

  // Removing it there empties the saved cart, and the first browser sees that on its next visit.
  await phone.getByRole('button', { name: `Eliminar ${some.name} del carrito` }).click();
  await expect.poll(() => savedQuantity(phone.request, some.code)).toBe(0);
  await other.close();
  await page.goto('/carrito');
  await expect(page.getByText('Su carrito está vacío')).toBeVisible();
  await expect(page.getByTestId('cart-count')).toHaveText('0');
});

test('a product a signed-in shopper adds stays in the cart when the next page opens at once', async ({
  page,
}) => {
  const some = await pickProduct(page.request);
  await registerShopper(page.request, 'al.paso');
  // A slow network: the saved cart takes a second and a half to arrive, and the shopper clicks meanwhile.
  await page.route(/\/api\/cart(\/merge)?$/, async (route) => {
    if (route.request().method() !== 'PUT') await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  const merged = page.waitForResponse((r) => r.url().endsWith('/api/cart/merge'));
  await page.goto(`/productos/${encodeURIComponent(some.code)}`);
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByTestId('add-to-cart-count')).toHaveText('1');
  await merged;
  // Straight to the cart, before the save (which waits 400 ms for more changes) has gone out.
  await page.goto('/carrito');
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  await expect.poll(() => savedQuantity(page.request, some.code)).toBe(1);
});

test('a product added while the session check is still on its way is kept and saved', async ({ page }) => {
  const some = await pickProduct(page.request);
  await registerShopper(page.request, 'sesion.lenta');
  // A first visit syncs this browser with the (empty) saved cart.
  const synced = page.waitForResponse((r) => /\/api\/cart(\/merge)?$/.test(r.url()));
  await page.goto('/carrito');
  await synced;

  // On the next page the session check hangs until the shopper has clicked 'Agregar' twice.
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  await page.route(/\/api\/auth\/session$/, async (route) => {
    await gate;
    await route.continue();
  });
  await page.goto(`/productos/${encodeURIComponent(some.code)}`);
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByTestId('add-to-cart-count')).toHaveText('1');
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByTestId('add-to-cart-count')).toHaveText('2');
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/cart') && r.request().method() === 'GET');
  release();
  await saved;
  // The saved cart (empty) arrived after both clicks: they stay, and reach the server.
  await expect(page.getByTestId('add-to-cart-count')).toHaveText('2');
  await expect(page.getByTestId('cart-count').first()).toHaveText('2');
  await expect.poll(() => savedQuantity(page.request, some.code)).toBe(2);
});
