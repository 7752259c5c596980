import { mkdirSync } from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { AFTER_FIRST_CLICK } from './first-click.ts';
import { expectNoPriceUnderWhatsApp } from './floating-button.ts';
import { registerThroughApi } from './register-helper.ts';

type Card = { code: string; name: string; stock: number; imageUrl: string | null };
const password = 'Matraz#2024x';
const shots = process.env.SHOTS_DIR ?? 'test-results/shots-checkout';
mkdirSync(shots, { recursive: true });

const money = (cents: number) =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

async function pickProducts(request: APIRequestContext, count: number, skip = 0): Promise<Card[]> {
  const res = await request.get('/api/products?pageSize=60&page=2');
  const { items } = (await res.json()) as { items: Card[] };
  return items.filter((p) => p.stock >= 5 && p.imageUrl).slice(skip, skip + count);
}

async function stockOf(request: APIRequestContext, code: string): Promise<number> {
  const res = await request.get(`/api/products/${encodeURIComponent(code)}/stock`);
  return ((await res.json()) as { stock: number }).stock;
}

async function register(request: APIRequestContext, email: string) {
  const res = await registerThroughApi(request, {
    username: email,
    password,
    nombre: 'Laura',
    apellidoPat: 'Méndez',
    apellidoMat: 'Ochoa',
    telefono: '3311223344',
  });
  expect(res.ok(), await res.text()).toBe(true);
}

async function addToCart(page: Page, code: string) {
  await page.goto(`/productos/${encodeURIComponent(code)}`);
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByText('Producto agregado al carrito').first()).toBeVisible(AFTER_FIRST_CLICK);
}

