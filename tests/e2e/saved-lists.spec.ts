import { expect, type Page, test } from '@playwright/test';
import { registerThroughApi } from './register-helper.ts';

/**
 * 'Mis listas' (issue 18, decision 031): a list made from the product page goes to the cart in one step; its
 * read-only link opens in a colleague's browser without signing in, until the owner stops sharing it.
 */

type Card = { code: string; name: string; priceCents: number; stock: number };
const shots = process.env.E2E_SCREENSHOTS_DIR ?? 'test-results/screenshots';

async function shoot(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: `${shots}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('create a list, add a product from its page, add the list to the cart, share it with a colleague', async ({
  page,
  browser,
  baseURL,
}) => {
  // A long journey (two browsers, eight screenshots): on the shared 2-core machine it passed 60 s.
  test.setTimeout(180_000);
  const email = `listas.${Date.now()}@example.com`;
  const reg = await registerThroughApi(page.request, {
    username: email,
    password: 'Matraz#2024x',
    nombre: 'Rosa',
    apellidoPat: 'Íñiguez',
    apellidoMat: 'Luna',
    telefono: '3311223344',
  });
  expect(reg.ok(), await reg.text()).toBe(true);
  const res = await page.request.get('/api/products?pageSize=60&page=1&group=VID-MAT');
  const product = ((await res.json()) as { items: Card[] }).items.find((c) => c.stock >= 10)!;
  expect(product).toBeTruthy();

  // 'Mis listas' from the account menu: a new list.
  await page.goto('/');
  await page.getByRole('button', { name: /Cuenta de Rosa/ }).click();
  await page.getByRole('menuitem', { name: 'Mis listas' }).click();
  await expect(page).toHaveURL(/\/listas$/);
  await page.getByLabel('Nueva lista').fill('Consumibles mensuales');
  await page.getByRole('button', { name: 'Crear lista' }).click();
  await expect(page).toHaveURL(/\/listas\/\d+$/);
  await expect(page.getByTestId('list-name')).toHaveText('Consumibles mensuales');
  await expect(page.getByText('Esta lista está vacía.')).toBeVisible();

  // From the product page: 3 units into that list. The button comes after hydration, which stays clean.
  const hydration: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /hydrat|did not match/i.test(m.text())) hydration.push(m.text());
  });
  await page.goto(`/productos/${encodeURIComponent(product.code)}`);
  await page.getByTestId('add-to-list').click();
  expect(hydration).toEqual([]);
  const form = page.getByTestId('add-to-list-form');
  await expect(form.getByLabel('Lista')).toHaveValue(/\d+/);
  await form.getByLabel('Cantidad').fill('3');
  await shoot(page, 'agregar-a-lista');
  await form.getByRole('button', { name: 'Guardar en la lista' }).click();
  await expect(page.getByTestId('list-saved')).toContainText('Se guardó en la lista.');
  await page.getByRole('link', { name: 'Ver «Consumibles mensuales»' }).click();
  const line = page.getByTestId('list-line');
  await expect(line).toHaveCount(1);
  await expect(line).toContainText(product.code);
  await expect(line.getByRole('textbox')).toHaveValue('3');

  // The whole list to the cart, under the cart's rules.
  await expect(page.getByTestId('cart-count').first()).toHaveText('0');
  await page.getByTestId('list-to-cart').click();
  await expect(page.getByTestId('list-to-cart-result')).toContainText(
    'Se agregó 1 producto al carrito a los precios de hoy.',
  );
  await expect(page.getByTestId('cart-count').first()).toHaveText('3');

  // Share: a read-only link.
  await page.getByTestId('share').click();
  const url = await page.getByTestId('share-url').inputValue();
  expect(url).toMatch(/\/listas\/compartida\/[A-Za-z0-9_-]{24}$/);
  await shoot(page, 'lista');
  // The cart saved as a new list.
  await page.goto('/carrito');
  await page.getByTestId('save-cart-as-list').click();
  await page.getByLabel('Nombre de la lista').fill('Del carrito');
  await page.getByRole('button', { name: 'Guardar lista' }).click();
  await expect(page.getByTestId('list-saved')).toContainText('Se guardó 1 producto en una lista nueva.');

  await page.goto('/listas');
  await expect(page.getByTestId('lists')).toContainText('Compartida');
  await expect(page.getByTestId('lists')).toContainText('Del carrito');
  await shoot(page, 'mis-listas');

  // A colleague's browser: no session, the list opens read-only and goes to their own cart.
  const colleague = await browser.newContext({ baseURL, locale: 'es-MX' });
  const other = await colleague.newPage();
  await other.goto(new URL(url).pathname);
  await expect(other.getByTestId('list-name')).toHaveText('Consumibles mensuales');
  await expect(other.getByTestId('list-line')).toContainText(product.code);
  await expect(other.getByRole('button', { name: 'Quitar' })).toHaveCount(0);
  await expect(other.getByRole('link', { name: 'Ingresar' })).toBeVisible();
  await shoot(other, 'lista-compartida');
  await other.getByTestId('list-to-cart').click();
  await expect(other.getByTestId('list-to-cart-result')).toContainText('Se agregó 1 producto al carrito');
  await expect(other.getByTestId('cart-count').first()).toHaveText('3');

  // The owner stops sharing: the link no longer opens the list.
  await page.goto(new URL(url).pathname.replace(/compartida\/.*/, ''));
  await page
    .getByTestId('lists')
    .getByRole('link', { name: /Consumibles mensuales/ })
    .click();
  await page.getByTestId('unshare').click();
  await expect(page.getByTestId('share')).toBeVisible();
  await other.reload();
  await expect(other.getByText('Esta lista ya no está compartida')).toBeVisible();
  await colleague.close();
});
