import { mkdirSync } from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { registerThroughApi } from './register-helper.ts';

/**
 * 'Mis direcciones' (issue 20): a buyer with the lab's address adds the warehouse, picks it at checkout, pays,
 * and the confirmation, the receipt and the order's API show the warehouse; the default stays the lab.
 */
const shots = process.env.SHOTS_DIR ?? 'test-results/shots-addresses';
mkdirSync(shots, { recursive: true });

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `${shots}/desk-${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => window.innerWidth)).toBe(390);
  await page.screenshot({ path: `${shots}/mob-${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function inStock(request: APIRequestContext) {
  const res = await request.get('/api/products?pageSize=60&page=3');
  const { items } = (await res.json()) as { items: { code: string; stock: number }[] };
  return items.find((p) => p.stock >= 5)!.code;
}

test('adds a second address, chooses it at checkout, pays; the order and receipt show it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const email = `direcciones.${Date.now()}@example.com`;
  const registered = await registerThroughApi(page.request, {
    username: email,
    password: 'Matraz#2024x',
    nombre: 'Laura',
    apellidoPat: 'Gómez',
    apellidoMat: 'Ibarra',
    telefono: '3311223344',
  });
  expect(registered.ok(), await registered.text()).toBe(true);

  // The first address, on the empty 'Mis direcciones': the form of the first one.
  await page.goto('/cuenta/domicilio');
  await expect(page.getByRole('heading', { name: 'Mis direcciones' })).toBeVisible();
  await page.getByLabel('Nombre de la dirección').fill('Laboratorio de química');
  await page.getByLabel('Nombre completo').fill('Dra. Laura Gómez Ibarra');
  await page.getByLabel('Calle').fill('Blvd. Marcelino García Barragán');
  await page.getByLabel('Número exterior').fill('1421');
  await page.getByLabel('Número interior (opcional)').fill('Edif Q');
  await page.getByLabel('Colonia').fill('Olímpica');
  await page.getByLabel('Municipio').fill('Guadalajara');
  await page.getByLabel('Ciudad').fill('Guadalajara');
  await page.getByLabel('Código postal').fill('44430');
  await page.getByLabel('Teléfono').fill('3311223344');
  await page.getByLabel('Estado').selectOption('Jalisco');
  await page.getByRole('button', { name: 'Guardar' }).click();
  const cards = page.getByTestId('saved-address');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('Laboratorio de química');
  await expect(cards.first()).toContainText('Por omisión');
  // The default (and only) address offers no 'Eliminar'.
  await expect(page.getByRole('button', { name: 'Eliminar Laboratorio de química' })).toHaveCount(0);

  // The second: the warehouse, not the default.
  await page.getByRole('button', { name: 'Agregar dirección' }).click();
  await page.getByLabel('Nombre de la dirección').fill('Almacén');
  await page.getByLabel('Nombre completo').fill('Almacén General CUCEI');
  await page.getByLabel('Calle').fill('Periférico Sur Manuel Gómez Morín');
  await page.getByLabel('Número exterior').fill('8585');
  await page.getByLabel('Colonia').fill('Santa María Tequepexpan');
  await page.getByLabel('Municipio').fill('Tlaquepaque');
  await page.getByLabel('Ciudad').fill('Tlaquepaque');
  await page.getByLabel('Código postal').fill('45604');
  await page.getByLabel('Teléfono').fill('3339998877');
  await page.getByLabel('Estado').selectOption('Jalisco');
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(1)).toContainText('Almacén');
  await expect(cards.nth(1)).not.toContainText('Por omisión');
  await expect(page.getByRole('button', { name: 'Eliminar Almacén' })).toBeVisible();
  await shoot(page, 'mis-direcciones');

  // Checkout: the lab comes chosen; the buyer picks the warehouse.
  const code = await inStock(page.request);
  const put = await page.request.put('/api/cart', { data: { items: [{ code, quantity: 1 }] } });
  expect(put.status()).toBe(200);
  await page.goto('/orden');
  await expect(page.getByRole('heading', { name: 'Compra' })).toBeVisible();
  // 'Cambiar dirección' leads to 'Mis direcciones' and from there back to the purchase.
  await page.getByRole('link', { name: 'Cambiar dirección' }).click();
  await expect(page).toHaveURL(/\/cuenta\/domicilio\?volver=compra$/);
  await expect(cards).toHaveCount(2);
  await page.getByRole('link', { name: 'Volver a la compra' }).click();
  await expect(page).toHaveURL(/\/orden$/);
  await expect(page.getByRole('heading', { name: 'Compra' })).toBeVisible();
  const choice = page.getByRole('group', { name: 'Enviar a' });
  await expect(choice.getByRole('radio', { name: /Laboratorio de química/ })).toBeChecked();
  await choice.getByRole('radio', { name: /Almacén/ }).check();
  const card = page.getByRole('region', { name: 'Dirección de envío' });
  await expect(card.locator('address')).toContainText('Periférico Sur Manuel Gómez Morín 8585');
  await shoot(page, 'orden-eleccion');

  await page.getByLabel('Nombre del titular').fill('Laura Gómez Ibarra');
  await page.getByLabel('Número de tarjeta').fill('4111111111111111');
  await page.getByLabel('Mes', { exact: true }).fill('12');
  await page.getByLabel('Año').fill(String((new Date().getFullYear() + 2) % 100));
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Pagar' }).click();
  await expect(page).toHaveURL(/\/resumen\/\d+$/, { timeout: 15_000 });
  const number = page.url().match(/(\d+)$/)![1]!;
  await expect(page.getByRole('heading', { name: '¡Pedido comprado con éxito!' })).toBeVisible();
  await expect(page.locator('address')).toContainText('Periférico Sur Manuel Gómez Morín 8585');

  const order = await (await page.request.get(`/api/orders/${number}`)).json();
  expect(order.address).toMatchObject({ nombreEnvio: 'Almacén General CUCEI', cpEnvio: '45604' });

  await page.goto('/historial');
  const orderCard = page.getByTestId('order-card').filter({ hasText: `Pedido #${number}` });
  await orderCard.getByRole('button', { name: 'Ver recibo' }).click();
  const receipt = page.getByRole('dialog', { name: 'Recibo de compra' });
  await expect(receipt).toContainText('Almacén General CUCEI');
  await expect(receipt).toContainText('Periférico Sur Manuel Gómez Morín');

  // The default is still the lab: choosing at checkout does not move it.
  const saved = await (await page.request.get('/api/account/shipping-address')).json();
  expect(saved.address.alias).toBe('Laboratorio de química');
});