async function payWith(page: Page, number: string) {
  await page.getByLabel('Nombre del titular').fill('Laura Méndez Ochoa');
  await page.getByLabel('Número de tarjeta').fill(number);
  await page.getByLabel('Mes', { exact: true }).fill('12');
  await page.getByLabel('Año').fill(String((new Date().getFullYear() + 2) % 100));
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Pagar' }).click();
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `${shots}/desk-${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  await page.screenshot({ path: `${shots}/mob-${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('visitor → two products → signs in → address → pays → /resumen → /historial → receipt → cancels (refund)', async ({
  page,
  request,
}) => {
  const email = `compra.${Date.now()}@example.com`;
  await register(request, email);
  const [a, b] = await pickProducts(request, 2);
  const before = { a: await stockOf(request, a!.code), b: await stockOf(request, b!.code) };

  // A visitor cannot open /orden.
  await page.goto('/orden');
  await expect(page).toHaveURL(/\/ingresar\?redirect=%2Forden$/);

  await addToCart(page, a!.code);
  await addToCart(page, b!.code);
  await expect(page.getByTestId('cart-count')).toHaveText('2');

  await page.goto('/carrito');
  await page.getByRole('button', { name: 'Finalizar compra' }).click();
  await expect(page).toHaveURL(/\/ingresar\?redirect=/);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(page.getByRole('button', { name: /Cuenta de Laura/ })).toBeVisible();
  await page.goto('/carrito');
  await expect(page.getByTestId('cart-count')).toHaveText('2');
  await page.getByRole('button', { name: 'Finalizar compra' }).click();

  // Step 2: the address.
  await expect(page).toHaveURL(/\/envio$/);
  await expect(page.getByRole('navigation', { name: 'Pasos de la compra' })).toBeVisible();
  await page.getByLabel('Nombre completo').fill('Laura Méndez Ochoa');
  await page.getByLabel('Calle').fill('Avenida Vallarta Poniente');
  await page.getByLabel('Número exterior').fill('3040');
  await page.getByLabel('Colonia').fill('Vallarta Norte');
  await page.getByLabel('Municipio').fill('Guadalajara');
  await page.getByLabel('Ciudad').fill('Guadalajara');
  await page.getByLabel('Código postal').fill('44690');
  await page.getByLabel('Teléfono').fill('3311223344');
  await page.getByLabel('Estado').selectOption('Jalisco');
  await shoot(page, 'envio');
  await page.getByRole('button', { name: 'Continuar' }).click();

  // Step 3: 'Compra' with the server's amounts.
  await expect(page).toHaveURL(/\/orden$/);
  await expect(page.getByRole('heading', { name: 'Compra' })).toBeVisible();
  await expect(page.getByTestId('order-line')).toHaveCount(2);
  const quote = (await (
    await request.post('/api/cart/quote', {
      data: {
        items: [
          { code: a!.code, quantity: 1 },
          { code: b!.code, quantity: 1 },
        ],
      },
    })
  ).json()) as { subtotalCents: number; shippingCents: number; totalCents: number };
  await expect(page.getByTestId('order-subtotal')).toHaveText(money(quote.subtotalCents));
  await expect(page.getByTestId('order-shipping')).toHaveText(money(quote.shippingCents));
  await expect(page.getByTestId('order-total')).toHaveText(money(quote.totalCents));
  await expect(page.getByText('Avenida Vallarta Poniente 3040')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Cambiar dirección' })).toHaveAttribute(
    'href',
    '/cuenta/domicilio?volver=compra',
  );
  // On a phone no line's price lies under the WhatsApp button.
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoPriceUnderWhatsApp(
    page,
    page.getByTestId('order-line-total').or(page.getByTestId('order-total')),
  );
  await page.setViewportSize({ width: 1280, height: 900 });

  // The card form's rules: digits only, lengths, all required.
  await page.getByRole('button', { name: 'Pagar' }).click();
  await expect(page.getByText('No deje vacío este campo').first()).toBeVisible();
  await page.getByLabel('Número de tarjeta').fill('4111-1111-1111-11119999');
  await expect(page.getByLabel('Número de tarjeta')).toHaveValue('4111111111111111');
  await expect(page.getByLabel('CVC')).toHaveAttribute('type', 'password');
  await shoot(page, 'orden');

  await payWith(page, '4111111111111111');
  await expect(page.getByText('Pago realizado con éxito')).toBeVisible();
  await expect(
    page.getByText('Será redirigido a la página de confirmación de compra en breve.'),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/resumen\/\d+$/, { timeout: 10_000 });
  const number = page.url().match(/(\d+)$/)![1]!;
  await expect(page.getByRole('heading', { name: '¡Pedido comprado con éxito!' })).toBeVisible();
  await expect(page.getByTestId('order-number')).toHaveText(`#${number}`);
  await expect(page.getByTestId('summary-total')).toHaveText(money(quote.totalCents));
  await expect(page.getByRole('link', { name: a!.name })).toHaveAttribute(
    'href',
    `/productos/${encodeURIComponent(a!.code)}`,
  );
  await expect(page.getByTestId('cart-count')).toHaveText('0');
  expect(await stockOf(request, a!.code)).toBe(before.a - 1);
  await shoot(page, 'resumen');

  // The back button after paying does not lead to a second payment.
  await page.goBack();
  await expect(page).not.toHaveURL(/\/orden$/);

  await page.goto('/historial');
  await expect(page.getByRole('heading', { name: 'Historial de pedidos' })).toBeVisible();
  const card = page.getByTestId('order-card').filter({ hasText: `Pedido #${number}` });
  await expect(card.getByTestId('order-status')).toHaveText('Pagado');
  await expect(card).toContainText('Sin asignar');
  await expect(card.getByRole('link', { name: 'Solicitar factura' })).toHaveAttribute(
    'href',
    `/factura/${number}`,
  );

  await card.getByRole('button', { name: 'Ver recibo' }).click();
  const receipt = page.getByRole('dialog', { name: 'Recibo de compra' });
  await expect(receipt).toContainText(`Pedido #${number}`);
  await expect(receipt.getByTestId('outcome-bought')).toBeVisible();
  await expect(receipt.getByTestId('receipt-shipping')).toHaveText(money(quote.shippingCents));
  await expect(receipt).toContainText('Laura Méndez Ochoa');
  await shoot(page, 'recibo');
  await receipt.getByRole('button', { name: 'Cerrar' }).click();

  await card.getByRole('button', { name: 'Cancelar pedido' }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText('¿Está seguro que desea solicitar la cancelación del pedido?');
  await confirm.getByRole('button', { name: 'Volver' }).click();
  await expect(confirm).toHaveCount(0);
  await card.getByRole('button', { name: 'Cancelar pedido' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancelar pedido' }).click();
  await expect(page.getByText(`Pedido #${number} cancelado`)).toBeVisible();
  await expect(card.getByTestId('order-status')).toHaveText('Cancelado');
  await expect(card.getByRole('button', { name: 'Cancelar pedido' })).toHaveCount(0);
  expect(await stockOf(request, a!.code)).toBe(before.a);
  expect(await stockOf(request, b!.code)).toBe(before.b);
  await card.getByRole('button', { name: 'Ver recibo' }).click();
  await expect(page.getByRole('dialog').getByTestId('outcome-cancelled')).toBeVisible();
  await expect(page.getByRole('dialog')).toContainText('Pedido cancelado');
  await shoot(page, 'historial');
});

test('a declined card shows its message and the stock is back; the 3-D Secure card goes through the bank page', async ({
  page,
}) => {
  const email = `tarjeta.${Date.now()}@example.com`;
  await register(page.request, email);
  const address = await page.request.put('/api/account/shipping-address', {
    data: {
      nombreEnvio: 'Laura Méndez Ochoa',
      telefonoEnvio: '3311223344',
      cpEnvio: '44690',
      calleEnvio: 'Avenida Vallarta Poniente',
      numExtEnvio: '3040',
      numIntEnvio: '',
      coloniaEnvio: 'Vallarta Norte',
      municipioEnvio: 'Guadalajara',
      ciudadEnvio: 'Guadalajara',
      estadoEnvio: 'Jalisco',
      paisEnvio: 'México',
    },
  });
  expect(address.ok(), await address.text()).toBe(true);
  const [p] = await pickProducts(page.request, 1, 3);
  const before = await stockOf(page.request, p!.code);
  await addToCart(page, p!.code);

  await page.goto('/orden');
  await expect(page.getByTestId('order-line')).toHaveCount(1);
  await payWith(page, '4000000000000002');
  await expect(page.getByRole('alert').filter({ hasText: 'Tarjeta declinada' })).toBeVisible();
  expect(await stockOf(page.request, p!.code)).toBe(before);
  await payWith(page, '4444444444444448');
  await expect(
    page.getByRole('alert').filter({ hasText: 'La tarjeta no tiene fondos suficientes' }),
  ).toBeVisible();

  await payWith(page, '4000000000000044');
  await expect(page).toHaveURL(/\/api\/payments\/sandbox\/3ds\/tr[a-z0-9]+$/);
  await expect(page.getByRole('button', { name: 'Autorizar' })).toBeVisible();
  await page.screenshot({ path: `${shots}/desk-3ds.png` });
  await page.getByRole('button', { name: 'Autorizar' }).click();
  await expect(page).toHaveURL(/\/resumen\/\d+$/);
  await expect(page.getByRole('heading', { name: '¡Pedido comprado con éxito!' })).toBeVisible();
  await expect(page.getByTestId('cart-count')).toHaveText('0');
  expect(await stockOf(page.request, p!.code)).toBe(before - 1);
  await page.goto('/historial');
  // The two declined attempts are no purchases: the history lists the paid order only.
  await expect(page.getByTestId('order-status').filter({ hasText: 'Pagado' })).toHaveCount(1);
  await expect(page.getByTestId('order-status')).toHaveCount(1);
});
